import Foundation

/// Two reports compared: counters exactly, insights by identity, timings as
/// samples. Encoded as JSON (schema version 1) by `perf-run compare --format json`.
public struct ReportComparison: Codable, Equatable, Sendable {
    public static let currentSchemaVersion = 1

    public var schemaVersion = ReportComparison.currentSchemaVersion
    public var base: String
    public var head: String
    /// Why counters cannot be compared (another data set scale, seed or SQLite), or nil.
    public var countersNotComparable: String?
    /// Why timings cannot be compared (another machine, Swift, build), or nil.
    public var timingsNotComparable: String?
    public var scenarios: [ScenarioComparison]
    /// Whether anything gates: a counter regression, a new insight, a timing regression.
    public var hasRegression: Bool

    public struct ScenarioComparison: Codable, Equatable, Sendable {
        public var name: String
        /// `compared`, `only in base`, `only in head`, or the head's failure.
        public var status: String
        public var counters: [CounterComparison]
        public var statements: [StatementChange]
        public var newInsights: [Insight]
        public var timing: TimingComparison?
    }

    public struct CounterComparison: Codable, Equatable, Sendable {
        public var name: String
        public var base: Int
        public var head: Int
        /// `same`, `regression`, `improvement`, `allowed` (by thresholds), `advisory`.
        public var verdict: String
    }

    public struct StatementChange: Codable, Equatable, Sendable {
        public var shape: String
        /// `added`, `removed` or `grew`.
        public var change: String
        public var baseCount: Int
        public var headCount: Int
    }

    public struct TimingComparison: Codable, Equatable, Sendable {
        public var baseMedian: Double
        public var headMedian: Double
        public var ratio: Double
        public var ratioLow: Double?
        public var ratioHigh: Double?
        public var pValue: Double?
        public var adjustedPValue: Double?
        /// `slower`, `faster`, `unchanged`, `inconclusive`, `not comparable`.
        public var verdict: String
        public var reason: String?
    }
}
