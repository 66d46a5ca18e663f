import Probes

extension Trend {
    /// One exact counter along a line: a value per commit.
    public struct CounterSeries: Codable, Equatable, Sendable {
        /// The report's name (`sqlStatements`).
        public var name: String
        /// What a change of it means (``CounterName/Direction``): an
        /// increase of a cost is a regression, a decrease an improvement; a
        /// neutral counter's change is a change. Nil for a name Faultline
        /// does not know (judged as neutral).
        public var direction: CounterName.Direction?
        /// One per commit of the line, in its order.
        public var points: [CounterPoint]

        public init(name: String, direction: CounterName.Direction?, points: [CounterPoint]) {
            self.name = name
            self.direction = direction
            self.points = points
        }
    }

    public struct CounterPoint: Codable, Equatable, Sendable {
        public var commit: String
        /// Nil where the commit has no value (the scenario did not pass, or
        /// the counter was advisory in that run).
        public var value: Int?
        /// Set when the commit's runs did not all give the same value:
        /// ``value`` is then its latest run's.
        public var varies: Bool?

        public init(commit: String, value: Int?, varies: Bool? = nil) {
            self.commit = commit
            self.value = value
            self.varies = varies
        }
    }
}
