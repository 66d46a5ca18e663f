import Foundation
import Probes

extension Trend {
    /// One scenario measured one way (``Key``), commit by commit, oldest
    /// first, with the changes found along it.
    public struct Line: Codable, Equatable, Sendable {
        public var key: Key
        /// Ordered by each commit's first run.
        public var commits: [CommitPoint]
        /// Every exact counter of the line, in report order, one point per
        /// commit. Advisory counters (docs/report-schema.md) are left out.
        public var counters: [CounterSeries]
        /// The series' own commit-to-commit spread of the median time, as
        /// a standard deviation of the log ratio of one commit's median to
        /// the next's (0.05: about 5%); nil with fewer than three commits
        /// with a time.
        public var noise: Double?
        /// The least move of the time's level, as a ratio (1.10: 10%), that
        /// marks a change on this line: the ``ChangeDetection`` floor or a
        /// multiple of ``noise``, whichever is larger.
        public var minimumEffect: Double
        /// The line's machine speed probe in seconds (the median of its
        /// runs' probe medians) when its times are on the machine's speed;
        /// nil when they are as measured.
        ///
        /// When every run of the line has a machine speed probe
        /// (``MachineProbe``) of the time followed, each run's samples are
        /// divided by the median of its own probe and multiplied by this:
        /// a runner that was busier or slower while one commit ran does not
        /// make that commit look slower, as `perf-run compare` divides a
        /// ratio by its probes' ratio. A line with a run without a probe
        /// (a report older than the probe) keeps every run's samples as
        /// measured: one line never mixes the two.
        public var probe: Double?
        /// The changes found, by commit, the time first, then counters in
        /// report order.
        public var changes: [TrendChange]

        public init(
            key: Key, commits: [CommitPoint], counters: [CounterSeries], noise: Double?, minimumEffect: Double, probe: Double? = nil,
            changes: [TrendChange]
        ) {
            self.key = key
            self.commits = commits
            self.counters = counters
            self.noise = noise
            self.minimumEffect = minimumEffect
            self.probe = probe
            self.changes = changes
        }

        public var scenario: String { key.scenario }

        /// The counters that changed somewhere along the line.
        public var changedCounters: [CounterSeries] {
            counters.filter { counter in changes.contains { $0.measure == .counter(counter.name) } }
        }

        /// The counters with one value in every commit that has one.
        public var steadyCounters: [CounterSeries] {
            counters.filter { counter in !changes.contains { $0.measure == .counter(counter.name) } }
        }

        /// The change of `measure` marked at `commit`, if any.
        public func change(of measure: TrendMeasure, at commit: String) -> TrendChange? {
            changes.first { $0.measure == measure && $0.commit == commit }
        }

        /// The change of the time marked at `commit`, if any.
        public func timeChange(at commit: String) -> TrendChange? {
            changes.first { $0.measure.isTime && $0.commit == commit }
        }
    }
}

extension Trend.Line {
    /// What tells one line from another: the scenario and everything that
    /// makes its figures comparable only with its own.
    public struct Key: Codable, Hashable, Sendable {
        public var scenario: String
        public var project: String
        public var branch: String
        /// Timings compare only within one runner.
        public var runner: String
        /// Counters differ from one scale to another.
        public var scale: Double
        /// And from one seed to another.
        public var seed: UInt64
        /// A database in memory or in a file: timings differ.
        public var store: RunConfiguration.StoreKind
        /// The build configuration of the measured code (debug, release).
        public var build: String

        public init(
            scenario: String, project: String, branch: String, runner: String, scale: Double, seed: UInt64, store: RunConfiguration.StoreKind,
            build: String
        ) {
            self.scenario = scenario
            self.project = project
            self.branch = branch
            self.runner = runner
            self.scale = scale
            self.seed = seed
            self.store = store
            self.build = build
        }

        /// `key=value` pairs, the scenario left out: what a line's heading
        /// shows beside its scenario.
        public var labels: [(name: String, value: String)] {
            [
                ("project", project), ("branch", branch), ("runner", runner), ("scale", Self.number(scale)), ("seed", String(seed)),
                ("store", store.rawValue), ("build", build),
            ]
        }

        /// A scale as written on the command line: `1`, `0.02`.
        static func number(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }

        /// ``labels`` as text: `project=p branch=main …`.
        public var labelText: String { labels.map { "\($0.name)=\($0.value)" }.joined(separator: " ") }
    }
}
