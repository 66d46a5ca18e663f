/// What became of the objects the runs of one fetch (one entity at one call
/// site) returned in one context: how many the application then read, and
/// how many runs it read none of. A context reports it when it is reset or
/// released, once per fetch site (``ContextChange/fetchUsage``), as it does
/// its prefetches' usage.
///
/// An object counts as read when the application reads or sets one of its
/// properties, fires its fault, deletes it, evaluates a predicate on it or
/// sets it as a relationship's value; the engine's own reads (a prefetch,
/// a predicate evaluated on pending changes, inverse maintenance) do not
/// count, nor does reading its ID.
public struct FetchUsage: Sendable, Hashable {
    /// The entity the fetch names.
    public var entity: String
    /// Where the fetch was asked for.
    public var callSite: CallSite
    /// "" for the fetch's own objects; for the destinations of a to-many
    /// relationship its objects loaded with a query each, the key path that
    /// led there (`recipes`): each load is a run, so a to-many loaded only
    /// for its count shows as runs none of whose objects was read.
    public var keyPath: String
    /// Runs of the fetch that returned at least one object.
    public var runs: Int
    /// The objects those runs returned, together.
    public var objects: Int
    /// How many of those the application then read.
    public var read: Int
    /// Runs none of whose objects the application read.
    public var runsReadNone: Int
    /// The objects of the largest such run; 0 when there is none.
    public var largestReadNone: Int
    /// Of the runs without a batch size (``FetchEvent/fetchBatchSize`` 0)
    /// that had some of their objects read: the most objects one of them
    /// left unread; 0 when there is none.
    public var mostUnread: Int
    /// The objects of that run; 0 when there is none.
    public var mostUnreadOf: Int

    /// The usage of the fetch of `entity` at `callSite`, figure by figure.
    public init(
        entity: String, callSite: CallSite, keyPath: String = "", runs: Int, objects: Int, read: Int, runsReadNone: Int, largestReadNone: Int,
        mostUnread: Int, mostUnreadOf: Int
    ) {
        self.entity = entity
        self.callSite = callSite
        self.keyPath = keyPath
        self.runs = runs
        self.objects = objects
        self.read = read
        self.runsReadNone = runsReadNone
        self.largestReadNone = largestReadNone
        self.mostUnread = mostUnread
        self.mostUnreadOf = mostUnreadOf
    }

    /// A fetch site: an entity and the line that fetches it, and the key
    /// path from its objects ("" for the objects themselves).
    public struct Site: Sendable, Hashable, Comparable {
        public var entity: String
        public var callSite: CallSite
        public var keyPath: String

        public init(entity: String, callSite: CallSite, keyPath: String = "") {
            self.entity = entity
            self.callSite = callSite
            self.keyPath = keyPath
        }

        /// By file, line, entity, then key path: the order insights list sites in.
        public static func < (lhs: Site, rhs: Site) -> Bool {
            (lhs.callSite.file, lhs.callSite.line, lhs.entity, lhs.keyPath) < (rhs.callSite.file, rhs.callSite.line, rhs.entity, rhs.keyPath)
        }
    }

    /// Its fetch site.
    public var site: Site { Site(entity: entity, callSite: callSite, keyPath: keyPath) }

    /// The usage of the runs of both (of one fetch site): counts added,
    /// the largest run of each kind kept.
    public func adding(_ other: FetchUsage) -> FetchUsage {
        var sum = self
        sum.runs = runs.addingSaturated(other.runs)
        sum.objects = objects.addingSaturated(other.objects)
        sum.read = read.addingSaturated(other.read)
        sum.runsReadNone = runsReadNone.addingSaturated(other.runsReadNone)
        sum.largestReadNone = max(largestReadNone, other.largestReadNone)
        if other.mostUnread > mostUnread { (sum.mostUnread, sum.mostUnreadOf) = (other.mostUnread, other.mostUnreadOf) }
        return sum
    }
}

extension FetchUsage: CustomStringConvertible {
    /// `Recipe runs=3 objects=1500 read=20 readNone=2 largestReadNone=500
    /// mostUnread=480/500 at App/List.swift:12`.
    public var description: String {
        "\(entity) runs=\(runs) objects=\(objects) read=\(read) readNone=\(runsReadNone) largestReadNone=\(largestReadNone) "
            + "mostUnread=\(mostUnread)/\(mostUnreadOf) at \(callSite)"
    }
}
