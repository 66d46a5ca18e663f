import Probes
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
/// operations, except a refault that the cache's content generation
/// serves.
///
/// **Content generation.** The cache counts every change of what it holds
/// (a snapshot stored, replaced or dropped, a row forgotten) in one atomic
/// number, moved under the lock (not the store's read generation, which
/// orders snapshots). A fault that takes a snapshot under
/// the lock notes that number in the object
/// (``ManagedObject/rowCacheGeneration``); while the number has not
/// moved since, the snapshot the object still holds is the cache's, and a
/// refault of it (``fill(_:staleness:)``, with no staleness limit) is a
/// hit without the lock or a lookup: the object takes its values back as
/// they are, its typed fields with them. An entity with to-one
/// relationships takes the locked path, which restores their slots.
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

        /// On a hit, loads the snapshot into `object`, notes the cache's
        /// `contentGeneration` in it as its claim on the snapshot (for an
        /// entity without to-one relationships) and returns nil; otherwise
        /// returns why not.
        @inline(__always)
        func load(into object: ManagedObject, staleness: UInt64?, contentGeneration: UInt64) -> MissReason? {
            guard hasSnapshot else { return .absent }
            if let staleness, ProbeClock.nanoseconds(since: timestamp) >= staleness { return .stale }
            object.load(attributes: attributes, toOne: toOne)
            if toOne.isEmpty { object.rowCacheGeneration = contentGeneration }
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
    /// Moves with every change of the snapshots and rows kept (under the
    /// lock); starts at 1, so that an object's 0 claims nothing.
    @usableFromInline let contentGeneration = Atomic<UInt64>(1)
    /// Hits served by the content generation, without the lock.
    @usableFromInline let unlockedHits = Atomic<Int>(0)

    init() {}

    /// Notes a change of what the cache holds. Under the lock: the lock
    /// orders the writers, the release store publishes the change to the
    /// unlocked readers.
    @inline(__always)
    private func snapshotsChanged() {
        contentGeneration.store(contentGeneration.load(ordering: .relaxed) &+ 1, ordering: .releasing)
    }

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
            snapshotsChanged()
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
            if let remaining, remaining <= 0 {
                entries.removeValue(forKey: id)
                snapshotsChanged()
            }
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
    ///
    /// A refault of an object that still holds the snapshot it took at the
    /// cache's current content generation, with no staleness limit, is a hit
    /// without the lock: the object takes its values back as they are.
    @inline(__always)
    func fill(_ object: ManagedObject, staleness: UInt64?) -> MissReason? {
        if staleness == nil, refault(object) { return nil }
        return lockedFill(object, staleness: staleness)
    }

    /// The unlocked refault: when the object's claim is the current content
    /// generation, loads it (its values are the cache's snapshot) and
    /// counts a hit; otherwise counts nothing and returns false. For a
    /// caller with no staleness limit.
    @inlinable @inline(__always)
    func refault(_ object: ManagedObject) -> Bool {
        guard object.rowCacheGeneration == contentGeneration.load(ordering: .acquiring) else { return false }
        object.storedState = .loaded
        unlockedHits.wrappingAdd(1, ordering: .relaxed)
        return true
    }

    /// ``fill(_:staleness:)`` under the lock.
    @inline(__always)
    private func lockedFill(_ object: ManagedObject, staleness: UInt64?) -> MissReason? {
        lock.withLock {
            let current = contentGeneration.load(ordering: .relaxed)
            let reason: MissReason? = entries.updateIfPresent(object.objectID) { entry -> MissReason? in
                entry.load(into: object, staleness: staleness, contentGeneration: current)
            } ?? .absent
            if reason == nil { stats.hits &+= 1 } else { stats.misses &+= 1 }
            return reason
        }
    }

    /// Keeps a snapshot for a registered object; an older read does not
    /// replace a newer one.
    func store(_ snapshot: RowSnapshot, for id: ObjectID) {
        lock.withLock {
            let stored = entries.updateIfPresent(id) { entry -> Bool in
                guard entry.registrations > 0 else { return false }
                if entry.holdsNewer(than: snapshot.generation) { return false }
                entry.snapshot = snapshot
                return true
            }
            if stored == true { snapshotsChanged() }
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
            snapshotsChanged()
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
            snapshotsChanged()
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
            snapshotsChanged()
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

    /// The content generation now (for tests).
    var currentContentGeneration: UInt64 { contentGeneration.load(ordering: .acquiring) }

    /// Hits and misses so far.
    public var statistics: Statistics {
        var statistics = lock.withLock { stats }
        statistics.hits += unlockedHits.load(ordering: .relaxed)
        return statistics
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
