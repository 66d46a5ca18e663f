import Foundation

extension Trend {
    /// One commit on a line: when it was first run, how many runs of it
    /// there are, and the median of its wall times.
    public struct CommitPoint: Codable, Equatable, Sendable {
        public var commit: String
        /// The time of its first run on the line: what orders the commits.
        public var firstRun: Date
        /// Runs of this commit on the line (a retry, a second job): their
        /// samples are pooled.
        public var runs: Int
        /// The median of every measured iteration's wall time in seconds,
        /// pooled over the runs, with its interval (``MedianInterval``);
        /// nil when no run of the commit passed with a sample.
        public var wall: MedianInterval?
        /// The pooled wall-time samples, in seconds, in run order: what the
        /// change points are found from.
        public var wallSamples: [Double]

        public init(commit: String, firstRun: Date, runs: Int, wall: MedianInterval?, wallSamples: [Double]) {
            self.commit = commit
            self.firstRun = firstRun
            self.runs = runs
            self.wall = wall
            self.wallSamples = wallSamples
        }

        private enum CodingKeys: String, CodingKey { case commit, firstRun, runs, wall, wallSamples }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            commit = try container.decode(String.self, forKey: .commit)
            firstRun = try container.decode(TrendTime.self, forKey: .firstRun).date
            runs = try container.decode(Int.self, forKey: .runs)
            wall = try container.decodeIfPresent(MedianInterval.self, forKey: .wall)
            wallSamples = try container.decodeIfPresent([Double].self, forKey: .wallSamples) ?? []
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(commit, forKey: .commit)
            try container.encode(TrendTime(firstRun), forKey: .firstRun)
            try container.encode(runs, forKey: .runs)
            try container.encodeIfPresent(wall, forKey: .wall)
            try container.encode(wallSamples, forKey: .wallSamples)
        }
    }
}
