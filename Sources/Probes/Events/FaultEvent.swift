/// An object fault fired: an object became a full object.
public struct FaultEvent: Sendable {
    public var start: UInt64
    public var durationNanoseconds: UInt64
    public var thread: Int32
    public var context: String
    public var entity: String
    public var primaryKey: Int64
    public var source: FaultSource
    /// The line that read the object (for a fault fired by a typed
    /// property, the caller of the property), or the innermost call site.
    public var callSite: CallSite
    /// With detailed logging (level 3): the values loaded.
    public var values: String?
    /// Why the row cache could not serve it, for a fault from the database
    /// (the engine always gives one then): what makes the fault a cache
    /// miss, in a trace as in the counters.
    public var missReason: CacheMissReason?
    /// The fetch the object came from and the key path that led to it;
    /// nil for an object no fetch produced (inserted, or made from an ID).
    public var origin: FaultOrigin?

    public init(
        start: UInt64, durationNanoseconds: UInt64, thread: Int32, context: String, entity: String,
        primaryKey: Int64, source: FaultSource, callSite: CallSite, values: String? = nil, missReason: CacheMissReason? = nil,
        origin: FaultOrigin? = nil
    ) {
        self.missReason = missReason
        self.origin = origin
        self.start = start
        self.durationNanoseconds = durationNanoseconds
        self.thread = thread
        self.context = context
        self.entity = entity
        self.primaryKey = primaryKey
        self.source = source
        self.callSite = callSite
        self.values = values
    }
}

/// A to-many relationship fault fired: its destination IDs were loaded.
public struct RelationshipFaultEvent: Sendable {
    public var start: UInt64
    public var durationNanoseconds: UInt64
    public var thread: Int32
    public var context: String
    public var entity: String
    public var relationship: String
    /// The source object's primary key.
    public var primaryKey: Int64
    public var destinationEntity: String
    public var destinationCount: Int
    public var source: FaultSource
    public var callSite: CallSite
    /// Why the row cache could not serve it, for a fault from the database
    /// (the engine always gives one then).
    public var missReason: CacheMissReason?
    /// The fetch the source object came from, and the key path to this
    /// relationship (the source's path, then the relationship); nil for a
    /// source no fetch produced.
    public var origin: FaultOrigin?

    public init(
        start: UInt64, durationNanoseconds: UInt64, thread: Int32, context: String, entity: String, relationship: String,
        primaryKey: Int64, destinationEntity: String, destinationCount: Int, source: FaultSource, callSite: CallSite,
        missReason: CacheMissReason? = nil, origin: FaultOrigin? = nil
    ) {
        self.missReason = missReason
        self.origin = origin
        self.start = start
        self.durationNanoseconds = durationNanoseconds
        self.thread = thread
        self.context = context
        self.entity = entity
        self.relationship = relationship
        self.primaryKey = primaryKey
        self.destinationEntity = destinationEntity
        self.destinationCount = destinationCount
        self.source = source
        self.callSite = callSite
    }
}

/// A fault the row cache could not serve.
///
/// The engine no longer emits it: a cache miss is a field of the fault that
/// followed it, whose source is the database (``FaultEvent/missReason``,
/// ``RelationshipFaultEvent/missReason``); the recorder counts misses from
/// those. Kept so that code that makes or matches it still compiles.
@available(*, deprecated, message: "the engine no longer emits cache-miss events: a fault or relationship fault whose source is .database carries the miss in its missReason")
public struct CacheMissEvent: Sendable {
    public var start: UInt64
    public var thread: Int32
    public var entity: String
    public var primaryKey: Int64
    /// `absent` or `stale`.
    public var reason: String

    public init(start: UInt64, thread: Int32, entity: String, primaryKey: Int64, reason: String) {
        self.start = start
        self.thread = thread
        self.entity = entity
        self.primaryKey = primaryKey
        self.reason = reason
    }

    /// `Entity/pN`.
    public var objectID: String { "\(entity)/p\(primaryKey)" }
}

extension FaultEvent {
    /// `Entity/pN`.
    public var objectID: String { "\(entity)/p\(primaryKey)" }
}

extension RelationshipFaultEvent {
    /// The source object, `Entity/pN`.
    public var objectID: String { "\(entity)/p\(primaryKey)" }
}
