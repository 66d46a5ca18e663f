/// A published experiment as this run reproduced it (or did not).
public struct ExperimentReport: Codable, Equatable, Sendable {
    public var name: String
    public var lesson: String
    public var source: String
    public var sourceSetting: String
    /// The timed sides (absent for a behaviour).
    public var baseline: Side?
    public var treatment: Side?
    /// The source's baseline time over its treatment time.
    public var sourceRatio: Double?
    /// The same from this run's medians, and its 95% bootstrap interval.
    public var measuredRatio: Double?
    public var ratioInterval: [Double]?
    /// For a behaviour: what the source shows.
    public var expectation: String?
    public var verdict: ExperimentVerdict
    /// Why, from this run's counters and timings.
    public var reason: String
    /// From which cost per statement the recommended way wins
    /// (``StatementBreakEven``), where it saves statements; nil otherwise,
    /// and in reports written before it was worked out.
    public var breakEven: StatementBreakEven?

    /// One side as measured.
    public struct Side: Codable, Equatable, Sendable {
        /// `SingleFault`, `Cache: cold`.
        public var label: String
        public var sourceSeconds: Double
        /// The source's figure as the source gives it (`just under 30 s`);
        /// nil where it gives an exact figure, written as ``sourceSeconds``.
        public var sourceText: String?
        public var medianSeconds: Double
        public var sqliteSeconds: Double
        /// The counters the reason rests on (statements, rows, faults).
        public var counters: [String: Int]

        public init(
            label: String, sourceSeconds: Double, sourceText: String? = nil, medianSeconds: Double, sqliteSeconds: Double, counters: [String: Int]
        ) {
            self.label = label
            self.sourceSeconds = sourceSeconds
            self.sourceText = sourceText
            self.medianSeconds = medianSeconds
            self.sqliteSeconds = sqliteSeconds
            self.counters = counters
        }
    }

    public init(
        name: String, lesson: String, source: String, sourceSetting: String, baseline: Side? = nil, treatment: Side? = nil,
        sourceRatio: Double? = nil, measuredRatio: Double? = nil, ratioInterval: [Double]? = nil, expectation: String? = nil,
        verdict: ExperimentVerdict, reason: String, breakEven: StatementBreakEven? = nil
    ) {
        self.breakEven = breakEven
        self.name = name
        self.lesson = lesson
        self.source = source
        self.sourceSetting = sourceSetting
        self.baseline = baseline
        self.treatment = treatment
        self.sourceRatio = sourceRatio
        self.measuredRatio = measuredRatio
        self.ratioInterval = ratioInterval
        self.expectation = expectation
        self.verdict = verdict
        self.reason = reason
    }
}

extension ExperimentReport.Side {
    /// The source's figure with its own precision: as the source words it,
    /// or the figure's own digits (`0.6 s`, `30 s`).
    public var sourceFigure: String { sourceText ?? TimeText.asGiven(sourceSeconds) }
}

extension ExperimentReport {
    /// `10x`, `1.14x`, `0.97x`; `-` for a behaviour.
    public var sourceRatioText: String { sourceRatio.map(Self.ratio) ?? "-" }

    /// `1.14x (1.09x–1.20x)`; `-` for a behaviour.
    public var measuredRatioText: String {
        guard let measuredRatio else { return "-" }
        return Self.ratio(measuredRatio) + (ratioInterval.map { " (\(Self.ratio($0[0]))–\(Self.ratio($0[1])))" } ?? "")
    }

    /// `10x`, `1.14x`, `0.97x`, `∞`.
    public static func ratio(_ value: Double) -> String {
        guard value.isFinite else { return "∞" }
        return value >= 10 ? String(format: "%.0fx", value) : String(format: "%.2fx", value)
    }

    /// The note under every experiment table.
    public static let ratioNote = "ratio: the time of the way the book warns against over the time of the way it recommends "
        + "(above 1: the recommended way is faster); medians of the measured iterations, with a 95% bootstrap interval"
}
