/// A change of a context's state (a reset, a refresh, a merge, a save, or
/// the usage of its prefetches), and how many objects are registered in all
/// contexts of the store afterwards.
public struct ContextEvent: Sendable {
    public var start: UInt64
    public var thread: Int32
    public var context: String
    public var kind: ContextChange
    /// Objects registered in all contexts of the store.
    public var objectsRegistered: Int
    /// The most objects registered at once since the store opened (or the
    /// peak was last reset).
    public var objectsRegisteredPeak: Int
    /// For ``ContextChange/prefetchUsage``: what became of one prefetched
    /// relationship; nil for the other kinds.
    public var prefetchUsage: PrefetchUsage?

    public init(
        start: UInt64, thread: Int32, context: String, kind: ContextChange, objectsRegistered: Int, objectsRegisteredPeak: Int,
        prefetchUsage: PrefetchUsage? = nil
    ) {
        self.start = start
        self.thread = thread
        self.context = context
        self.kind = kind
        self.objectsRegistered = objectsRegistered
        self.objectsRegisteredPeak = objectsRegisteredPeak
        self.prefetchUsage = prefetchUsage
    }

    /// The event's detail as text (the `detail` field of the `context`
    /// tracepoint): the prefetch usage's ``PrefetchUsage/description``, or "".
    public var detail: String { prefetchUsage?.description ?? "" }
}

/// What changed in a context; raw values are the names in traces and logs.
public enum ContextChange: String, Sendable, Codable {
    case reset
    /// One object turned back into a fault or reloaded.
    case refresh
    case merge
    case save
    /// A context that prefetched was reset or released: one event per
    /// prefetched relationship, with its ``PrefetchUsage``.
    case prefetchUsage = "prefetch-usage"
}

/// What became of one prefetched relationship in one context: for how many
/// objects it was prefetched, how many of those then read it, and where the
/// prefetch was asked for.
public struct PrefetchUsage: Sendable, Hashable {
    /// `Entity.relationship`.
    public var relationship: String
    public var prefetched: Int
    public var read: Int
    public var callSite: CallSite

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
