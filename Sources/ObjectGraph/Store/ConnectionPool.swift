import Foundation
import Probes
import Synchronization

/// The store's SQLite connections: one writer, and readers that keep a read
/// transaction open between statements.
///
/// A statement in autocommit mode takes and releases SQLite's file locks
/// each time (about 3.2 µs for a primary-key SELECT here, against 0.6 µs
/// inside a transaction). So a reader begins a read transaction on first
/// use and keeps it across operations; when the store's generation has
/// moved (a save committed) it ends that transaction and begins a new one
/// before reading, so a save is visible to the next read. Those BEGIN and
/// COMMIT statements are reported to the statement hook like any other.
///
/// A context keeps the reader it first used (a ``ReaderLease``) until it
/// goes, and a reader goes back to the pool with its read transaction
/// ended, so every holder's first read begins its own (``checkIn(_:)``).
/// A context's snapshots only move forward: a snapshot can include a commit
/// a moment before the generation counts it, and two readers could
/// otherwise show one context a newer state and then an older one.
///
/// An in-memory database lives in one connection, so a memory store uses a
/// single connection for both, under one lock; a write first ends the open
/// read transaction.
final class ConnectionPool: @unchecked Sendable {
    final class Reader {
        let connection: Connection
        /// Why the reader runs its statements now, for its hook.
        let origin: StatementOrigin
        var generation: UInt64 = 0
        var inUse = false
        /// Held by a context pinned to a query generation: the read
        /// transaction stays open whatever is committed meanwhile.
        var pinned = false
        init(_ connection: Connection, origin: StatementOrigin) {
            self.connection = connection
            self.origin = origin
        }
    }

    /// A reader held by one context; it goes back to the pool with the lease.
    final class ReaderLease {
        let reader: Reader
        private weak var pool: ConnectionPool?
        init(_ reader: Reader, pool: ConnectionPool) {
            self.reader = reader
            self.pool = pool
        }
        deinit { pool?.checkIn(reader) }
    }

    let location: Connection.Location
    private let options: Connection.Options
    /// Makes the statement hook of one connection, given the origin that
    /// connection's statements report.
    typealias HookFactory = (StatementOrigin) -> ExecutionHook?
    private let makeHook: HookFactory

    private let writerLock = NSLock()
    private let writer: Connection
    /// The writer's purpose and call site.
    let writerOrigin = StatementOrigin()
    private let sharedReader: Reader?

    private let readersLock = NSLock()
    private var idleReaders: [Reader] = []

    /// Bumped after every committed write.
    private let generationCounter = Atomic<UInt64>(1)

    /// Testing aid: installed on the writer.
    var writerFailureInjection: ((String) throws -> Void)? {
        get { writer.failureInjection }
        set { writer.failureInjection = newValue }
    }

    /// Rows matched by the registered pattern functions on every connection.
    let patternMatches = PredicateFunctions.MatchCounter()

    init(location: Connection.Location, options: Connection.Options, hook: @escaping HookFactory) throws {
        self.location = location
        self.options = options
        self.makeHook = hook
        writer = try Connection(location, options: options)
        PredicateFunctions.register(on: writer, counting: patternMatches)
        writer.executionHook = hook(writerOrigin)
        if case .memory = location {
            sharedReader = Reader(writer, origin: writerOrigin)
        } else {
            sharedReader = nil
        }
    }

    /// The current generation: the number of writes committed, plus one.
    var generation: UInt64 { generationCounter.load(ordering: .acquiring) }

    /// The writer, for schema work before the store is in use: its
    /// statements reach no hook (set-up, not the application's).
    func withWriterUntraced<T, E: Error>(_ body: (Connection) throws(E) -> T) throws(E) -> T {
        writerLock.lock()
        defer { writerLock.unlock() }
        let hook = writer.executionHook
        writer.executionHook = nil
        defer { writer.executionHook = hook }
        return try body(writer)
    }

    /// A reader for one context to keep, taken at its first read; nil for
    /// a memory store (one connection), whose open read transaction is
    /// ended then instead (not reported), so that there too every context's
    /// first read begins its own, as on a file store's readers.
    func makeLease() throws -> ReaderLease? {
        guard let sharedReader else { return ReaderLease(try checkOutReader(), pool: self) }
        writerLock.lock()
        defer { writerLock.unlock() }
        Self.endUnreported(sharedReader)
        return nil
    }

    /// Ends a reader's read transaction without reporting it (it belongs to
    /// a holder that is done with it).
    private static func endUnreported(_ reader: Reader) {
        if reader.connection.isInTransaction {
            if (try? reader.connection.executeUntraced("COMMIT")) == nil { try? reader.connection.executeUntraced("ROLLBACK") }
        }
        reader.pinned = false
    }

    func read<T>(
        purpose: String, callSite: CallSite, facts: StatementFacts? = nil, lease: ReaderLease?, _ body: (Connection, UInt64) throws -> T
    ) throws -> T {
        if let sharedReader {
            writerLock.lock()
            defer { writerLock.unlock() }
            return try read(on: sharedReader, purpose: purpose, callSite: callSite, facts: facts, body)
        }
        guard let lease else {
            let reader = try checkOutReader()
            defer { checkIn(reader) }
            return try read(on: reader, purpose: purpose, callSite: callSite, facts: facts, body)
        }
        let reader = lease.reader
        guard !reader.inUse else {
            // A read inside a read: a reader of its own for this one.
            return try read(purpose: purpose, callSite: callSite, facts: facts, lease: nil, body)
        }
        reader.inUse = true
        defer { reader.inUse = false }
        return try read(on: reader, purpose: purpose, callSite: callSite, facts: facts, body)
    }

    /// Whether this pool keeps a reader per context (not for memory stores).
    var supportsPinning: Bool { sharedReader == nil }

    /// A read with a reader checked out for this call only.
    func read<T>(purpose: String, callSite: CallSite, _ body: (Connection, UInt64) throws -> T) throws -> T {
        try read(purpose: purpose, callSite: callSite, lease: nil, body)
    }

    /// Out of line: inlined into its three callers, it made every read
    /// retain and release its purpose and call site once more (the
    /// probes workload: 0.75 M instructions in 5 rounds).
    @inline(never)
    private func read<T>(
        on reader: Reader, purpose: String, callSite: CallSite, facts: StatementFacts?, _ body: (Connection, UInt64) throws -> T
    ) throws -> T {
        let connection = reader.connection
        let origin = reader.origin
        origin.callSite = callSite
        origin.facts = nil
        let current = generation
        if connection.isInTransaction, reader.generation != current, !reader.pinned {
            origin.useTransactionPurpose()
            try connection.commit()
        }
        if !connection.isInTransaction {
            origin.useTransactionPurpose()
            try connection.beginDeferred()
            reader.generation = current
        }
        origin.purpose = purpose
        origin.facts = facts
        defer { origin.facts = nil }
        do {
            return try body(connection, reader.generation)
        } catch {
            if error is SQLiteError {
                origin.useTransactionPurpose()
                connection.rollbackIfNeeded()
            }
            throw error
        }
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE` … `COMMIT`);
    /// rolls back when it throws. `afterCommit` gets the result and the generation the commit
    /// makes, and runs before the generation moves and before the writer is
    /// released (to update the row cache).
    func write<T>(
        purpose: String, callSite: CallSite, _ body: (Connection) throws -> T, afterCommit: (T, UInt64) -> Void = { _, _ in }
    ) throws -> T {
        writerLock.lock()
        defer { writerLock.unlock() }
        writerOrigin.useTransactionPurpose()
        writerOrigin.callSite = callSite
        writerOrigin.facts = nil
        if sharedReader != nil, writer.isInTransaction {
            try writer.commit()
        }
        try writer.beginImmediate()
        let result: T
        do {
            writerOrigin.purpose = purpose
            result = try body(writer)
            writerOrigin.useTransactionPurpose()
            try writer.commit()
        } catch {
            writerOrigin.useTransactionPurpose()
            writer.rollbackIfNeeded()
            throw error
        }
        afterCommit(result, generation + 1)
        generationCounter.add(1, ordering: .releasing)
        return result
    }

    /// Opens a reader ahead of use and reads the schema on it, so that a
    /// store's first fetch pays for neither (a connection and its schema
    /// parse, about a tenth of fetching a thousand objects); as Core Data's
    /// store opens its connection when it is loaded. More readers open on
    /// demand. Call it after the schema is in place: a reader that read an
    /// older schema reads it again on its next statement.
    func openIdleReader() throws {
        guard sharedReader == nil else { return }
        let reader = try makeReader()
        try reader.connection.executeUntraced(SchemaSQL.loadSchema)
        checkIn(reader)
    }

    private func checkOutReader() throws -> Reader {
        readersLock.lock()
        if let reader = idleReaders.popLast() {
            readersLock.unlock()
            return reader
        }
        readersLock.unlock()
        return try makeReader()
    }

    private func makeReader() throws -> Reader {
        var readerOptions = options
        readerOptions.walMode = false  // the writer already set the journal mode
        let connection = try Connection(location, options: readerOptions)
        PredicateFunctions.register(on: connection, counting: patternMatches)
        let origin = StatementOrigin()
        connection.executionHook = makeHook(origin)
        return Reader(connection, origin: origin)
    }

    /// Puts a reader back in the pool with its read transaction ended, so
    /// that every holder begins its own: the statements a context runs do
    /// not depend on which reader it gets (one a context that went before
    /// left in a read transaction at an older generation made the next
    /// holder's first read a COMMIT and a BEGIN, a new one only a BEGIN;
    /// identical `measure` blocks counted 3 and 4 statements). The end is
    /// not reported: it closes the previous holder's read, whose BEGIN was,
    /// and would reach whatever measures the store at the moment the
    /// previous holder went. An idle reader holds no snapshot either, so a
    /// WAL checkpoint is not held back by it.
    fileprivate func checkIn(_ reader: Reader) {
        Self.endUnreported(reader)
        readersLock.lock()
        idleReaders.append(reader)
        readersLock.unlock()
    }

    /// Ends every idle reader's read transaction (so a WAL checkpoint can
    /// complete) and closes them.
    func closeIdleReaders() {
        readersLock.lock()
        let readers = idleReaders
        idleReaders.removeAll()
        readersLock.unlock()
        for reader in readers {
            reader.origin.useTransactionPurpose()
            reader.connection.rollbackIfNeeded()
        }
    }
}
