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

/// The source line that caused an event: a fetch's or save's caller, or the
/// innermost `perform` block or scenario step around a typed property read.
public struct CallSite: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file, as `#fileID` names it (`App/Gallery.swift`), or `?` when
    /// not known.
    public let file: String
    /// The line, from 1; 0 when not known.
    public let line: Int

    /// The call site at `line` of `file`.
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// `?:0`: no call site is known (work outside any `perform` block or
    /// traced API call).
    public static let unknown = CallSite(file: "?", line: 0)

    /// `File.swift:42`; a call site still to be named from the stack
    /// (``CallerLine``) is named first.
    public var description: String {
        let site = resolved
        return "\(site.file):\(site.line)"
    }

    /// The call site with its file and line: a pending one named from the
    /// stack (``CallerLine/resolve(_:)``), any other as it is.
    public var resolved: CallSite {
        isPending ? CallerLine.resolve(self) : self
    }

    /// Whether the site is still to be named. The lengths are compared
    /// first (a native string knows its own): a file name is seldom as
    /// short as the pending marker, and comparing the texts of two strings
    /// of different lengths cost tens of instructions per traced event.
    private var isPending: Bool {
        file.utf8.count == CallerLine.pendingFile.utf8.count && file == CallerLine.pendingFile
    }

    private enum CodingKeys: String, CodingKey { case file, line }

    /// Decodes `file` and `line`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        file = try container.decode(String.self, forKey: .file)
        line = try container.decode(Int.self, forKey: .line)
    }

    /// Encoded named (``resolved``).
    public func encode(to encoder: any Encoder) throws {
        let site = resolved
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(site.file, forKey: .file)
        try container.encode(site.line, forKey: .line)
    }
}
