import Foundation

/// The contexts of a store that are alive now, held weakly: what lets the
/// store ask each one to report what it counts until it ends (its
/// prefetches' and fetches' usage, ``Store/reportUsage()``), however long
/// it lives. Thread-safe; a context is added when it is made, and gone once
/// it is released.
final class LiveContexts: @unchecked Sendable {
    private struct Entry {
        weak var context: ObjectContext?
    }

    private let lock = NSLock()
    private var entries: [Entry] = []

    /// Adds `context`, dropping the entries of contexts released since.
    func add(_ context: ObjectContext) {
        lock.withLock {
            entries.removeAll { $0.context == nil }
            entries.append(Entry(context: context))
        }
    }

    /// The contexts alive now.
    var all: [ObjectContext] {
        lock.withLock { entries.compactMap(\.context) }
    }
}

extension Store {
    /// Has every context of the store that is alive now report what became
    /// of its prefetches and of its fetches' objects so far (a `context`
    /// event of kind `prefetch usage` per relationship, one of kind `fetch
    /// usage` per fetch site), as it does when it is reset or released,
    /// and count afresh from here: each context on its own queue (at once
    /// when the caller is on it). `Faultline.measure` calls it as its block
    /// begins and ends, so that a block sees that usage however long its
    /// contexts live. Prefetch usage reported in parts adds up (a later
    /// read of an object prefetched before is reported with the context's
    /// next report); a fetch's objects are judged by what was done with
    /// them up to the report (a later use of one counts for nothing).
    public func reportUsage() {
        for context in liveContexts.all {
            if context.isOnQueue {
                context.reportUsage()
            } else {
                // The queue is the context's confinement.
                nonisolated(unsafe) let confined = context
                context.queue.sync { confined.reportUsage() }
            }
        }
    }
}
