import Foundation
import Probes

/// Scenarios' counters and timings per commit, oldest first, as a store of
/// many runs (Prometheus, `perf-run trend`) gives them back: where an exact
/// counter changed, and where a median moved beyond the spread (min–max)
/// of the commit before.
///
/// A *line* is one scenario on one kind of run: the same labels besides
/// the commit (runner, branch, scale, and any a team adds). Lines are never
/// merged: timings from two runners are not comparable, and counters of
/// two scales differ.
public struct Trend: Codable, Equatable, Sendable {
    /// Where the series came from (an address without credentials).
    public var source: String
    /// How far back, as the store's duration (`30d`).
    public var since: String
    /// The labels every series had to carry (`job`, and `--label`s).
    public var matchers: [String: String]
    public var lines: [Line]

    public init(source: String, since: String, matchers: [String: String], lines: [Line]) {
        self.source = source
        self.since = since
        self.matchers = matchers
        self.lines = lines
    }

    /// One scenario on one kind of run.
    public struct Line: Codable, Equatable, Sendable {
        public var scenario: String
        /// The labels that tell this line from another of the scenario.
        public var labels: [String: String]
        /// Oldest first.
        public var commits: [Commit]
        /// In report order (docs/report-schema.md), one point per commit.
        public var counters: [CounterTrend]
        /// One point per commit that has a median.
        public var timing: [TimingPoint]

        public init(scenario: String, labels: [String: String], commits: [Commit], counters: [CounterTrend], timing: [TimingPoint]) {
            self.scenario = scenario
            self.labels = labels
            self.commits = commits
            self.counters = counters
            self.timing = timing
        }

        /// The counters that changed somewhere along the line.
        public var changedCounters: [CounterTrend] { counters.filter { $0.points.contains(where: \.changed) } }

        /// The counters with one value in every commit.
        public var steadyCounters: [CounterTrend] { counters.filter { !$0.points.contains(where: \.changed) } }

        /// The timing point of `commit`, if it has one.
        public func timing(of commit: String) -> TimingPoint? { timing.first { $0.commit == commit } }
    }

    public struct Commit: Codable, Equatable, Sendable {
        public var commit: String
        /// When a report of this commit was first published (Unix seconds).
        public var publishedAt: Double?

        public init(commit: String, publishedAt: Double?) {
            self.commit = commit
            self.publishedAt = publishedAt
        }
    }

    /// One counter along a line.
    public struct CounterTrend: Codable, Equatable, Sendable {
        public var name: String
        /// One per commit of the line, in its order.
        public var points: [CounterPoint]

        public init(name: String, points: [CounterPoint]) {
            self.name = name
            self.points = points
        }
    }

    public struct CounterPoint: Codable, Equatable, Sendable {
        public var commit: String
        /// Nil where this commit has no value (the scenario did not pass).
        public var value: Double?
        /// The change from the last commit before with a value; nil when
        /// there is none or it was the same.
        public var change: Double?

        public init(commit: String, value: Double?, change: Double?) {
            self.commit = commit
            self.value = value
            self.change = change
        }

        public var changed: Bool { change != nil }
    }

    /// Which way a median moved beyond the spread of the commit before.
    public enum Movement: String, Codable, Sendable {
        /// Above the earlier maximum.
        case slower
        /// Below the earlier minimum.
        case faster
    }

    /// The wall time of one commit's measured iterations.
    public struct TimingPoint: Codable, Equatable, Sendable {
        public var commit: String
        public var medianSeconds: Double
        public var minSeconds: Double?
        public var maxSeconds: Double?
        public var samples: Int?
        /// Set when the median lies outside the previous point's min–max.
        public var moved: Movement?

        public init(commit: String, medianSeconds: Double, minSeconds: Double?, maxSeconds: Double?, samples: Int?, moved: Movement? = nil) {
            self.commit = commit
            self.medianSeconds = medianSeconds
            self.minSeconds = minSeconds
            self.maxSeconds = maxSeconds
            self.samples = samples
            self.moved = moved
        }
    }
}

/// One value a store gave back: what it measures, for which scenario,
/// commit and line labels.
public struct TrendObservation: Equatable, Sendable {
    public enum Measure: Hashable, Sendable {
        /// A report counter, by its report name (`sqlStatements`).
        case counter(String)
        case wallMedian, wallMin, wallMax, samples
        /// When the commit's report was published (Unix seconds); no scenario.
        case published
    }

    public var measure: Measure
    /// Nil for ``Measure/published``.
    public var scenario: String?
    public var commit: String
    /// The line's labels: everything but the scenario, the commit and the
    /// store's own (job, instance).
    public var labels: [String: String]
    public var value: Double

    public init(_ measure: Measure, scenario: String?, commit: String, labels: [String: String], value: Double) {
        self.measure = measure
        self.scenario = scenario
        self.commit = commit
        self.labels = labels
        self.value = value
    }
}

extension Trend {
    /// Builds the lines from what the store gave back. Commits are ordered
    /// by their first publication (those without one last, by name);
    /// `scenarios`, when given, orders the lines, which are otherwise
    /// ordered by scenario name, then labels. Values that are not finite
    /// are left out.
    public init(
        source: String, since: String, matchers: [String: String], observations: [TrendObservation], scenarios: [String] = []
    ) {
        struct LineKey: Hashable {
            let scenario: String
            let labels: [String: String]
        }
        struct CommitKey: Hashable {
            let commit: String
            let labels: [String: String]
        }
        var published: [CommitKey: Double] = [:]
        var measured: [LineKey: [String: [TrendObservation.Measure: Double]]] = [:]
        for observation in observations where observation.value.isFinite {
            guard let scenario = observation.scenario else {
                if observation.measure == .published {
                    let key = CommitKey(commit: observation.commit, labels: observation.labels)
                    published[key] = Swift.min(published[key] ?? .infinity, observation.value)
                }
                continue
            }
            measured[LineKey(scenario: scenario, labels: observation.labels), default: [:]][observation.commit, default: [:]][observation.measure] =
                observation.value
        }
        func order(_ a: LineKey, _ b: LineKey) -> Bool {
            let (i, j) = (scenarios.firstIndex(of: a.scenario) ?? .max, scenarios.firstIndex(of: b.scenario) ?? .max)
            if i != j { return i < j }
            if a.scenario != b.scenario { return a.scenario < b.scenario }
            return Self.labelText(a.labels) < Self.labelText(b.labels)
        }
        self.init(source: source, since: since, matchers: matchers, lines: measured.keys.sorted(by: order).map { key in
            let byCommit = measured[key]!
            let commits = byCommit.keys.map { Commit(commit: $0, publishedAt: published[CommitKey(commit: $0, labels: key.labels)]) }
                .sorted { ($0.publishedAt ?? .infinity, $0.commit) < ($1.publishedAt ?? .infinity, $1.commit) }
            let names = Set(byCommit.values.flatMap { $0.keys.compactMap { if case .counter(let name) = $0 { name } else { nil } } })
            let counters = Self.reportOrder(names).map { name in
                var previous: Double?
                return CounterTrend(name: name, points: commits.map { commit in
                    let value = byCommit[commit.commit]?[.counter(name)]
                    var change: Double?
                    if let value, let earlier = previous, value != earlier { change = value - earlier }
                    if let value { previous = value }
                    return CounterPoint(commit: commit.commit, value: value, change: change)
                })
            }
            var timing: [TimingPoint] = []
            for commit in commits {
                guard let values = byCommit[commit.commit], let median = values[.wallMedian] else { continue }
                var point = TimingPoint(
                    commit: commit.commit, medianSeconds: median, minSeconds: values[.wallMin], maxSeconds: values[.wallMax],
                    samples: values[.samples].flatMap { Int(exactly: $0.rounded()) })
                if let before = timing.last {
                    if let high = before.maxSeconds, median > high { point.moved = .slower }
                    if let low = before.minSeconds, median < low { point.moved = .faster }
                }
                timing.append(point)
            }
            return Line(scenario: key.scenario, labels: key.labels, commits: commits, counters: counters, timing: timing)
        })
    }

    /// Counter names in the report's order, names it does not know after
    /// them by name.
    static func reportOrder(_ names: Set<String>) -> [String] {
        let known = CounterName.allCases.map(\.rawValue).filter(names.contains)
        return known + names.subtracting(known).sorted()
    }

    /// `key=value` pairs by key, joined by spaces: a line's labels in text.
    public static func labelText(_ labels: [String: String]) -> String {
        labels.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }

    /// A commit as people read it: 12 characters of a full hash, any
    /// other name whole.
    static func shortCommit(_ commit: String) -> String {
        commit.count == 40 && commit.allSatisfy(\.isHexDigit) ? String(commit.prefix(12)) : commit
    }

    /// A publication time in UTC, ISO 8601 to the second; "unknown" without one.
    static func time(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite, abs(seconds) < 1e11 else { return "unknown" }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: seconds.rounded(.down)))
    }

    /// A counter's value: whole numbers without a fraction.
    static func count(_ value: Double?) -> String {
        guard let value else { return "-" }
        guard value.isFinite else { return "n/a" }
        if value == value.rounded(), abs(value) < 9.0e15 { return String(Int64(value)) }
        return String(value)
    }

    /// A change of a counter, with its sign and direction mark (`▲ +1`).
    static func change(_ value: Double) -> String {
        value > 0 ? "▲ +\(count(value))" : "▼ −\(count(-value))"
    }

    /// Median (min–max, n) of a timing point, and its movement.
    static func timing(_ point: TimingPoint?) -> String {
        guard let point else { return "-" }
        var text = TimeText.seconds(point.medianSeconds)
        if let moved = point.moved { text += moved == .slower ? " ▲ slower" : " ▼ faster" }
        let range = [point.minSeconds, point.maxSeconds].map { $0.map(TimeText.seconds) ?? "?" }.joined(separator: "–")
        text += " (\(range)\(point.samples.map { ", n=\($0)" } ?? ""))"
        return text
    }
}
