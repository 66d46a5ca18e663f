import Probes

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
    /// Why a lookup missed: the events' own type, so a fault's event takes
    /// it as it is.
    public typealias MissReason = CacheMissReason

    /// Hits and misses served so far.
    public struct Statistics: Sendable, Equatable {
        /// Lookups answered from a snapshot.
        public var hits = 0
        /// Lookups that went to SQLite: no snapshot, or one too old.
        public var misses = 0
        /// Statistics of these counts.
        public init(hits: Int = 0, misses: Int = 0) {
            self.hits = hits
            self.misses = misses
        }
    }

    /// A row's registrations, snapshot and to-many lists. The snapshot is
    /// kept as its parts, so that a hit reads the values array in place: an
    /// optional snapshot could only be read by copying it whole.
    private struct Entry {
        var registrations = 0
        /// Whether the parts below hold a snapshot.
        private var hasSnapshot = false
        private var attributes: [Value] = []
        private var toOne: [ObjectID?] = []
        private var generation: UInt64 = 0
        private(set) var timestamp: UInt64 = 0
        var toMany: [Int: [ObjectID]] = [:]

        var snapshot: RowSnapshot? {
            get {
                hasSnapshot ? RowSnapshot(attributes: attributes, toOne: toOne, generation: generation, timestamp: timestamp) : nil
            }
            set {
                let snapshot = newValue ?? RowSnapshot(attributes: [], toOne: [], generation: 0, timestamp: 0)
                hasSnapshot = newValue != nil
                attributes = snapshot.attributes
                toOne = snapshot.toOne
                generation = snapshot.generation
                timestamp = snapshot.timestamp
            }
        }

        /// Whether a snapshot is kept that is newer than one read at `generation`.
        func holdsNewer(than generation: UInt64) -> Bool {
            hasSnapshot && self.generation > generation
        }

        /// On a hit, loads the snapshot into `object` and returns nil;
        /// otherwise returns why not.
        @inline(__always)
        func load(into object: ManagedObject, staleness: UInt64?) -> MissReason? {
            guard hasSnapshot else { return .absent }
            if let staleness, ProbeClock.nanoseconds(since: timestamp) >= staleness { return .stale }
            object.load(attributes: attributes, toOne: toOne)
            return nil
        }
    }

    /// Guards the two properties below (see ``PlainLock`` for why not
    /// `NSLock` or `Mutex`).
    private let lock = PlainLock()
    // Only touched under `lock`: no dynamic exclusivity check needed.
    // A `let`: a `var` holding the table made every access retain and
    // release it.
    private let entries = ObjectTable<Entry>()
    @exclusivity(unchecked) private var stats = Statistics()

    init() {}

    // MARK: Registration

    /// A context registered an object for this ID.
    func register(_ id: ObjectID) {
        lock.withLock { entries.update(id, default: Entry()) { $0.registrations += 1 } }
    }

    /// A context registered a new object for this ID, with its row as just
    /// read: ``register(_:)`` and ``store(_:for:)`` under one lock and one
    /// table lookup.
    func register(_ id: ObjectID, storing snapshot: RowSnapshot) {
        lock.withLock {
            entries.update(id, default: Entry()) { entry in
                entry.registrations += 1
                if entry.holdsNewer(than: snapshot.generation) { return }
                entry.snapshot = snapshot
            }
        }
    }

    /// A context forgot an object for this ID; the row goes when no context
    /// holds it any more.
    func unregister(_ id: ObjectID) {
        lock.withLock {
            let remaining = entries.updateIfPresent(id) { entry -> Int in
                entry.registrations -= 1
                return entry.registrations
            }
            if let remaining, remaining <= 0 { entries.removeValue(forKey: id) }
        }
    }

    // MARK: Rows

    /// Looks up the row of a fault and, on a hit, loads it into the object
    /// while the lock is held: the snapshot is not copied (two array
    /// retains and releases per fault), and the object takes its values
    /// with one retain. Counts the hit or miss; returns nil on a hit, the
    /// reason on a miss. Inlined into the fault.
    /// - Parameter staleness: nanoseconds after which a snapshot is stale;
    ///   nil means never.
    @inline(__always)
    func fill(_ object: ManagedObject, staleness: UInt64?) -> MissReason? {
        lock.withLock {
            let reason: MissReason? = entries.updateIfPresent(object.objectID) { entry -> MissReason? in
                entry.load(into: object, staleness: staleness)
            } ?? .absent
            if reason == nil { stats.hits &+= 1 } else { stats.misses &+= 1 }
            return reason
        }
    }

    /// Keeps a snapshot for a registered object; an older read does not
    /// replace a newer one.
    func store(_ snapshot: RowSnapshot, for id: ObjectID) {
        lock.withLock {
            entries.updateIfPresent(id) { entry in
                guard entry.registrations > 0 else { return }
                if entry.holdsNewer(than: snapshot.generation) { return }
                entry.snapshot = snapshot
            }
        }
    }

    /// The cached destination IDs of a to-many relationship, if loaded.
    func toMany(_ id: ObjectID, relationship: Int) -> [ObjectID]? {
        lock.withLock { entries.updateIfPresent(id) { $0.toMany[relationship] } ?? nil }
    }

    /// Keeps the destination IDs of a to-many relationship of a registered
    /// object.
    func storeToMany(_ ids: [ObjectID], for id: ObjectID, relationship: Int) {
        lock.withLock {
            entries.updateIfPresent(id) { entry in
                if entry.registrations > 0 { entry.toMany[relationship] = ids }
            }
        }
    }

    /// Applies a committed save: new snapshots for written rows, dropped
    /// relationship lists where they changed, deleted rows removed.
    func apply(_ commit: CommittedRows) {
        lock.withLock {
            for (id, snapshot) in commit.snapshots {
                entries.updateIfPresent(id) { $0.snapshot = snapshot }
            }
            for (id, relationships) in commit.toMany {
                entries.updateIfPresent(id) { entry in
                    for (relationship, ids) in relationships { entry.toMany[relationship] = ids }
                }
            }
            for id in commit.invalidatedRows {
                entries.updateIfPresent(id) { entry in
                    entry.snapshot = nil
                    entry.toMany = [:]
                }
            }
        }
    }

    /// Forgets every snapshot (registrations stay).
    public func removeAllSnapshots() {
        lock.withLock {
            for id in entries.keys {
                entries.updateIfPresent(id) { entry in
                    entry.snapshot = nil
                    entry.toMany = [:]
                }
            }
        }
    }

    /// Forgets every snapshot of an entity's rows, its subentities'
    /// included (registrations stay):
    /// after a batch update that counted the rows it changed instead of
    /// listing them.
    func removeSnapshots(of entity: EntityDescription) {
        lock.withLock {
            for id in entries.keys where id.entity.isKind(of: entity) {
                entries.updateIfPresent(id) { entry in
                    entry.snapshot = nil
                    entry.toMany = [:]
                }
            }
        }
    }

    // MARK: Inspection

    /// The snapshot kept for a row, without counting a hit or miss.
    public func snapshot(for id: ObjectID) -> RowSnapshot? {
        lock.withLock { entries.updateIfPresent(id) { $0.snapshot } ?? nil }
    }

    /// Whether a snapshot is kept for this row.
    public func contains(_ id: ObjectID) -> Bool { snapshot(for: id) != nil }

    /// Number of rows with a snapshot.
    public var count: Int {
        lock.withLock { entries.values.reduce(0) { $0 + ($1.snapshot == nil ? 0 : 1) } }
    }

    /// How many contexts have an object registered for this ID.
    public func registrations(of id: ObjectID) -> Int {
        lock.withLock { entries.updateIfPresent(id) { $0.registrations } ?? 0 }
    }

    /// Hits and misses so far.
    public var statistics: Statistics {
        lock.withLock { stats }
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
