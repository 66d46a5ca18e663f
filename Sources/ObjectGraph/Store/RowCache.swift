import Synchronization

/// Snapshots of rows, shared by the contexts of one store.
///
/// A row is kept while at least one context has its object registered (the
/// cache counts registrations per ID) and is dropped when the last one goes.
/// A fault is fulfilled from here when the snapshot is present and not
/// older than the context's staleness interval (a **hit**); otherwise the
/// context reads the row from SQLite (a **miss**). To-many relationships'
/// destination IDs are kept beside the row once loaded.
///
/// Thread-safe: every method takes the cache's lock for a few table
/// operations.
public final class RowCache: @unchecked Sendable {
    /// Why a lookup missed.
    public enum MissReason: String, Sendable {
        /// No snapshot for the row.
        case absent
        /// A snapshot older than the staleness interval.
        case stale
    }

    /// The result of looking up a row.
    public enum Lookup: Sendable {
        case hit(RowSnapshot)
        case miss(MissReason)
    }

    /// Hits and misses served so far.
    public struct Statistics: Sendable, Equatable {
        public var hits = 0
        public var misses = 0
        public init(hits: Int = 0, misses: Int = 0) {
            self.hits = hits
            self.misses = misses
        }
    }

    private struct Entry {
        var registrations = 0
        var snapshot: RowSnapshot?
        var toMany: [Int: [ObjectID]] = [:]
    }

    private struct State {
        var entries = ObjectTable<Entry>()
        var stats = Statistics()
    }

    /// A futex-based lock: its uncontended path is one atomic exchange, a
    /// fraction of what `NSLock` (a pthread mutex behind a class) costs on
    /// every fault.
    private let state = Mutex(State())

    init() {}

    // MARK: Registration

    /// A context registered an object for this ID.
    func register(_ id: ObjectID) {
        state.withLock { $0.entries.update(id, default: Entry()) { $0.registrations += 1 } }
    }

    /// A context forgot an object for this ID; the row goes when no context
    /// holds it any more.
    func unregister(_ id: ObjectID) {
        state.withLock { state in
            let remaining = state.entries.updateIfPresent(id) { entry -> Int in
                entry.registrations -= 1
                return entry.registrations
            }
            if let remaining, remaining <= 0 { state.entries.removeValue(forKey: id) }
        }
    }

    // MARK: Rows

    /// Looks up a row for a fault, counting the hit or miss.
    /// - Parameter staleness: nanoseconds after which a snapshot is stale;
    ///   nil means never.
    func lookup(_ id: ObjectID, staleness: UInt64?) -> Lookup {
        state.withLock { state in
            guard let snapshot = state.entries.updateIfPresent(id, { $0.snapshot }) ?? nil else {
                state.stats.misses += 1
                return .miss(.absent)
            }
            if let staleness, Connection.monotonicNanoseconds() &- snapshot.timestamp >= staleness {
                state.stats.misses += 1
                return .miss(.stale)
            }
            state.stats.hits += 1
            return .hit(snapshot)
        }
    }

    /// Keeps a snapshot for a registered object; an older read does not
    /// replace a newer one.
    func store(_ snapshot: RowSnapshot, for id: ObjectID) {
        state.withLock { state in
            state.entries.updateIfPresent(id) { entry in
                guard entry.registrations > 0 else { return }
                if let existing = entry.snapshot, existing.generation > snapshot.generation { return }
                entry.snapshot = snapshot
            }
        }
    }

    /// The cached destination IDs of a to-many relationship, if loaded.
    func toMany(_ id: ObjectID, relationship: Int) -> [ObjectID]? {
        state.withLock { $0.entries.updateIfPresent(id) { $0.toMany[relationship] } ?? nil }
    }

    /// Keeps the destination IDs of a to-many relationship of a registered
    /// object.
    func storeToMany(_ ids: [ObjectID], for id: ObjectID, relationship: Int) {
        state.withLock { state in
            state.entries.updateIfPresent(id) { entry in
                if entry.registrations > 0 { entry.toMany[relationship] = ids }
            }
        }
    }

    /// Applies a committed save: new snapshots for written rows, dropped
    /// relationship lists where they changed, deleted rows removed.
    func apply(_ commit: CommittedRows) {
        state.withLock { state in
            for (id, snapshot) in commit.snapshots {
                state.entries.updateIfPresent(id) { $0.snapshot = snapshot }
            }
            for (id, relationships) in commit.toMany {
                state.entries.updateIfPresent(id) { entry in
                    for (relationship, ids) in relationships { entry.toMany[relationship] = ids }
                }
            }
            for id in commit.invalidatedRows {
                state.entries.updateIfPresent(id) { entry in
                    entry.snapshot = nil
                    entry.toMany = [:]
                }
            }
        }
    }

    /// Forgets every snapshot (registrations stay).
    public func removeAllSnapshots() {
        state.withLock { state in
            for id in state.entries.keys {
                state.entries.updateIfPresent(id) { entry in
                    entry.snapshot = nil
                    entry.toMany = [:]
                }
            }
        }
    }

    // MARK: Inspection

    /// The snapshot kept for a row, without counting a hit or miss.
    public func snapshot(for id: ObjectID) -> RowSnapshot? {
        state.withLock { $0.entries.updateIfPresent(id) { $0.snapshot } ?? nil }
    }

    /// Whether a snapshot is kept for this row.
    public func contains(_ id: ObjectID) -> Bool { snapshot(for: id) != nil }

    /// Number of rows with a snapshot.
    public var count: Int {
        state.withLock { $0.entries.values.reduce(0) { $0 + ($1.snapshot == nil ? 0 : 1) } }
    }

    /// How many contexts have an object registered for this ID.
    public func registrations(of id: ObjectID) -> Int {
        state.withLock { $0.entries.updateIfPresent(id) { $0.registrations } ?? 0 }
    }

    /// Hits and misses so far.
    public var statistics: Statistics {
        state.withLock { $0.stats }
    }
}

/// What a committed save changes in the row cache.
struct CommittedRows {
    /// Rows written, with their values as saved.
    var snapshots: [ObjectID: RowSnapshot] = [:]
    /// To-many lists as they are after the save, for loaded relationships.
    var toMany: [ObjectID: [Int: [ObjectID]]] = [:]
    /// Rows whose cached data is no longer right (deleted rows, or rows
    /// whose relationships changed without being loaded).
    var invalidatedRows: Set<ObjectID> = []
}
