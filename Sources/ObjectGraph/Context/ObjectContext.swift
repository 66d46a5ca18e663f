import Dispatch
@_spi(FastPath) import Probes

/// A scratchpad of objects on one ``Store``: the identity map, change
/// tracking, fetching and saving.
///
/// **Confinement.** A context and its objects are not `Sendable`. Each
/// context has its own serial queue and its work runs inside
/// ``perform(_:)``; only ``ObjectID``s and ``ChangeSet``s cross between
/// contexts. Several contexts may work on one store at once.
///
/// **Uniquing.** Within a context there is one object per ID: however an
/// object is reached (a fetch, a relationship, ``object(with:)``) it is the
/// same instance. Unchanged objects are not kept alive by the context and
/// go when the application drops them; changed ones are held until save or
/// rollback.
/// Loaded relationships hold their destinations, as Core Data's do, so
/// objects that point at each other stay alive until they are refreshed,
/// the context is reset, or the context goes.
public final class ObjectContext {
    /// The store the context reads and saves to.
    public let store: Store
    /// A name for logs, events and error messages.
    public let name: String
    /// How old a row cache snapshot may be for a fault to use it; nil means
    /// never stale (so does a negative interval, as in Core Data), `.zero`
    /// means always read SQLite. Defaults to the
    /// store's ``StoreConfiguration/stalenessInterval``.
    public var stalenessInterval: Duration? {
        didSet {
            stalenessNanoseconds = stalenessInterval?.stalenessNanoseconds
            updateRefaultsInPlace()
        }
    }

    let queue: DispatchQueue
    /// The store's row cache and instrumentation, held here too: reaching
    /// them through `store` on every fault retained and released each.
    @usableFromInline let rowCache: RowCache
    let instrumentation: Instrumentation
    #if FAULTLINE_NO_INSTRUMENTATION
    var hasSink: Bool { false }
    var refreshEventsPossible: Bool { false }
    #else
    /// ``Instrumentation/hasSink`` and ``Instrumentation/refreshEventsPossible``,
    /// read once: with no sink, a fault and a refresh test one flag of the
    /// context and ask no more.
    let hasSink: Bool
    let refreshEventsPossible: Bool
    #endif
    /// ``ConcurrencyGuard/isOn``, read once.
    @usableFromInline let checksConcurrency = ConcurrencyGuard.isOn
    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()
    @exclusivity(unchecked) var stalenessNanoseconds: UInt64?

    /// An identity map entry. It does not keep its object alive, and it
    /// is not a weak reference either: a weak reference gives every object
    /// a side table, allocated and freed with it (a third of what fetching
    /// an object cost). Instead the object removes its entry as it
    /// deinitializes (``objectWillDeallocate(_:)``), so an entry never
    /// outlives its object; contexts and objects stay on one queue.
    struct WeakObject {
        let reference: Unmanaged<ManagedObject>
        init(object: ManagedObject) { reference = .passUnretained(object) }
        /// The object, which is alive while its entry exists.
        var object: ManagedObject? { reference.takeUnretainedValue() }
        func refers(to object: ManagedObject) -> Bool { reference.toOpaque() == Unmanaged.passUnretained(object).toOpaque() }
    }

    // A `let` (the table is a class): a `var` made every lookup retain
    // and release it.
    let registered = ObjectTable<WeakObject>()
    @exclusivity(unchecked) var inserted: [ObjectID: ManagedObject] = [:]
    @exclusivity(unchecked) var updated: [ObjectID: ManagedObject] = [:]
    @exclusivity(unchecked) var deleted: [ObjectID: ManagedObject] = [:]
    @exclusivity(unchecked) var joinChanges = JoinChanges()
    /// The store reader this context reads through (see ``ConnectionPool``).
    @exclusivity(unchecked) var readerLease: ConnectionPool.ReaderLease?
    /// Whether the context has read from the store: its first read takes
    /// its reader (``ConnectionPool/makeLease()``).
    @exclusivity(unchecked) var hasRead = false
    /// Whether the context is pinned to a query generation.
    var pinnedToGeneration = false {
        didSet { updateRefaultsInPlace() }
    }
    /// Whether a typed read's refault may be served in place, inlined into
    /// the read (``refaultsInPlace(_:)``): no sink (so no fault is ever
    /// traced), no concurrency checks, no staleness limit, not pinned.
    /// Kept up to date as the staleness interval and the pin change.
    @usableFromInline @exclusivity(unchecked) var refaultsWithoutLock = false
    /// Per prefetched relationship (`Entity.relationship`): objects it was
    /// prefetched for, and how many of those then read it.
    @exclusivity(unchecked) var prefetchUsage: [String: (prefetched: Int, read: Int, site: CallSite)] = [:]
    /// The runs of this context's fetches whose objects' use is tracked.
    @exclusivity(unchecked) var fetchRuns = FetchRuns()
    /// Recorded as the author of this context's saves in persistent history.
    public var transactionAuthor: String?
    /// The call site of the innermost enclosing `perform` block or API call
    /// (none outside any, ``CallSiteAbsence/outsidePerform``): events are attributed to it. The
    /// outer ones wait on the stack of ``withCallSite(_:_:)``. Kept in a
    /// property of its own, reading it is one load and a retain (every
    /// traced event reads it; the last element of an array of sites cost
    /// about 20 instructions more).
    @exclusivity(unchecked) private(set) var currentCallSite = CallSite(noSiteBecause: .outsidePerform)
    /// The fetches and key paths this context's objects came from.
    @exclusivity(unchecked) var originPaths = OriginPaths()
    /// Where objects registered now come from (a fetch's rows, a
    /// relationship's destinations); none outside such work.
    @exclusivity(unchecked) var registrationOrigin = ObjectOrigin.none
    /// Whether the work under way was asked for by a typed property, which
    /// has no call site of its own: its events are attributed to the line
    /// that read the property (``readSite``).
    @exclusivity(unchecked) var inTypedAccess = false
    /// A mark on the stack where the outermost typed access entered the
    /// engine (``CallerLine/stackMark()``), while ``inTypedAccess``.
    @exclusivity(unchecked) var typedAccessMark: UInt = 0
    /// The bookkeeping the engine does now (``EngineWork``: keeping an
    /// inverse in step, applying a delete rule), or nil while it works for
    /// the application: what the engine loads meanwhile is marked as its
    /// own, in its events and its statements' purpose.
    @exclusivity(unchecked) var engineWork: EngineWork?
    /// Where this context counts its row-cache faults, when a sink reads
    /// them from the store's tally (``Instrumentation/rowCacheFaultTally``).
    let rowCacheFaultCell: RowCacheFaultTally.Cell?
    /// This context's run of row-cache faults, when the store's sinks take
    /// them by runs (``Instrumentation/keepsRowCacheFaultRuns``).
    let rowCacheFaultRun: RowCacheFaultRun?
    /// ``rowCacheFaultRun``, used without a retain and a release per fault
    /// (the context holds it for its whole life).
    let unmanagedRowCacheFaultRun: Unmanaged<RowCacheFaultRun>?
    /// This context's run of refreshes, when the store's sinks take them by
    /// runs (``Instrumentation/keepsRefreshRuns``).
    let refreshRun: RefreshRun?

    /// A new, empty context on `store`, with its own serial queue and the
    /// store's staleness interval. `name` labels its events, logs and errors.
    public init(store: Store, name: String = "context") {
        self.store = store
        self.name = name
        self.rowCache = store.rowCache
        self.instrumentation = store.instrumentation
        #if !FAULTLINE_NO_INSTRUMENTATION
        self.hasSink = store.instrumentation.hasSink
        self.refreshEventsPossible = store.instrumentation.refreshEventsPossible
        #endif
        self.stalenessInterval = store.configuration.stalenessInterval
        self.stalenessNanoseconds = store.configuration.stalenessInterval?.stalenessNanoseconds
        self.queue = DispatchQueue(label: "faultline.context.\(name)")
        self.rowCacheFaultCell = store.instrumentation.rowCacheFaultTally?.makeCell()
        self.rowCacheFaultRun = store.instrumentation.keepsRowCacheFaultRuns ? RowCacheFaultRun() : nil
        self.unmanagedRowCacheFaultRun = rowCacheFaultRun.map { Unmanaged.passUnretained($0) }
        self.refreshRun = store.instrumentation.keepsRefreshRuns ? RefreshRun() : nil
        queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
        store.liveContexts.add(self)
        updateRefaultsInPlace()
    }

    /// Whether a refresh of a plain unchanged object may skip every
    /// question (``refresh(_:mergeChanges:)``): no concurrency checks, no
    /// sink that asks for refreshes. Both are fixed for the context's life.
    private var refreshesInPlace: Bool { !checksConcurrency && !refreshEventsPossible }

    /// Recomputes ``refaultsWithoutLock``.
    private func updateRefaultsInPlace() {
        refaultsWithoutLock = !hasSink && !checksConcurrency && stalenessNanoseconds == nil && !pinnedToGeneration
    }

    /// Whether a typed read of an object of this context may go on in
    /// place, inlined into the read (``ManagedObject/fillField(_:at:_:)``):
    /// a loaded object, or a refault served in place, of an object the
    /// application has used since its last fetch, in a context without
    /// concurrency checks. A refault in place: a context that refaults
    /// without the lock (``refaultsWithoutLock``) and an object whose
    /// snapshot the row cache still holds unchanged (``RowCache/refault(_:)``,
    /// which counts the hit). False for anything else, which
    /// ``prepareTypedRead(_:_:field:)`` handles.
    @inlinable @inline(__always)
    final func readsInPlace(_ object: ManagedObject) -> Bool {
        guard !checksConcurrency, object.storedUnusedFetchRun == 0 else { return false }
        if case .loaded = object.storedState { return true }
        guard refaultsWithoutLock, case .fault = object.storedState else { return false }
        return rowCache.refault(object)
    }

    deinit {
        invalidateAll(reason: "its context was released")
        if let rowCacheFaultCell { instrumentation.rowCacheFaultTally?.retire(rowCacheFaultCell) }
    }

    /// Runs `body` on the context's queue and waits for it; runs it at once
    /// when already on that queue. Every use of the context and its objects
    /// belongs inside. Events inside are attributed to the caller's line
    /// unless a call inside has its own. When the outermost block returns,
    /// the sinks send on what they held back (``Instrumentation``'s
    /// `flush`).
    public func perform<T>(file: String = #fileID, line: Int = #line, _ body: () throws -> T) rethrows -> T {
        if isOnQueue {
            return try withCallSite(CallSite(file: file, line: line), body)
        }
        defer { instrumentation.flush() }
        return try queue.sync {
            try withCallSite(CallSite(file: file, line: line), body)
        }
    }

    /// Runs `body` with `site` as the innermost call site.
    @inline(__always)
    func withCallSite<T, E: Error>(_ site: CallSite, _ body: () throws(E) -> T) throws(E) -> T {
        let outer = currentCallSite
        currentCallSite = site
        defer { currentCallSite = outer }
        return try body()
    }

    /// The line that read what fires now: for a typed property, its caller
    /// (``CallerLine``, from the stack); otherwise the current call site.
    var readSite: CallSite {
        guard inTypedAccess else { return currentCallSite }
        return CallerLine.find(outside: Self.engineModules, skippingOneAccessor: true, above: typedAccessMark, fallback: currentCallSite)
    }

    /// The engine's mangled module prefix: its frames are not the reader's.
    static let engineModules = ["$s11ObjectGraph"]

    /// Runs `body` for a typed property: what it fires is attributed to the
    /// line that read the property.
    @inline(__always)
    func typedAccess<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let outer = inTypedAccess
        // Where the engine was entered: the stack's frames are told apart
        // from here outward (``CallerLine/find(outside:skippingOneAccessor:above:fallback:)``).
        if !outer { typedAccessMark = CallerLine.stackMark() }
        inTypedAccess = true
        defer { inTypedAccess = outer }
        return try body()
    }

    /// Runs `body` as the engine's own `work`: what it loads is no read of
    /// the application's (``EngineWork``).
    @inline(__always)
    func asEngineWork<T, E: Error>(_ work: EngineWork, _ body: () throws(E) -> T) throws(E) -> T {
        let outer = engineWork
        engineWork = work
        defer { engineWork = outer }
        return try body()
    }

    /// Whether the caller runs on this context's queue.
    public var isOnQueue: Bool {
        DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(self)
    }

    // MARK: Identity map

    /// The object for an ID: the registered one, or a new fault. Runs no SQL;
    /// the first read of a fault for a row that does not exist throws
    /// ``ObjectGraphError/objectDeleted(_:)``.
    public func object(with id: ObjectID) -> ManagedObject {
        ConcurrencyGuard.check(self, "object(with: \(id))")
        if let object = registered[id]?.object { return object }
        return registerFault(id)
    }

    /// The object for an ID, with its values loaded; throws when the row
    /// does not exist. The query that loads it runs at `file`:`line`.
    public func existingObject(with id: ObjectID, file: String = #fileID, line: Int = #line) throws(ObjectGraphError) -> ManagedObject {
        ConcurrencyGuard.check(self, "existingObject(with: \(id))")
        let object = object(with: id)
        try withCallSite(CallSite(file: file, line: line)) { () throws(ObjectGraphError) in try fulfill(object) }
        return object
    }

    /// The object registered for an ID, if any; never creates one.
    public func registeredObject(for id: ObjectID) -> ManagedObject? {
        registered[id]?.object
    }

    /// Every object registered in the context.
    public var registeredObjects: [ManagedObject] {
        registered.values.compactMap(\.object).sorted { $0.objectID < $1.objectID }
    }

    /// Number of objects registered.
    public var registeredObjectCount: Int {
        registered.count
    }

    func registerFault(_ id: ObjectID) -> ManagedObject {
        let object = makeObject(id)
        rowCache.register(id)
        return object
    }

    /// A new fault for an ID, in the identity map; the caller registers the
    /// ID in the row cache.
    func makeObject(_ id: ObjectID) -> ManagedObject {
        let object = id.entity.objectType.init(objectID: id)
        object._context = self
        object.origin = registrationOrigin
        registered[id] = WeakObject(object: object)
        instrumentation.didRegister()
        return object
    }

    /// Called from an object's deinit: its entry goes (if it is still this
    /// object's; a reset or an unregistration may have replaced it).
    func objectWillDeallocate(_ object: ManagedObject) {
        let id = object.objectID
        guard registered.removeValue(forKey: id, if: { $0.refers(to: object) }) else { return }
        rowCache.unregister(id)
        instrumentation.didUnregister()
    }

    /// Forgets an object: it stays usable only for its ID.
    func unregister(_ object: ManagedObject, reason: String) {
        let id = object.objectID
        guard registered[id] != nil else { return }
        registered[id] = nil
        inserted[id] = nil
        updated[id] = nil
        deleted[id] = nil
        joinChanges.removeAll(involving: id)
        object._context = nil
        object.state = .invalidated
        object.invalidationReason = reason
        rowCache.unregister(id)
        instrumentation.didUnregister()
    }

    // MARK: Changes

    /// Whether the context has unsaved changes.
    public var hasChanges: Bool { !inserted.isEmpty || !updated.isEmpty || !deleted.isEmpty || !joinChanges.isEmpty }
    /// Objects inserted and not saved, ordered by ID.
    public var insertedObjects: [ManagedObject] { inserted.values.sorted { $0.objectID < $1.objectID } }
    /// Objects changed and not saved (not inserted ones), ordered by ID.
    public var updatedObjects: [ManagedObject] { updated.values.sorted { $0.objectID < $1.objectID } }
    /// Objects deleted and not saved, ordered by ID.
    public var deletedObjects: [ManagedObject] { deleted.values.sorted { $0.objectID < $1.objectID } }

    // MARK: Reset and refresh

    /// Forgets every object and every unsaved change. Objects obtained
    /// before can no longer be used: reading one is an error (and stops the
    /// program through a typed accessor).
    public func reset() {
        ConcurrencyGuard.check(self, "reset()")
        invalidateAll(reason: "its context \(name) was reset")
        instrumentation.contextChanged(name, kind: .reset)
    }

    func invalidateAll(reason: String) {
        reportUsage()
        let objects = registered.values.compactMap(\.object)
        let ids = Array(registered.keys)
        registered.removeAll()
        inserted = [:]
        updated = [:]
        deleted = [:]
        joinChanges = JoinChanges()
        for object in objects {
            object._context = nil
            object.state = .invalidated
            object.invalidationReason = reason
            object.values = []
            // Dropping relationship slots breaks reference cycles.
            object.slots.removeAll()
            object.changedKeys = []
        }
        for id in ids { rowCache.unregister(id) }
        instrumentation.didUnregister(ids.count)
    }

    /// Turns an object back into a fault, or reloads it.
    ///
    /// - `mergeChanges: false`: the object becomes a fault and its unsaved
    ///   changes are dropped; the next read fires the fault (a row cache hit
    ///   while the row is cached).
    /// - `mergeChanges: true`: the object is reloaded (from the row cache or
    ///   SQLite) and its unsaved changes are applied again on top.
    ///
    /// An inserted object is left as it is. Dropping a relationship change
    /// of one side does not revert the other side in memory (as in Core
    /// Data); refresh both, or use ``rollback()``.
    ///
    /// A fault loop refreshes unchanged objects: an object of this context
    /// that is not changed, inserted or deleted, has no relationship
    /// loaded and whose class has no fault hook, in a context with no
    /// pending change, no concurrency checks and no sink that asks for
    /// refreshes, turns into a fault in a frame that makes no call (what
    /// ``refreshInFull(_:mergeChanges:)`` would do, without its questions).
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        if !mergeChanges, refreshesInPlace, object.refreshesInPlace(in: self), updated.isEmpty, joinChanges.hasNoTables {
            return object.turnIntoPlainFault()
        }
        refreshInFull(object, mergeChanges: mergeChanges)
    }

    /// ``refresh(_:mergeChanges:)`` with all its bookkeeping. Out of line,
    /// so that the plain refresh's frame stays small (inlined, it made a
    /// fault loop's refresh 27 instructions longer; out of line it costs a
    /// refresh that takes it about 8).
    @inline(never)
    private func refreshInFull(_ object: ManagedObject, mergeChanges: Bool) {
        ConcurrencyGuard.check(self, "refresh(\(object.objectID))")
        guard object.belongs(to: self), !object.isInsertedFlag, !object.isDeletedFlag else { return }
        if mergeChanges || !updated.isEmpty || !joinChanges.hasNoTables {
            refreshWithBookkeeping(object, mergeChanges: mergeChanges)
        } else if case .loaded = object.state {
            turnIntoFault(object)
        }
        if refreshEventsPossible { instrumentation.refreshed(self) }
    }

    /// ``refresh(_:mergeChanges:)`` of a context with pending changes, or
    /// one that keeps the object's changes.
    @inline(never)
    private func refreshWithBookkeeping(_ object: ManagedObject, mergeChanges: Bool) {
        if mergeChanges {
            reloadKeepingChanges(object)
        } else {
            if !updated.isEmpty { updated[object.objectID] = nil }
            joinChanges.removeAll(involving: object.objectID)
            if case .loaded = object.state { turnIntoFault(object) }
        }
    }

    /// `refresh(object, mergeChanges: true)` of a registered object that is
    /// neither inserted nor deleted.
    private func reloadKeepingChanges(_ object: ManagedObject) {
        guard case .loaded = object.state else { return }
        let keys = object.changedKeys
        let values = object.values
        let slots = object.slots
        turnIntoFault(object)
        if (try? fulfill(object)) != nil {
            for key in keys {
                if let index = object.entity.attributeIndex[key] {
                    object.replaceValue(at: index, with: values[index])
                } else if let index = object.entity.relationshipIndex[key] {
                    object.slots[index] = slots[index]
                }
            }
            object.changedKeys = keys
        } else {
            updated[object.objectID] = nil
        }
    }

    /// Emits what became of this context's prefetches, and starts afresh.
    /// Reports what became of the context's prefetches and fetches so far.
    func reportUsage() {
        reportPrefetchUsage()
        reportFetchUsage()
    }

    func reportPrefetchUsage() {
        guard !prefetchUsage.isEmpty else { return }
        let usage = prefetchUsage
        prefetchUsage = [:]
        guard instrumentation.isOn(.context) else { return }
        for (relationship, counts) in usage.sorted(by: { $0.key < $1.key }) {
            instrumentation.contextChanged(name, kind: .prefetchUsage, prefetchUsage: PrefetchUsage(
                relationship: relationship, prefetched: counts.prefetched, read: counts.read, callSite: counts.site))
        }
    }

    @inline(__always)
    func turnIntoFault(_ object: ManagedObject) {
        // Asked of the entity, not the object: a class without hooks costs
        // one load here instead of two dynamic calls.
        let hooks = object.objectID.entity.callsFaultHooks
        if hooks { object.willTurnIntoFault() }
        // An unchanged object's values are the row cache's snapshot array,
        // shared: dropping them would free nothing while the row is cached,
        // and the next fault would take the same array back (a release and
        // a retain per refresh). They stay, unread until the fault loads
        // its values again (``ManagedObject/load(attributes:toOne:)``).
        // Changed values are the object's own copy: they go.
        if !object.changedKeys.isEmpty {
            object.values = []
            object.changedKeys = []
        } else if object.isInsertedFlag {
            object.values = []
        }
        object.slots.makeFaults()
        object.state = .fault
        if hooks { object.didTurnIntoFault() }
    }

    /// Drops every unsaved change: inserted objects are forgotten, deleted
    /// and updated ones turn back into faults.
    public func rollback() {
        ConcurrencyGuard.check(self, "rollback()")
        for object in insertedObjects {
            unregister(object, reason: "its insertion was rolled back")
        }
        let touched = updatedObjects + deletedObjects
        updated = [:]
        deleted = [:]
        joinChanges = JoinChanges()
        for object in touched {
            object.isDeletedFlag = false
            turnIntoFault(object)
        }
    }
}
