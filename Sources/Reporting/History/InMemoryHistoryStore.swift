import Foundation

/// A history store in memory: for tests, and for code that builds a trend
/// from runs it already holds.
public final class InMemoryHistoryStore: HistoryStore, @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [HistoryRun] = []
    private var identities: Set<RunIdentity> = []

    public init(_ runs: [HistoryRun] = []) {
        add(runs)
    }

    @discardableResult
    public func add(_ runs: [HistoryRun]) -> Int {
        lock.withLock {
            var added = 0
            for run in runs where identities.insert(run.identity).inserted {
                kept.append(run)
                added += 1
            }
            return added
        }
    }

    public func runs(_ query: HistoryQuery) -> [HistoryRun] {
        lock.withLock {
            kept.filter(query.matches).sorted { ($0.time, $0.identity.rawValue) < ($1.time, $1.identity.rawValue) }
        }
    }
}
