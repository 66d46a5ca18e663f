import Foundation

/// Scenarios' wall times and exact counters per commit, oldest first, as
/// the history store keeps them (`perf-run trend`), with the changes marked:
/// where a series of wall times moved beyond its own noise (a change point,
/// ``TimingChangePoints``) and where an exact counter changed.
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
    /// In the order the scenarios were asked for, otherwise by scenario;
    /// then by project, branch, runner and configuration.
    public var lines: [Line]

    public init(source: String, window: Window, detection: ChangeDetection, lines: [Line]) {
        self.source = source
        self.window = window
        self.detection = detection
        self.lines = lines
    }

    /// Every change marked, line by line.
    public var changes: [TrendChange] { lines.flatMap(\.changes) }

    /// The changes that make a gate fail (`--fail-on regression`): a wall
    /// time that moved to slower, a cost counter that grew.
    public var regressions: [TrendChange] { changes.filter { $0.verdict == .regression } }

    public var hasRegression: Bool { lines.contains { $0.changes.contains { $0.verdict == .regression } } }
}
