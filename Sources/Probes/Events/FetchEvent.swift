/// A fetch request executed by a context (objects, IDs, dictionaries or a
/// count). Prefetch queries, batch pages and relationship faults are not
/// fetches: they show as SQL events with their purpose.
public struct FetchEvent: Sendable {
    /// When the fetch began, in monotonic nanoseconds (``ProbeClock/now()``).
    public var start: UInt64
    /// How long the whole fetch took, its prefetches included.
    public var durationNanoseconds: UInt64
    /// The Linux thread ID of the thread it ran on.
    public var thread: Int32
    /// The name of the context that ran it.
    public var context: String
    /// The entity the request names.
    public var entity: String
    /// The predicate in canonical format-string syntax, "" for none.
    public var predicate: String
    /// Sort keys, `name ASC, rating DESC`, "" for none.
    public var sort: String
    /// `objects`, `ids`, `dictionaries` or `count`.
    public var resultType: String
    /// How many results it returned: objects, IDs or dictionaries, or the
    /// count itself.
    public var resultCount: Int
    /// The request's limit; 0 for none.
    public var fetchLimit: Int
    /// The request's offset.
    public var fetchOffset: Int
    /// The request's batch size; 0 for none.
    public var fetchBatchSize: Int
    /// The request's `returnsObjectsAsFaults`.
    public var returnsObjectsAsFaults: Bool
    /// The request's `includesPropertyValues`.
    public var includesPropertyValues: Bool
    /// The request's `includesPendingChanges`.
    public var includesPendingChanges: Bool
    /// Key paths prefetched, comma-separated.
    public var prefetch: String
    /// Key paths whose lazy loads for the fetch's objects are intended
    /// (``FetchRequest/intendedLazyLoads``), comma-separated: an N+1 of one
    /// of them at this fetch is done on purpose.
    public var intendedLazyLoads: String
    /// Where the fetch was asked for.
    public var callSite: CallSite
    /// With detailed logging (level 3): each object fetched, `Entity/pN {key = value, …}`.
    public var objects: [String]?

    /// A fetch event with these fields; `intendedLazyLoads` and `objects` are optional.
    public init(
        start: UInt64, durationNanoseconds: UInt64, thread: Int32, context: String, entity: String, predicate: String,
        sort: String, resultType: String, resultCount: Int, fetchLimit: Int, fetchOffset: Int, fetchBatchSize: Int,
        returnsObjectsAsFaults: Bool, includesPropertyValues: Bool, includesPendingChanges: Bool, prefetch: String,
        intendedLazyLoads: String = "", callSite: CallSite, objects: [String]? = nil
    ) {
        self.intendedLazyLoads = intendedLazyLoads
        self.start = start
        self.durationNanoseconds = durationNanoseconds
        self.thread = thread
        self.context = context
        self.entity = entity
        self.predicate = predicate
        self.sort = sort
        self.resultType = resultType
        self.resultCount = resultCount
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
        self.fetchBatchSize = fetchBatchSize
        self.returnsObjectsAsFaults = returnsObjectsAsFaults
        self.includesPropertyValues = includesPropertyValues
        self.includesPendingChanges = includesPendingChanges
        self.prefetch = prefetch
        self.callSite = callSite
        self.objects = objects
    }
}
