/// What to fetch: an entity, a predicate, an order, and options that decide
/// how much SQL runs and how many objects come to life.
///
/// Run it with ``ObjectContext/fetch(_:)`` (objects),
/// ``ObjectContext/fetchObjectIDs(_:)``, ``ObjectContext/fetchDictionaries(_:)``
/// or ``ObjectContext/count(for:)``.
///
/// The condition and the order are an ``ObjectPredicate`` and
/// ``SortKey``s, or, for a ``KeyPathNamed`` class, Foundation's
/// `#Predicate` and `SortDescriptor`s, translated to those when the request
/// is made (``init(predicate:sortBy:)``).
public struct FetchRequest<Object: ManagedObject>: Sendable {
    /// The entity to fetch; an unknown name is an error when the request runs.
    public var entityName: String
    /// Which objects; nil means all. A typed predicate (`#Predicate`) is
    /// here as its translation, which prints as its format-string twin.
    public var predicate: ObjectPredicate? {
        didSet { predicateTranslationError = nil }
    }
    /// The order of the results, first key first; empty leaves SQLite's
    /// order. A typed sort descriptor is here as its translation.
    public var sortKeys: [SortKey] = [] {
        didSet { sortTranslationError = nil }
    }
    /// Why the typed predicate given to an initializer has no translation;
    /// cleared when ``predicate`` is set.
    var predicateTranslationError: ObjectGraphError?
    /// Why a typed sort descriptor has no translation; cleared when
    /// ``sortKeys`` is set.
    var sortTranslationError: ObjectGraphError?
    /// At most this many results; 0 means no limit.
    public var fetchLimit = 0
    /// Skip this many results first.
    public var fetchOffset = 0
    /// 0 (the default) loads every row at once. A positive size first
    /// fetches the matching IDs only, then each page of this many rows the
    /// first time one of its elements is read; only the page last read is
    /// held by the results.
    public var fetchBatchSize = 0
    /// true (the default): objects come back as faults and their rows go
    /// to the row cache, so the first read of each is a cache hit. false:
    /// objects come back with their values (batch faulting), no fault fires.
    public var returnsObjectsAsFaults = true
    /// false: fetch only primary keys; every object is then a fault whose
    /// first read goes to SQLite (a cache miss).
    public var includesPropertyValues = true
    /// Relationship key paths (`people`, `people.selfies`) whose
    /// destinations are loaded with the fetch: one query per to-one or
    /// one-to-many step and two per many-to-many step, whatever the number
    /// of objects. A key path that is not a relationship is an error.
    public var relationshipKeyPathsForPrefetching: [String] = []
    /// Relationship key paths whose lazy loads for this fetch's objects
    /// are intended (a screen of five cards that reads each one's author):
    /// an N+1 of one of them at this fetch's call site is reported as
    /// intended, never as advice or a regression, and at this site only;
    /// one that shows no such insight is said (`unmatchedIntentions`).
    /// For a ``KeyPathNamed`` class, ``intendLazyLoads(_:)`` takes typed key paths.
    public var intendedLazyLoads: [String] = []
    /// For dictionary results: the attributes (or to-one key paths) to
    /// return; nil means every attribute.
    public var propertiesToFetch: [String]?
    /// true (the default): results reflect the context's unsaved inserts,
    /// updates and deletes (evaluated in memory). Dictionary results ignore
    /// pending changes, as Core Data's do.
    public var includesPendingChanges = true
    /// true (the default): a fetch of an entity that has subentities also
    /// returns their objects, as Core Data's does; false keeps only objects
    /// of exactly this entity.
    public var includesSubentities = true

    /// Why the typed predicate or sort descriptors given to an initializer
    /// have no translation (``ObjectGraphError/invalidPredicate(_:)``,
    /// ``ObjectGraphError/invalidFetchRequest(_:)``); nil when they have
    /// one, or the request has none. Every fetch of the request throws it.
    public var translationError: ObjectGraphError? { predicateTranslationError ?? sortTranslationError }

    /// A request for the objects of `entityName` that match `predicate` (all
    /// when nil), in the order of `sortKeys`.
    public init(entityName: String, predicate: ObjectPredicate? = nil, sortKeys: [SortKey] = []) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortKeys = sortKeys
    }
}

extension FetchRequest where Object: EntityNamed {
    /// A request for the entity the class names.
    public init(predicate: ObjectPredicate? = nil, sortKeys: [SortKey] = []) {
        self.init(entityName: Object.entityName, predicate: predicate, sortKeys: sortKeys)
    }
}

/// A ``ManagedObject`` subclass that names its entity, so that requests and
/// inserts can be written without the name.
public protocol EntityNamed: ManagedObject {
    static var entityName: String { get }
}
