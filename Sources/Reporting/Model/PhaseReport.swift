/// One phase of a scenario (the cold pass of Cache, the batch update of
/// BatchUpdate) over the measured iterations: experiments compare phases.
public struct PhaseReport: Codable, Equatable, Sendable {
    public var name: String
    /// The phase's wall time in each measured iteration.
    public var samples: [Double]
    /// The process's CPU time during the phase in each measured iteration;
    /// nil in reports written before it was measured.
    public var cpuSamples: [Double]?
    public var seconds: Statistics
    /// Time in SQLite statements during the phase, over the iterations.
    public var sqliteSeconds: Statistics
    /// What the phase did in the last measured iteration: the counters'
    /// increase while it ran.
    public var counters: [String: Int]

    public init(name: String, samples: [Double], cpuSamples: [Double]? = nil, sqliteSeconds: [Double], counters: [String: Int]) {
        self.name = name
        self.samples = samples
        self.cpuSamples = cpuSamples
        self.seconds = Statistics(samples)
        self.sqliteSeconds = Statistics(sqliteSeconds)
        self.counters = counters
    }
}

extension PhaseReport {
    /// The samples of `measure`; nil for CPU time in a report written
    /// before it was measured.
    public func samples(_ measure: TimingMeasure) -> [Double]? {
        switch measure {
        case .cpu: cpuSamples
        case .wall: samples
        }
    }
}
