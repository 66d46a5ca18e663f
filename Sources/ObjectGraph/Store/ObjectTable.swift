/// A hash table from object IDs to values: the identity map of a context
/// and the row cache's entries.
///
/// An object ID is an entity and a 64-bit key, so it hashes with one
/// multiplication (Fibonacci hashing of the key mixed with the entity's
/// position) instead of SipHash, which cost a third of a fault's lookup.
/// Open addressing with linear probing in a power-of-two table kept at most
/// half full; a removal shifts the entries after it back, so no tombstones
/// build up. The keys are the store's own primary keys, not input from an
/// adversary, which is what SipHash's seeding guards against.
///
/// Keys, IDs and values sit in three buffers of the same capacity. Probing
/// reads only the keys, plain integers, so it copies no reference. An
/// empty slot's ID and value are uninitialized memory: growing the table
/// allocates without writing an empty entry per slot, moves the entries
/// bit by bit, and frees the old buffers without destroying anything (with
/// arrays of optional entries, growing cost as much as filling the table).
///
/// A class, not a struct: its owner (a context, the row cache) keeps one
/// table for its lifetime and never copies it.
final class ObjectTable<Value> {
    /// A slot's key: the entity's position plus one (0 marks an empty
    /// slot) and the primary key.
    private struct Key: Equatable {
        var entity: Int
        var primaryKey: Int64

        static var empty: Key { Key(entity: 0, primaryKey: 0) }

        @inline(__always)
        init(entity: Int, primaryKey: Int64) {
            self.entity = entity
            self.primaryKey = primaryKey
        }

        @inline(__always)
        init(_ id: ObjectID) {
            self.init(entity: id.entity.index + 1, primaryKey: id.primaryKey)
        }

        var isEmpty: Bool { entity == 0 }
    }

    private static var initialCapacity: Int { 64 }

    // Used on one thread at a time (the owner's queue or lock): no dynamic
    // exclusivity checks.
    @exclusivity(unchecked) private var slotKeys: UnsafeMutablePointer<Key>
    /// Initialized where the key is not empty.
    @exclusivity(unchecked) private var ids: UnsafeMutablePointer<ObjectID>
    /// Initialized where the key is not empty.
    @exclusivity(unchecked) private var slots: UnsafeMutablePointer<Value>
    @exclusivity(unchecked) private var mask: Int
    @exclusivity(unchecked) private(set) var count = 0

    init() {
        (slotKeys, ids, slots) = Self.allocate(Self.initialCapacity)
        mask = Self.initialCapacity - 1
    }

    deinit {
        destroyEntries()
        Self.deallocate(slotKeys, ids, slots)
    }

    /// Buffers for `capacity` slots, every key empty.
    private static func allocate(_ capacity: Int) -> (UnsafeMutablePointer<Key>, UnsafeMutablePointer<ObjectID>, UnsafeMutablePointer<Value>) {
        let slotKeys = UnsafeMutablePointer<Key>.allocate(capacity: capacity)
        slotKeys.initialize(repeating: .empty, count: capacity)
        return (slotKeys, .allocate(capacity: capacity), .allocate(capacity: capacity))
    }

    private static func deallocate(_ slotKeys: UnsafeMutablePointer<Key>, _ ids: UnsafeMutablePointer<ObjectID>, _ slots: UnsafeMutablePointer<Value>) {
        slotKeys.deallocate()
        ids.deallocate()
        slots.deallocate()
    }

    private var capacity: Int { mask + 1 }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    private static func home(_ key: Key, mask: Int) -> Int {
        let mixed = (UInt64(bitPattern: key.primaryKey) &+ UInt64(key.entity &- 1) &* 0x9E37_79B9_7F4A_7C15) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> 32) & mask
    }

    /// The slot holding `id`, or the empty slot where it would go.
    @inline(__always)
    private func position(of id: ObjectID) -> (index: Int, found: Bool) {
        let key = Key(id)
        let mask = mask
        var index = Self.home(key, mask: mask)
        while true {
            let occupant = slotKeys[index]
            if occupant == key { return (index, true) }
            if occupant.isEmpty { return (index, false) }
            index = (index + 1) & mask
        }
    }

    subscript(id: ObjectID) -> Value? {
        @inline(__always) get {
            let (index, found) = position(of: id)
            return found ? slots[index] : nil
        }
        set {
            let (index, found) = position(of: id)
            switch (found, newValue) {
            case (true, let value?):
                slots[index] = value
            case (false, let value?):
                insert(id, value, at: index)
            case (true, nil):
                remove(at: index)
            case (false, nil):
                return
            }
        }
    }

    /// Changes the value for `id` in place (inserting `defaultValue` first
    /// when there is none), without copying it out and back.
    func update<R>(_ id: ObjectID, default defaultValue: @autoclosure () -> Value, _ body: (inout Value) -> R) -> R {
        var (index, found) = position(of: id)
        if !found, insert(id, defaultValue(), at: index) { index = position(of: id).index }
        return body(&slots[index])
    }

    /// Changes the value for `id` in place if there is one.
    func updateIfPresent<R>(_ id: ObjectID, _ body: (inout Value) -> R) -> R? {
        let (index, found) = position(of: id)
        return found ? body(&slots[index]) : nil
    }

    func removeValue(forKey id: ObjectID) {
        let (index, found) = position(of: id)
        if found { remove(at: index) }
    }

    /// Removes the value for `id` if it satisfies `condition`, with one
    /// lookup; returns whether it did.
    func removeValue(forKey id: ObjectID, if condition: (Value) -> Bool) -> Bool {
        let (index, found) = position(of: id)
        guard found, condition(slots[index]) else { return false }
        remove(at: index)
        return true
    }

    /// Fills the empty slot at `index`; returns whether the table grew (and
    /// so moved the entry).
    @discardableResult
    private func insert(_ id: ObjectID, _ value: consuming Value, at index: Int) -> Bool {
        slotKeys[index] = Key(id)
        (ids + index).initialize(to: id)
        (slots + index).initialize(to: value)
        count += 1
        guard count * 2 > capacity else { return false }
        grow()
        return true
    }

    /// Empties the slot at `index` and moves back the entries of the same
    /// probe run that would otherwise no longer be found.
    private func remove(at removed: Int) {
        var hole = removed
        slotKeys[hole] = .empty
        (ids + hole).deinitialize(count: 1)
        (slots + hole).deinitialize(count: 1)
        count -= 1
        let mask = mask
        var next = (hole + 1) & mask
        while !slotKeys[next].isEmpty {
            let wanted = Self.home(slotKeys[next], mask: mask)
            // Move it when its home is not in the (cyclic) range hole+1…next.
            let staysPut = hole <= next ? (wanted > hole && wanted <= next) : (wanted > hole || wanted <= next)
            if !staysPut {
                slotKeys[hole] = slotKeys[next]
                slotKeys[next] = .empty
                (ids + hole).moveInitialize(from: ids + next, count: 1)
                (slots + hole).moveInitialize(from: slots + next, count: 1)
                hole = next
            }
            next = (next + 1) & mask
        }
    }

    /// Doubles the table, moving the entries over.
    private func grow() {
        let (oldKeys, oldIDs, oldSlots, oldCapacity) = (slotKeys, ids, slots, capacity)
        (slotKeys, ids, slots) = Self.allocate(oldCapacity * 2)
        mask = oldCapacity * 2 - 1
        let mask = mask
        for index in 0..<oldCapacity where !oldKeys[index].isEmpty {
            var target = Self.home(oldKeys[index], mask: mask)
            while !slotKeys[target].isEmpty { target = (target + 1) & mask }
            slotKeys[target] = oldKeys[index]
            (ids + target).moveInitialize(from: oldIDs + index, count: 1)
            (slots + target).moveInitialize(from: oldSlots + index, count: 1)
        }
        Self.deallocate(oldKeys, oldIDs, oldSlots)
    }

    private func destroyEntries() {
        for index in 0..<capacity where !slotKeys[index].isEmpty {
            (ids + index).deinitialize(count: 1)
            (slots + index).deinitialize(count: 1)
        }
    }

    /// Empties the table and gives back its memory.
    func removeAll() {
        destroyEntries()
        Self.deallocate(slotKeys, ids, slots)
        (slotKeys, ids, slots) = Self.allocate(Self.initialCapacity)
        mask = Self.initialCapacity - 1
        count = 0
    }

    private var occupied: [Int] { (0..<capacity).filter { !slotKeys[$0].isEmpty } }

    /// Every ID and value, in no particular order.
    var entries: [(id: ObjectID, value: Value)] { occupied.map { (ids[$0], slots[$0]) } }

    var keys: [ObjectID] { occupied.map { ids[$0] } }
    var values: [Value] { occupied.map { slots[$0] } }
}
