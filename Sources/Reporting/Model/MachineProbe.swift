/// How fast the machine was while a scenario ran: a fixed workload
/// (``MachineSpeedProbe`` in Scenarios) timed just before each measured
/// iteration. The same workload takes the same time on the same machine;
/// when two reports' probes differ, their machines (or what else ran on
/// them) differed, and `compare` does not take a timing change the machine
/// explains for a change of the code.
public struct MachineProbe: Codable, Equatable, Sendable {
    /// The probe's CPU time before each measured iteration.
    public var cpuSeconds: [Double]
    /// Its wall time, likewise.
    public var wallSeconds: [Double]
    /// For a scenario that writes: the wall time of writing a page and
    /// syncing it to the disk, before each measured iteration.
    public var syncSeconds: [Double]?

    public init(cpuSeconds: [Double], wallSeconds: [Double], syncSeconds: [Double]? = nil) {
        self.cpuSeconds = cpuSeconds
        self.wallSeconds = wallSeconds
        self.syncSeconds = syncSeconds
    }

    /// The samples of `measure`.
    public func samples(_ measure: TimingMeasure) -> [Double] {
        switch measure {
        case .cpu: cpuSeconds
        case .wall: wallSeconds
        }
    }
}

/// Which time a comparison judges.
///
/// - `cpu` (the default): the process's CPU time over the iteration
///   (`CLOCK_PROCESS_CPUTIME_ID`, every thread). It is the work the code
///   did: on a shared CI runner, time spent waiting for a core (another
///   job's build) is not in it, so it moves far less between two runs of
///   one binary than the wall clock does (on a 2-core machine with two
///   builds beside it: a few percent, where wall times moved up to 2.5x).
///   It leaves out waiting on the disk (`fsync`) and on locks.
/// - `wall`: the elapsed time, as a user waits it; for work that waits
///   (I/O, threads that block), on a quiet machine.
public enum TimingMeasure: String, Codable, CaseIterable, Sendable {
    case cpu, wall

    /// What a text calls it: `CPU` or `wall` (`CPU time`, `wall median`).
    var word: String {
        switch self {
        case .cpu: "CPU"
        case .wall: "wall"
        }
    }
}
