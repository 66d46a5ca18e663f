/// A change of a context's state (a reset, a refresh, a merge, a save, or
/// the usage of its prefetches and fetches), and how many objects are
/// registered in all contexts of the store afterwards.
public struct ContextEvent: Sendable {
    /// When the change happened, in monotonic nanoseconds (``ProbeClock/now()``).
    public var start: UInt64
    /// The Linux thread ID of the thread it happened on.
    public var thread: Int32
    /// The context's name.
    public var context: String
    /// What changed.
    public var kind: ContextChange
    /// Objects registered in all contexts of the store.
    public var objectsRegistered: Int
    /// The most objects registered at once since the store opened (or the
    /// peak was last reset).
    public var objectsRegisteredPeak: Int
    /// For ``ContextChange/prefetchUsage``: what became of one prefetched
    /// relationship; nil for the other kinds.
    public var prefetchUsage: PrefetchUsage?
    /// For ``ContextChange/fetchUsage``: what became of the objects of one
    /// fetch site; nil for the other kinds.
    public var fetchUsage: FetchUsage?

    /// An event with these fields; `prefetchUsage` only for
    /// ``ContextChange/prefetchUsage``, `fetchUsage` only for
    /// ``ContextChange/fetchUsage``.
    public init(
        start: UInt64, thread: Int32, context: String, kind: ContextChange, objectsRegistered: Int, objectsRegisteredPeak: Int,
        prefetchUsage: PrefetchUsage? = nil, fetchUsage: FetchUsage? = nil
    ) {
        self.start = start
        self.thread = thread
        self.context = context
        self.kind = kind
        self.objectsRegistered = objectsRegistered
        self.objectsRegisteredPeak = objectsRegisteredPeak
        self.prefetchUsage = prefetchUsage
        self.fetchUsage = fetchUsage
    }

    /// The event's detail as text (the `detail` field of the `context`
    /// tracepoint): the prefetch usage's ``PrefetchUsage/description``, the
    /// fetch usage's ``FetchUsage/description`` (both, `; ` between, when
    /// an event carries both), or "".
    public var detail: String {
        switch (prefetchUsage, fetchUsage) {
        case (let prefetch?, let fetch?): "\(prefetch); \(fetch)"
        case (let prefetch?, nil): prefetch.description
        case (nil, let fetch?): fetch.description
        case (nil, nil): ""
        }
    }
}

/// What changed in a context; raw values are the names in traces and logs.
public enum ContextChange: String, Sendable, Codable {
    /// The context was reset: it forgot every object and unsaved change.
    case reset
    /// One object turned back into a fault or reloaded.
    case refresh
    /// The context merged another context's save.
    case merge
    /// The context saved.
    case save
    /// A context that prefetched was reset or released: one event per
    /// prefetched relationship, with its ``PrefetchUsage``.
    case prefetchUsage = "prefetch-usage"
    /// A context that fetched objects was reset or released: one event
    /// per fetch site, with its ``FetchUsage``.
    case fetchUsage = "fetch-usage"
}

/// What became of one prefetched relationship in one context: for how many
/// objects it was prefetched, how many of those then read it, and where the
/// prefetch was asked for.
public struct PrefetchUsage: Sendable, Hashable {
    /// `Entity.relationship`.
    public var relationship: String
    /// The objects the relationship was prefetched for.
    public var prefetched: Int
    /// How many of those then read the relationship.
    public var read: Int
    /// Where the fetch that prefetched it was asked for.
    public var callSite: CallSite

    /// The usage of `relationship` (`Entity.relationship`): prefetched for
    /// `prefetched` objects, read by `read` of them, asked for at `callSite`.
    public init(relationship: String, prefetched: Int, read: Int, callSite: CallSite) {
        self.relationship = relationship
        self.prefetched = prefetched
        self.read = read
        self.callSite = callSite
    }
}

extension PrefetchUsage: CustomStringConvertible {
    /// `Selfie.people prefetched=500 read=0 at App/Gallery.swift:12`.
    public var description: String { "\(relationship) prefetched=\(prefetched) read=\(read) at \(callSite)" }
}
