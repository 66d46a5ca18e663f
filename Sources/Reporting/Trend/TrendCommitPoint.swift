import Foundation

extension Trend {
    /// One commit on a line: when it was first run, how many runs of it
    /// there are, and the median of its times (CPU or wall, as the trend
    /// follows: ``Trend/timing``).
    public struct CommitPoint: Codable, Equatable, Sendable {
        public var commit: String
        /// The time of its first run on the line: what orders the commits.
        public var firstRun: Date
        /// Runs of this commit on the line (a retry, a second job): their
        /// samples are pooled.
        public var runs: Int
        /// The median of every measured iteration's time in seconds,
        /// pooled over the runs, with its interval (``MedianInterval``);
        /// nil when no run of the commit passed with a sample. On the
        /// machine's speed when the line is (``Line/probe``).
        public var time: MedianInterval?
        /// The pooled samples, in seconds, in run order (on the machine's
        /// speed when the line is): what the change points are found from.
        public var samples: [Double]
        /// The median of its runs' machine speed probes, in seconds, when
        /// the line's times are put on the machine's speed (``Line/probe``);
        /// nil otherwise. Above the line's probe: the machine was slower
        /// while this commit ran, and its times were scaled down by as much.
        public var probe: Double?

        public init(commit: String, firstRun: Date, runs: Int, time: MedianInterval?, samples: [Double], probe: Double? = nil) {
            self.commit = commit
            self.firstRun = firstRun
            self.runs = runs
            self.time = time
            self.samples = samples
            self.probe = probe
        }

        // `wall` and `wallSamples`: a trend written when trends followed wall times only.
        private enum CodingKeys: String, CodingKey { case commit, firstRun, runs, time, samples, probe, wall, wallSamples }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            commit = try container.decode(String.self, forKey: .commit)
            firstRun = try container.decode(TrendTime.self, forKey: .firstRun).date
            runs = try container.decode(Int.self, forKey: .runs)
            time = try container.decodeIfPresent(MedianInterval.self, forKey: .time)
                ?? container.decodeIfPresent(MedianInterval.self, forKey: .wall)
            samples = try container.decodeIfPresent([Double].self, forKey: .samples)
                ?? container.decodeIfPresent([Double].self, forKey: .wallSamples) ?? []
            probe = try container.decodeIfPresent(Double.self, forKey: .probe)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(commit, forKey: .commit)
            try container.encode(TrendTime(firstRun), forKey: .firstRun)
            try container.encode(runs, forKey: .runs)
            try container.encodeIfPresent(time, forKey: .time)
            try container.encode(samples, forKey: .samples)
            try container.encodeIfPresent(probe, forKey: .probe)
        }
    }
}
