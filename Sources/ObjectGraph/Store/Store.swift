import CSQLite
import Foundation
import Probes
import Synchronization

/// A persistent store: one SQLite database shaped by a ``Model``, its
/// connections, and the row cache that its contexts share.
///
/// Thread-safe. Contexts (``ObjectContext``) are created on it and each is
/// confined to its own queue; the store itself may be used from anywhere.
public final class Store: @unchecked Sendable {
    /// The model the store's file is shaped by.
    public let model: Model
    /// Where the database lives: a file, or memory.
    public let location: Connection.Location
    /// The configuration the store was opened with.
    public let configuration: StoreConfiguration
    /// Row snapshots shared by this store's contexts.
    public let rowCache = RowCache()
    /// Where the engine's events go.
    public let instrumentation: Instrumentation
    /// Where a measurement attaches its recorder, when the configuration
    /// ``StoreConfiguration/allowsMeasurement``.
    public let measurementSlot: MeasurementSlot?

    /// A UUID kept in the file, which history tokens carry.
    public let storeIdentifier: String
    /// The contexts on the store alive now.
    let liveContexts = LiveContexts()

    let pool: ConnectionPool
    private let cancellation = Mutex<String?>(nil)
    let batchSession = Mutex<BatchSession?>(nil)
    let pendingBatchNotifications = Mutex<[ChangeSet]>([])
    private let cancelled = Atomic<Bool>(false)
    private let keyLock = NSLock()
    private var nextKeys: [Int64]
    private let observersLock = NSLock()
    private var observers: [Int: @Sendable (ChangeSet) -> Void] = [:]
    private var nextObserver = 0

    /// Opens (creating if needed) the store at `location`.
    ///
    /// - Throws: ``ObjectGraphError/store(path:reason:sqlite:)`` when the file
    ///   cannot be opened, is not a database, is corrupt or locked;
    ///   ``ObjectGraphError/modelMismatch(path:differences:)`` when it was
    ///   made with another model.
    public init(model: Model, location: Connection.Location, configuration: StoreConfiguration = StoreConfiguration())
        throws(ObjectGraphError)
    {
        self.model = model
        self.location = location
        self.configuration = configuration
        let path: String
        switch location {
        case .file(let file): path = file
        case .memory: path = ":memory:"
        }
        measurementSlot = configuration.allowsMeasurement ? MeasurementSlot() : nil
        let instrumentation = Instrumentation(
            sinks: configuration.sinks + (measurementSlot.map { [$0] } ?? []), entityNames: model.entities.map(\.name))
        self.instrumentation = instrumentation
        do {
            pool = try ConnectionPool(
                location: location, options: configuration.connectionOptions,
                hook: { [statementHook = configuration.statementHook] origin in
                    instrumentation.statementHook(user: statementHook, origin: origin)
                })
        } catch let error as SQLiteError {
            throw .store(path: path, reason: Self.explain(error), sqlite: error)
        } catch {
            throw .store(path: path, reason: "\(error)", sqlite: nil)
        }
        var keys: [Int64] = []
        var identifier = ""
        try pool.withWriterUntraced { connection throws(ObjectGraphError) in
            try Schema.prepare(connection, model: model)
            do {
                // Keys are allocated per table: the entities of a hierarchy
                // share their root's.
                for entity in model.entities {
                    var maximum: Int64 = 0
                    if entity.rootIndex == entity.index {
                        try connection.query(entity.sql.selectMaximumKey) { row in maximum = row.optionalInt64(0) ?? 0 }
                    }
                    keys.append(maximum + 1)
                }
                try connection.query(SchemaSQL.selectStoreIdentifier) { row in
                    identifier = row.string(0)
                }
                if identifier.isEmpty {
                    identifier = UUID().uuidString
                    try connection.run(SchemaSQL.insertStoreIdentifier, [.text(identifier)])
                }
                if configuration.persistentHistoryTracking {
                    for statement in HistorySQL.createStatements { try connection.executeUntraced(statement) }
                }
                for index in configuration.whatIf.indexes {
                    try connection.executeUntraced(try SchemaSQL.createWhatIfIndex(index, model: model))
                }
            } catch let error as SQLiteError {
                throw .store(path: path, reason: Self.explain(error), sqlite: error)
            } catch {
                throw .store(path: path, reason: "\(error)", sqlite: nil)
            }
        }
        nextKeys = keys
        storeIdentifier = identifier
        do {
            try pool.openIdleReader()
        } catch let error as SQLiteError {
            throw .store(path: path, reason: Self.explain(error), sqlite: error)
        } catch {
            throw .store(path: path, reason: "\(error)", sqlite: nil)
        }
    }

    /// The database file, or `:memory:`.
    public var path: String {
        switch location {
        case .file(let file): file
        case .memory: ":memory:"
        }
    }

    /// Rows the store's SQL has matched against a LIKE or MATCHES pattern
    /// through a registered function (``ComparisonOptions``-aware LIKE with
    /// inner wildcards, MATCHES) since the store opened: a predicate's
    /// costly terms, counted where SQLite runs them.
    public var patternMatches: Int { pool.patternMatches.count.load(ordering: .relaxed) }

    /// The default staleness interval in nanoseconds (nil: never stale).
    var stalenessNanoseconds: UInt64? { configuration.stalenessInterval?.stalenessNanoseconds }

    /// Reserves `count` new primary keys for an entity, unique in its table
    /// (its whole inheritance hierarchy's). Keys are never
    /// reused in the life of the store object, even when a save fails.
    func allocatePrimaryKeys(for entity: EntityDescription, count: Int = 1) -> Int64 {
        keyLock.lock()
        defer { keyLock.unlock() }
        let first = nextKeys[entity.rootIndex]
        nextKeys[entity.rootIndex] += Int64(count)
        return first
    }

    // MARK: Cancellation

    /// Stops work on this store from any thread: every later fetch, count,
    /// save or in-memory filter of its contexts fails with
    /// ``ObjectGraphError/cancelled(_:)``. Faults still work (a typed
    /// property cannot report an error), and a statement running now is
    /// left to finish. For time limits and Ctrl-C; a cancelled store stays
    /// cancelled.
    public func cancel(_ reason: String) {
        cancellation.withLock { $0 = $0 ?? reason }
        cancelled.store(true, ordering: .releasing)
    }

    /// Throws when the store was cancelled (one atomic load otherwise).
    @inline(__always)
    func checkCancelled() throws(ObjectGraphError) {
        if cancelled.load(ordering: .acquiring) {
            throw .cancelled(cancellation.withLock { $0 } ?? "cancelled")
        }
    }

    // MARK: Change observers

    /// Calls `observer` after each committed save of any context of this
    /// store, on the saving thread. Returns a token for
    /// ``removeChangeObserver(_:)``.
    @discardableResult
    public func addChangeObserver(_ observer: @escaping @Sendable (ChangeSet) -> Void) -> Int {
        observersLock.lock()
        defer { observersLock.unlock() }
        nextObserver += 1
        observers[nextObserver] = observer
        return nextObserver
    }

    /// Whether any change observer is registered.
    var hasChangeObservers: Bool {
        observersLock.lock()
        defer { observersLock.unlock() }
        return !observers.isEmpty
    }

    /// Stops calling the observer that ``addChangeObserver(_:)`` returned
    /// `token` for; an unknown token does nothing. A save already notifying
    /// observers may still call it once.
    public func removeChangeObserver(_ token: Int) {
        observersLock.lock()
        observers[token] = nil
        observersLock.unlock()
    }

    func notifyObservers(_ changes: ChangeSet) {
        observersLock.lock()
        let current = observers.sorted { $0.key < $1.key }.map(\.value)
        observersLock.unlock()
        for observer in current { observer(changes) }
    }

    // MARK: Errors

    /// A one-line explanation of an error opening or reading the store.
    static func explain(_ error: SQLiteError) -> String {
        switch error.resultCode {
        case SQLITE_NOTADB: "not an SQLite database (\(error.codeName))"
        case SQLITE_CORRUPT: "the database file is corrupt (\(error.codeName): \(error.message))"
        case SQLITE_CANTOPEN: "cannot open the file (\(error.codeName): \(error.message))"
        case SQLITE_PERM, SQLITE_READONLY: "no permission to use the file (\(error.codeName): \(error.message))"
        case SQLITE_BUSY, SQLITE_LOCKED: "the database is locked by another connection (\(error.codeName))"
        default: "\(error.codeName): \(error.message)"
        }
    }
}
