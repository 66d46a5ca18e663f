/// A fetch request executed by a context (objects, IDs, dictionaries or a
/// count). Prefetch queries, batch pages and relationship faults are not
/// fetches: they show as SQL events with their purpose.
public struct FetchEvent: Sendable {
    public var start: UInt64
    public var durationNanoseconds: UInt64
    public var thread: Int32
    public var context: String
    public var entity: String
    /// The predicate in canonical format-string syntax, "" for none.
    public var predicate: String
    /// Sort keys, `name ASC, rating DESC`, "" for none.
    public var sort: String
    /// `objects`, `ids`, `dictionaries` or `count`.
    public var resultType: String
    public var resultCount: Int
    public var fetchLimit: Int
    public var fetchOffset: Int
    public var fetchBatchSize: Int
    public var returnsObjectsAsFaults: Bool
    public var includesPropertyValues: Bool
    public var includesPendingChanges: Bool
    /// Key paths prefetched, comma-separated.
    public var prefetch: String
    public var callSite: CallSite
    /// With detailed logging (level 3): each object fetched, `Entity/pN {key = value, …}`.
    public var objects: [String]?

    public init(
        start: UInt64, durationNanoseconds: UInt64, thread: Int32, context: String, entity: String, predicate: String,
        sort: String, resultType: String, resultCount: Int, fetchLimit: Int, fetchOffset: Int, fetchBatchSize: Int,
        returnsObjectsAsFaults: Bool, includesPropertyValues: Bool, includesPendingChanges: Bool, prefetch: String,
        callSite: CallSite, objects: [String]? = nil
    ) {
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
