/// An object of the graph: one row of its entity's table, registered in one
/// ``ObjectContext``.
///
/// Subclass it to give an entity typed properties; reading any of them
/// fires the object's fault:
///
/// ```swift
/// final class Selfie: ManagedObject {
///     var name: String {
///         get { self[attribute: "name"] }
///         set { self[attribute: "name"] = newValue }
///     }
///     var people: [Person] { self[toMany: "people"] }
///     var owner: Person? {
///         get { self[toOne: "owner"] }
///         set { self[toOne: "owner"] = newValue }
///     }
/// }
/// ```
///
/// Typed accessors cannot throw, so a failure there (an unknown key, an
/// object whose context was reset, a row deleted by another context) stops
/// the program with a message naming the object, the key and the cause.
/// The throwing key-value methods (``value(forKey:)``,
/// ``setValue(_:forKey:)``, …) report the same failures as errors.
///
/// Objects are not `Sendable`: use one only inside its context's
/// ``ObjectContext/perform(_:)``, and send its ``objectID`` elsewhere.
open class ManagedObject {
    /// The object's identity; reading it never fires the fault.
    public final let objectID: ObjectID

    /// The context the object is registered in; nil once the context was
    /// reset or released, or the object's deletion was saved.
    public final var context: ObjectContext? { _context }

    /// Not a weak reference: a weak reference gives the context a side
    /// table, and every retain and release of it (one per property read)
    /// then takes the slow path. The context sets this when it registers
    /// the object and clears it whenever it forgets the object (unregister,
    /// reset, its own deinit), so it never outlives the context; contexts
    /// and objects stay on one queue.
    @usableFromInline @exclusivity(unchecked) final var contextReference: Unmanaged<ObjectContext>?

    /// The context, retained for the caller's use.
    final var _context: ObjectContext? {
        get { contextReference?.takeUnretainedValue() }
        set { contextReference = newValue.map { .passUnretained($0) } }
    }

    /// Whether the object belongs to `context`, without retaining anything.
    @inline(__always)
    final func belongs(to context: ObjectContext) -> Bool {
        contextReference?.toOpaque() == Unmanaged.passUnretained(context).toOpaque()
    }
    /// Whether the attribute values are loaded; see ``state``.
    @usableFromInline @exclusivity(unchecked) final var storedState: State = .fault
    /// Whether the attribute values are loaded. Leaving `.loaded` also
    /// withdraws the typed fields' read in place (``TypedFields/readable``):
    /// the next typed read fires the fault.
    @usableFromInline final var state: State {
        @inline(__always) get { storedState }
        @inline(__always) set {
            storedState = newValue
            if newValue != .loaded { typedFields.withdrawReadable() }
        }
    }
    /// Why the object can no longer be used, once `state == .invalidated`.
    @exclusivity(unchecked) final var invalidationReason = ""
    /// Attribute values, the engine's canonical storage (shared with the
    /// row cache's snapshot while unchanged); meaningful when
    /// `state == .loaded` (a refreshed unchanged fault keeps its last ones,
    /// unread, to take them back without a retain).
    @usableFromInline @exclusivity(unchecked) final var storedValues: [Value] = []
    /// The attribute values. Every change through here (a load of other
    /// values, a set, a merge, a rollback, an invalidation) invalidates
    /// every typed field cached from them and the object's claim on the
    /// row cache's snapshot (``rowCacheGeneration``): one store each.
    final var values: [Value] {
        @inline(__always) get { storedValues }
        @inline(__always) set {
            storedValues = newValue
            valuesDidChange()
        }
        @inline(__always) _modify {
            valuesDidChange()
            yield &storedValues
        }
    }
    /// Which typed fields of the subclass hold the current value of their
    /// attribute, and whether they may be read in place (see
    /// ``TypedFields``). A typed property tests it and reads its field.
    @usableFromInline @exclusivity(unchecked) final var typedFields = TypedFields()
    /// The row cache's generation when the object loaded the snapshot its
    /// ``values`` still are (0: none): while the cache's generation has not
    /// moved, a refault takes them back without the cache's lock
    /// (``RowCache/fill(_:staleness:)``).
    @usableFromInline @exclusivity(unchecked) final var rowCacheGeneration: UInt64 = 0
    /// One slot per relationship of the entity.
    @exclusivity(unchecked) final var slots: RelationshipSlots
    /// Keys changed since the last save (attribute and relationship names).
    @exclusivity(unchecked) final var changedKeys: Set<String> = []
    /// Relationships (by index, the first 64) loaded by a prefetch and not
    /// read since: for the unused-prefetch insight.
    @exclusivity(unchecked) final var unreadPrefetches: UInt64 = 0
    /// The fetch the object came from and the key path that led to it,
    /// for its faults' events.
    @exclusivity(unchecked) final var origin = ObjectOrigin.none
    /// The run of a fetch that returned the object last, while the
    /// application has not used the object since: its number in its
    /// context's fetch runs (``ObjectContext/noteUse(ofFetchRun:)``), for
    /// the fetch-usage insights. 0 once used, and when no sink asks. A read
    /// in place (a typed property of a loaded object) tests it; the first
    /// use clears it.
    @usableFromInline final var unusedFetchRun: UInt32 {
        @inline(__always) get { storedUnusedFetchRun }
        @inline(__always) set {
            storedUnusedFetchRun = newValue
            // A typed read must note the first use: out of line.
            if newValue != 0 { typedFields.withdrawReadable() }
        }
    }
    @usableFromInline @exclusivity(unchecked) final var storedUnusedFetchRun: UInt32 = 0
    @exclusivity(unchecked) final var isInsertedFlag = false
    @exclusivity(unchecked) final var isDeletedFlag = false

    /// Creates the object for an ID. Only contexts create objects: use
    /// ``ObjectContext/insert(_:)`` or a fetch.
    public required init(objectID: ObjectID) {
        self.objectID = objectID
        self.slots = RelationshipSlots(count: objectID.entity.relationships.count)
    }

    deinit {
        contextReference?._withUnsafeGuaranteedRef { $0.objectWillDeallocate(self) }
    }

    /// The object's entity; reading it never fires the fault.
    public final var entity: EntityDescription { objectID.entity }

    /// Whether the attribute values are not loaded. Reading it never fires
    /// the fault.
    public final var isFault: Bool {
        if case .loaded = state { return false }
        return true
    }

    /// Inserted in its context and not saved yet.
    public final var isInserted: Bool { isInsertedFlag }
    /// Deleted in its context and not saved yet.
    public final var isDeleted: Bool { isDeletedFlag }
    /// Changed in its context and not saved yet (inserted, updated or deleted).
    public final var hasChanges: Bool { isInsertedFlag || isDeletedFlag || !changedKeys.isEmpty }
    /// Whether the object can still be used (not after its context was reset).
    public final var isValid: Bool {
        if case .invalidated = state { return false }
        return _context != nil
    }

    /// Takes a snapshot's values: the attributes (sharing the snapshot's
    /// array), the to-one destinations' IDs; to-many slots already loaded
    /// stay as they are. Inlined into the row cache's lookup, so that a hit
    /// copies no snapshot: one retain of the values, one release of the old.
    @inline(__always)
    final func load(_ snapshot: borrowing RowSnapshot) {
        load(attributes: snapshot.attributes, toOne: snapshot.toOne)
    }

    /// ``load(_:)`` from a snapshot's parts (the row cache keeps them apart).
    @inline(__always)
    final func load(attributes: [Value], toOne: [ObjectID?]) {
        // A refreshed unchanged object still holds this very array (see
        // ``ObjectContext/turnIntoFault(_:)``): no retain, no release, and
        // its typed fields stay valid.
        if !storedValues.sharesStorage(with: attributes) { values = attributes }
        // Empty for an entity without to-one relationships: no loop, no
        // retain of the entity's index list.
        if !toOne.isEmpty { loadToOne(toOne) }
        state = .loaded
    }

    /// Whether ``ObjectContext/refresh(_:mergeChanges:)`` may turn the
    /// object into a fault by ``turnIntoPlainFault()``: it belongs to
    /// `context`, is not inserted, deleted or changed, has no relationship
    /// slot allocated and its class has no fault hook.
    @inline(__always)
    final func refreshesInPlace(in context: ObjectContext) -> Bool {
        belongs(to: context) && !isInsertedFlag && !isDeletedFlag && changedKeys.isEmpty && slots.isUnallocated
            && !objectID.entity.callsFaultHooks
    }

    /// Turns an object that ``refreshesInPlace(in:)`` into a fault: what
    /// ``ObjectContext/turnIntoFault(_:)`` does for it (its values, the
    /// snapshot's, stay; so do its typed fields).
    @inline(__always)
    final func turnIntoPlainFault() {
        state = .fault
    }

    /// Invalidates what was derived from the values: the typed fields
    /// (the read in place stays as it was) and the row-cache claim.
    @inline(__always)
    final func valuesDidChange() {
        typedFields.invalidateFields()
        rowCacheGeneration = 0
    }

    /// Sets one attribute's value: invalidates only that attribute's typed
    /// field (and the row-cache claim).
    @inline(__always)
    final func replaceValue(at index: Int, with value: Value) {
        storedValues[index] = value
        typedFields.invalidateField(index)
        rowCacheGeneration = 0
    }

    @inline(never)
    private final func loadToOne(_ toOne: [ObjectID?]) {
        for index in entity.toOneIndexes {
            slots[index] = .toOne(toOne[index], nil)
        }
    }

    /// Whether objects of the class call ``willTurnIntoFault()`` and
    /// ``didTurnIntoFault()`` when they turn into faults. True by default.
    /// A `final` class that overrides neither may answer false: the engine
    /// then skips the two dynamic calls per refresh (about 16 instructions
    /// of a refault's 250) and may refresh its objects in place. The
    /// entity asks once, when the model is made, so the answer is the
    /// class's, not a subclass's: a class that answers false and has a
    /// subclass overriding a hook would have that hook skipped, which is
    /// why only a class no subclass can extend with a hook should: a
    /// `final` class, or one that is not `open` and whose subclasses in
    /// its module override neither. The final classes `perf-run model
    /// import --swift` generates answer false.
    open class var hasFaultHooks: Bool { true }

    /// Called before the object turns back into a fault (refresh, rollback,
    /// a merge); its values are still readable.
    open func willTurnIntoFault() {}
    /// Called after the object turned into a fault.
    open func didTurnIntoFault() {}
    /// Called once when the object is inserted, after its defaults are set.
    open func awakeFromInsert() {}

    /// A plain enum, so that checking it copies and destroys nothing (the
    /// reason for `invalidated` is kept beside it).
    @usableFromInline
    enum State {
        case fault
        case loaded
        /// See ``invalidationReason``.
        case invalidated
    }
}

/// The in-memory state of an object's relationships, one slot per
/// relationship of its entity.
///
/// The slots are allocated when the first one is set: most fetched objects
/// never touch a relationship, and an array per object (its allocation, the
/// runtime's lookup of its storage type, and its release) cost about a
/// tenth of a fetched object.
struct RelationshipSlots {
    /// Empty while every slot is a fault; `count` slots once one was set.
    private var storage: [RelationshipSlot] = []
    /// The number of slots (the entity's relationships).
    let count: Int

    init(count: Int) {
        self.count = count
    }

    init(_ slots: [RelationshipSlot]) {
        self.storage = slots
        self.count = slots.count
    }

    var indices: Range<Int> { 0..<count }

    /// Whether no slot was ever set (every slot is a fault).
    var isUnallocated: Bool { storage.isEmpty }

    subscript(index: Int) -> RelationshipSlot {
        @inline(__always) get {
            guard !storage.isEmpty else {
                precondition(UInt(bitPattern: index) < UInt(count), "relationship slot out of range")
                return .fault
            }
            return storage[index]
        }
        set {
            if storage.isEmpty {
                precondition(UInt(bitPattern: index) < UInt(count), "relationship slot out of range")
                if case .fault = newValue { return }
                storage = Array(filledWith: .fault, count: count)
            }
            storage[index] = newValue
        }
    }

    /// Turns every slot into a fault, keeping the storage for the next
    /// fulfilment (a fault loop would otherwise allocate it again each time).
    @inline(__always)
    mutating func makeFaults() {
        guard !storage.isEmpty else { return }
        for index in storage.indices {
            if case .fault = storage[index] { continue }
            storage[index] = .fault
        }
    }

    /// Drops every slot (and so the references it held).
    mutating func removeAll() {
        storage = []
    }
}

/// The in-memory state of one relationship of one object.
enum RelationshipSlot {
    /// Not loaded: reading it fires a relationship fault (to-many) or needs
    /// the object's row (to-one).
    case fault
    /// A to-one: the destination's ID, and the object once it was asked for
    /// (held strongly, as Core Data holds its relationship objects).
    case toOne(ObjectID?, ManagedObject?)
    /// A to-many: the destinations, ordered by primary key.
    case toMany([ManagedObject])
}

extension ManagedObject: CustomStringConvertible {
    /// `<Selfie/p42 fault>`; never fires the fault.
    public var description: String {
        let state = switch state {
        case .fault: "fault"
        case .loaded: hasChanges ? "changed" : "loaded"
        case .invalidated: "invalidated"
        }
        return "<\(objectID) \(state)>"
    }
}
