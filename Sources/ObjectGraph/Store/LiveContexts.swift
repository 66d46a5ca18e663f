import Foundation

/// The contexts of a store that are alive now, held weakly: what lets the
/// store ask each one to report what it counts until it ends (its
/// prefetches' usage, ``Store/reportPrefetchUsage()``), however long it
/// lives. Thread-safe; a context is added when it is made, and gone once
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
    /// of its prefetches so far (a `context` event of kind `prefetch
    /// usage` per relationship), as it does when it is reset or released,
    /// and count afresh from here: each context on its own queue (at once
    /// when the caller is on it). `Faultline.measure` calls it as its block
    /// begins and ends, so that a block sees its prefetches' usage however
    /// long its contexts live. Usage reported in parts adds up: a later
    /// read of an object prefetched before is reported with the context's
    /// next report.
    public func reportPrefetchUsage() {
        for context in liveContexts.all {
            if context.isOnQueue {
                context.reportPrefetchUsage()
            } else {
                // The queue is the context's confinement.
                nonisolated(unsafe) let confined = context
                context.queue.sync { confined.reportPrefetchUsage() }
            }
        }
    }
}
