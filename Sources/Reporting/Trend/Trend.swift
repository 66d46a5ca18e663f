import Foundation

/// Scenarios' times and exact counters per commit, oldest first, as the
/// history store keeps them (`perf-run trend`), with the changes marked:
/// where a series of times moved beyond its own noise (a change point,
/// ``TimingChangePoints``) and where an exact counter changed.
///
/// The time followed is the one `perf-run compare` judges (``timing``:
/// CPU time by default, or wall time), put on the machine's speed where
/// every run of a line has a machine speed probe (``Line/probe``), so that
/// the numbers a comparison judges are the numbers the trend follows.
///
/// A *line* (``Line``) is one scenario measured one way: one project,
/// branch, runner, scale, seed, store and build configuration. Lines are
/// never merged: timings from two runners are not comparable, and the
/// counters of two scales or seeds differ.
public struct Trend: Codable, Equatable, Sendable {
    /// Where the runs came from: the history store's address, without a
    /// password.
    public var source: String
    /// What the store was asked for.
    public var window: Window
    /// How changes were found (the same for every line).
    public var detection: ChangeDetection
    /// The time followed: CPU (the default, as `compare`'s) or wall. A
    /// trend's JSON written before it was chosen followed wall times.
    public var timing: TimingMeasure
    /// In the order the scenarios were asked for, otherwise by scenario;
    /// then by project, branch, runner and configuration.
    public var lines: [Line]

    public init(source: String, window: Window, detection: ChangeDetection, timing: TimingMeasure, lines: [Line]) {
        self.source = source
        self.window = window
        self.detection = detection
        self.timing = timing
        self.lines = lines
    }

    /// Every change marked, line by line.
    public var changes: [TrendChange] { lines.flatMap(\.changes) }

    /// The changes that make a gate fail (`--fail-on regression`): a time
    /// that moved to slower, a cost counter that grew.
    public var regressions: [TrendChange] { changes.filter { $0.verdict == .regression } }

    public var hasRegression: Bool { lines.contains { $0.changes.contains { $0.verdict == .regression } } }

    private enum CodingKeys: String, CodingKey { case source, window, detection, timing, lines }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        source = try container.decode(String.self, forKey: .source)
        window = try container.decode(Window.self, forKey: .window)
        detection = try container.decode(ChangeDetection.self, forKey: .detection)
        timing = try container.decodeIfPresent(TimingMeasure.self, forKey: .timing) ?? .wall
        lines = try container.decode([Line].self, forKey: .lines)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source, forKey: .source)
        try container.encode(window, forKey: .window)
        try container.encode(detection, forKey: .detection)
        try container.encode(timing, forKey: .timing)
        try container.encode(lines, forKey: .lines)
    }
}
