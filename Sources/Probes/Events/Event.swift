import CTracepoints

/// One thing the engine did, as plain values (strings and numbers, never
/// engine types), for every sink alike.
///
/// Each case corresponds to one LTTng
/// tracepoint of the `faultline` provider (docs/tracepoints.md). Times are
/// nanoseconds on the monotonic clock; `start` + `duration` bound what the
/// event measured.
public enum Event: Sendable {
    /// A fetch request ran.
    case fetch(FetchEvent)
    /// An object fault fired.
    case fault(FaultEvent)
    /// A to-many relationship fault fired.
    case relationshipFault(RelationshipFaultEvent)
    /// A context saved, or failed to.
    case save(SaveEvent)
    /// A batch request ran.
    case batchRequest(BatchRequestEvent)
    /// A statement ran on SQLite.
    case sql(SQLEvent)
    /// A context's state changed.
    case context(ContextEvent)
    /// A scenario reached a phase.
    case scenario(ScenarioEvent)

    /// The event's kind, as the tracepoint names it (`fetch`,
    /// `relationship_fault`, …).
    public var kind: EventKind {
        switch self {
        case .fetch: .fetch
        case .fault: .fault
        case .relationshipFault: .relationshipFault
        case .save: .save
        case .batchRequest: .batchRequest
        case .sql: .sql
        case .context: .context
        case .scenario: .scenario
        }
    }

    /// When the event began, in monotonic nanoseconds.
    public var start: UInt64 {
        switch self {
        case .fetch(let e): e.start
        case .fault(let e): e.start
        case .relationshipFault(let e): e.start
        case .save(let e): e.start
        case .batchRequest(let e): e.start
        case .sql(let e): e.start
        case .context(let e): e.start
        case .scenario(let e): e.start
        }
    }

    /// How long it took (0 for instantaneous events).
    public var durationNanoseconds: UInt64 {
        switch self {
        case .fetch(let e): e.durationNanoseconds
        case .fault(let e): e.durationNanoseconds
        case .relationshipFault(let e): e.durationNanoseconds
        case .save(let e): e.durationNanoseconds
        case .batchRequest(let e): e.durationNanoseconds
        case .sql(let e): e.durationNanoseconds
        case .context, .scenario: 0
        }
    }

    /// The thread it happened on (Linux thread ID).
    public var thread: Int32 {
        switch self {
        case .fetch(let e): e.thread
        case .fault(let e): e.thread
        case .relationshipFault(let e): e.thread
        case .save(let e): e.thread
        case .batchRequest(let e): e.thread
        case .sql(let e): e.thread
        case .context(let e): e.thread
        case .scenario(let e): e.thread
        }
    }
}

/// The kinds of event; raw values are the LTTng tracepoint names.
public enum EventKind: String, Sendable, CaseIterable, Codable {
    case fetch
    case fault
    case relationshipFault = "relationship_fault"
    case save
    case batchRequest = "batch_request"
    case sql
    case context
    case scenario
}

/// Where a fault's data came from.
public enum FaultSource: String, Sendable, Codable {
    /// Data the context already held.
    case context
    /// A row cache snapshot (a cache hit).
    case rowCache = "row cache"
    /// A SQL round trip (a cache miss: the event's `missReason` says why).
    case database

    /// The value of the tracepoints' `source` enumeration
    /// (`faultline_source`), whose labels are the raw values.
    var traceValue: Int32 {
        let value = switch self {
        case .context: FAULTLINE_SOURCE_CONTEXT
        case .rowCache: FAULTLINE_SOURCE_ROW_CACHE
        case .database: FAULTLINE_SOURCE_DATABASE
        }
        return Int32(value.rawValue)
    }
}
