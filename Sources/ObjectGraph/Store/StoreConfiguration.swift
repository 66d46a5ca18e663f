import Probes

/// How a ``Store`` opens and behaves.
public struct StoreConfiguration: Sendable {
    /// `PRAGMA synchronous`. `NORMAL` (the default) in WAL mode survives an
    /// application crash and costs about 15 µs a commit here, against
    /// 180 µs with `FULL`.
    public var synchronous: Connection.Synchronous = .normal
    /// WAL journal for file stores (default on): readers do not block the
    /// writer nor the writer the readers.
    public var walMode = true
    /// How long a statement waits for another process's lock.
    public var busyTimeoutMilliseconds: Int32 = 5_000
    /// SQLite page cache per connection, in KiB; nil keeps SQLite's 2 MB.
    /// Building a large data set runs about 1.8x faster with 64 MiB.
    public var cacheSizeKiB: Int?
    /// How old a row cache snapshot may be before a fault goes back to
    /// SQLite, for contexts that do not set their own. nil (the default)
    /// or a negative interval means never, as Core Data's default (a
    /// negative `stalenessInterval`); `.zero` means always.
    public var stalenessInterval: Duration?
    /// Sees every statement executed on any of the store's connections,
    /// BEGIN and COMMIT included (schema set-up excepted). Runs on the
    /// thread that executed the statement.
    public var statementHook: (@Sendable (ExecutedStatement) -> Void)?
    /// Records every save and batch request as a history transaction
    /// (author, time, changed IDs), for ``Store/fetchHistory(after:author:excludingAuthor:file:line:)``.
    public var persistentHistoryTracking = false
    /// Where the engine's events go. Defaults to what the environment asks
    /// for (`FAULTLINE_SQL_DEBUG=1…4`: the SQL debug log); empty means
    /// instrumentation off (one branch per call site).
    public var sinks: [any EventSink] = Instrumentation.environmentSinks()
    /// Lets a test measure blocks of code on the store (`Faultline.measure`):
    /// the store gets a ``MeasurementSlot`` among its sinks, which costs an
    /// atomic load per event check while nothing is measured.
    public var allowsMeasurement = false
    /// Fixes applied to measure what they would change (``WhatIf``):
    /// fetches amended where they are asked for, indexes created when the
    /// store opens. Empty by default.
    public var whatIf = WhatIf()

    /// The defaults: WAL, `synchronous = NORMAL`, a 5-second busy timeout,
    /// SQLite's page cache, snapshots never stale, no statement hook, no
    /// history, the sinks the environment asks for, no measurement, no
    /// what-if.
    public init() {}

    var connectionOptions: Connection.Options {
        var options = Connection.Options()
        options.synchronous = synchronous
        options.walMode = walMode
        options.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        options.cacheSizeKiB = cacheSizeKiB
        return options
    }
}

extension Duration {
    /// A staleness interval in nanoseconds: nil (never stale) for a
    /// negative interval, as Core Data reads a negative `stalenessInterval`.
    var stalenessNanoseconds: UInt64? { self < .zero ? nil : nanoseconds }

    /// The duration in whole nanoseconds (negative durations count as 0).
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
