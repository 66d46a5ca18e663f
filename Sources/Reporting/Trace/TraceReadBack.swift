import Probes

/// What an LTTng trace of `perf-run run` gives back, per scenario, over its
/// last measured iteration (``TraceCounters``): the counters, and how many
/// statements of each shape ran, to be checked against the recorder's.
public struct TraceReadBack: Equatable, Sendable {
    /// Counters per scenario.
    public var counters: [String: Counters]
    /// Statements per scenario, by shape text: the `shape` numbers of the
    /// `sql` events resolved through the trace's `sql_shape` events (a
    /// number no `sql_shape` event names stays `#N`).
    public var statements: [String: [String: Int]]

    public init(counters: [String: Counters] = [:], statements: [String: [String: Int]] = [:]) {
        self.counters = counters
        self.statements = statements
    }
}
