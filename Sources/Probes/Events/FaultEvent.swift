/// An object fault fired: an object became a full object.
public struct FaultEvent: Sendable {
    /// When the fault began, in monotonic nanoseconds (``ProbeClock/now()``).
    public var start: UInt64
    /// How long fulfilling it took.
    public var durationNanoseconds: UInt64
    /// The Linux thread ID of the thread it happened on.
    public var thread: Int32
    /// The name of the object's context.
    public var context: String
    /// The object's entity.
    public var entity: String
    /// The object's primary key.
    public var primaryKey: Int64
    /// Where the values came from: the context, the row cache (a hit) or
    /// the database (a miss, with ``missReason``).
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
    /// Why the engine fired it for its own bookkeeping (to keep an inverse
    /// in step, to apply a delete rule); nil for a read of the
    /// application's. Counted as any fault, never a lazy load of the
    /// application's.
    public var engineWork: EngineWork?

    /// A fault event with these fields; `values`, `missReason`, `origin`
    /// and `engineWork` are optional.
    public init(
        start: UInt64, durationNanoseconds: UInt64, thread: Int32, context: String, entity: String,
        primaryKey: Int64, source: FaultSource, callSite: CallSite, values: String? = nil, missReason: CacheMissReason? = nil,
        origin: FaultOrigin? = nil, engineWork: EngineWork? = nil
    ) {
        self.engineWork = engineWork
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
    /// When the fault began, in monotonic nanoseconds (``ProbeClock/now()``).
    public var start: UInt64
    /// How long loading the destination IDs took.
    public var durationNanoseconds: UInt64
    /// The Linux thread ID of the thread it happened on.
    public var thread: Int32
    /// The name of the source object's context.
    public var context: String
    /// The source object's entity.
    public var entity: String
    /// The to-many relationship's name.
    public var relationship: String
    /// The source object's primary key.
    public var primaryKey: Int64
    /// The relationship's destination entity.
    public var destinationEntity: String
    /// How many destinations the relationship holds.
    public var destinationCount: Int
    /// Where the destination IDs came from: the row cache (a hit) or the
    /// database (a miss, with ``missReason``).
    public var source: FaultSource
    /// The line that read the relationship, or the innermost call site.
    public var callSite: CallSite
    /// Why the row cache could not serve it, for a fault from the database
    /// (the engine always gives one then).
    public var missReason: CacheMissReason?
    /// The fetch the source object came from, and the key path to this
    /// relationship (the source's path, then the relationship); nil for a
    /// source no fetch produced.
    public var origin: FaultOrigin?
    /// Why the engine fired it for its own bookkeeping (`c.recipes` loaded
    /// to add a recipe whose category was set to `c`); nil for a read of
    /// the application's. Counted as any relationship fault, never a lazy
    /// load of the application's.
    public var engineWork: EngineWork?

    /// A relationship fault event with these fields; `missReason`,
    /// `origin` and `engineWork` are optional.
    public init(
        start: UInt64, durationNanoseconds: UInt64, thread: Int32, context: String, entity: String, relationship: String,
        primaryKey: Int64, destinationEntity: String, destinationCount: Int, source: FaultSource, callSite: CallSite,
        missReason: CacheMissReason? = nil, origin: FaultOrigin? = nil, engineWork: EngineWork? = nil
    ) {
        self.engineWork = engineWork
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

extension FaultEvent {
    /// `Entity/pN`.
    public var objectID: String { "\(entity)/p\(primaryKey)" }
}

extension RelationshipFaultEvent {
    /// The source object, `Entity/pN`.
    public var objectID: String { "\(entity)/p\(primaryKey)" }
}
