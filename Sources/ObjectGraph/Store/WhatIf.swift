import Probes

/// Fixes a store applies to the work done on it, to measure what they
/// would change without editing the code (`perf-run run --what-if`): a
/// fetch asked for at one call site prefetches more key paths or loads its
/// rows' values, and indexes the model lacks are created when the store
/// opens (on a copy of the data, never on the data set itself).
///
/// Empty by default: a fetch then pays one check of an empty list.
public struct WhatIf: Sendable, Equatable {
    /// Changes to the fetches asked for at given call sites.
    public var fetchAmendments: [FetchAmendment] = []
    /// Indexes to create when the store opens, if they do not exist.
    public var indexes: [Index] = []

    /// Fixes of these fetches and indexes; none by default.
    public init(fetchAmendments: [FetchAmendment] = [], indexes: [Index] = []) {
        self.fetchAmendments = fetchAmendments
        self.indexes = indexes
    }

    /// Whether nothing is changed.
    public var isEmpty: Bool { fetchAmendments.isEmpty && indexes.isEmpty }

    /// The change to a fetch of `entity` asked for at `site`, if any.
    @inline(__always)
    func amendment(for entity: String, at site: CallSite) -> FetchAmendment? {
        guard !fetchAmendments.isEmpty else { return nil }
        return fetchAmendments.first { $0.entity == entity && $0.site == site }
    }

    /// An index on one attribute of an entity.
    public struct Index: Sendable, Hashable {
        /// The entity whose table gets the index.
        public var entity: String
        /// The attribute whose column is indexed. An unknown entity or attribute
        /// makes the store fail to open.
        public var attribute: String

        /// An index on `entity.attribute`.
        public init(entity: String, attribute: String) {
            self.entity = entity
            self.attribute = attribute
        }
    }
}

/// A change to the fetches of one entity asked for at one call site.
public struct FetchAmendment: Sendable, Equatable {
    /// The entity fetched.
    public var entity: String
    /// Where the fetch is asked for: the file and line of the `fetch` call.
    public var site: CallSite
    /// Key paths prefetched besides the request's own.
    public var prefetching: [String]
    /// Load the rows' values with the fetch (`includesPropertyValues = true`).
    public var loadsValues: Bool

    /// A change to the fetches of `entity` at `site`: the key paths to
    /// prefetch besides the request's own, and whether to load the rows'
    /// values.
    public init(entity: String, site: CallSite, prefetching: [String] = [], loadsValues: Bool = false) {
        self.entity = entity
        self.site = site
        self.prefetching = prefetching
        self.loadsValues = loadsValues
    }

    func apply<Object>(to request: inout FetchRequest<Object>) {
        for keyPath in prefetching where !request.relationshipKeyPathsForPrefetching.contains(keyPath) {
            request.relationshipKeyPathsForPrefetching.append(keyPath)
        }
        if loadsValues { request.includesPropertyValues = true }
    }
}
