import Foundation

extension Trend {
    /// The runs a trend was built from: what the history store was asked
    /// for (``HistoryQuery``) and the scenarios named. Nil or empty: all.
    public struct Window: Codable, Equatable, Sendable {
        public var project: String?
        public var branch: String?
        public var runner: String?
        /// Runs made at or after this time.
        public var since: Date?
        public var scenarios: [String]

        public init(project: String? = nil, branch: String? = nil, runner: String? = nil, since: Date? = nil, scenarios: [String] = []) {
            self.project = project
            self.branch = branch
            self.runner = runner
            self.since = since
            self.scenarios = scenarios
        }

        public init(_ query: HistoryQuery, scenarios: [String] = []) {
            self.init(project: query.project, branch: query.branch, runner: query.runner, since: query.since, scenarios: scenarios)
        }

        /// What the history store is asked for.
        public var query: HistoryQuery { HistoryQuery(project: project, branch: branch, runner: runner, since: since) }

        private enum CodingKeys: String, CodingKey { case project, branch, runner, since, scenarios }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            project = try container.decodeIfPresent(String.self, forKey: .project)
            branch = try container.decodeIfPresent(String.self, forKey: .branch)
            runner = try container.decodeIfPresent(String.self, forKey: .runner)
            since = try container.decodeIfPresent(TrendTime.self, forKey: .since)?.date
            scenarios = try container.decodeIfPresent([String].self, forKey: .scenarios) ?? []
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(project, forKey: .project)
            try container.encodeIfPresent(branch, forKey: .branch)
            try container.encodeIfPresent(runner, forKey: .runner)
            try container.encodeIfPresent(since.map(TrendTime.init), forKey: .since)
            try container.encode(scenarios, forKey: .scenarios)
        }
    }
}
