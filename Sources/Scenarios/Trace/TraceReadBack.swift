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

    /// What differs between the statements per shape the trace gave back
    /// for `scenario` and `recorded` (the recorder's, by shape text): one
    /// line naming how many shapes differ and the first three, nil when
    /// they agree.
    public func statementDisagreement(scenario: String, recorded: [String: Int]) -> String? {
        let traced = statements[scenario] ?? [:]
        let differing = Set(recorded.keys).union(traced.keys).filter { recorded[$0] != traced[$0] }.sorted()
        guard !differing.isEmpty else { return nil }
        let listed = differing.prefix(3).map { "\($0): \(traced[$0] ?? 0) traced, \(recorded[$0] ?? 0) recorded" }
        return "\(scenario): the trace's statements of \(differing.count) shapes differ from the recorder's (\(listed.joined(separator: "; ")))"
    }
}
