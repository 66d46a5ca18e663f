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
struct ObjectTable<Value> {
    private struct Slot {
        var id: ObjectID?
        var value: Value?
    }

    private var slots: [Slot]
    private var mask: Int
    private(set) var count = 0

    init() {
        slots = Array(repeating: Slot(), count: 64)
        mask = 63
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    private func home(_ id: ObjectID) -> Int {
        let mixed = (UInt64(bitPattern: id.primaryKey) &+ UInt64(id.entity.index) &* 0x9E37_79B9_7F4A_7C15) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> 32) & mask
    }

    /// The slot holding `id`, or the empty slot where it would go.
    @inline(__always)
    private func position(of id: ObjectID) -> (index: Int, found: Bool) {
        var index = home(id)
        while let occupant = slots[index].id {
            if occupant.primaryKey == id.primaryKey, occupant.entity === id.entity { return (index, true) }
            index = (index + 1) & mask
        }
        return (index, false)
    }

    subscript(id: ObjectID) -> Value? {
        @inline(__always) get {
            let (index, found) = position(of: id)
            return found ? slots[index].value : nil
        }
        set {
            let (index, found) = position(of: id)
            switch (found, newValue) {
            case (true, let value?):
                slots[index].value = value
            case (false, let value?):
                slots[index] = Slot(id: id, value: value)
                count += 1
                if count * 2 > slots.count { grow() }
            case (true, nil):
                remove(at: index)
            case (false, nil):
                return
            }
        }
    }

    /// Changes the value for `id` in place (inserting `defaultValue` first
    /// when there is none), without copying it out and back.
    mutating func update<R>(_ id: ObjectID, default defaultValue: @autoclosure () -> Value, _ body: (inout Value) -> R) -> R {
        var (index, found) = position(of: id)
        if !found {
            slots[index] = Slot(id: id, value: defaultValue())
            count += 1
            if count * 2 > slots.count {
                grow()
                index = position(of: id).index
            }
        }
        return body(&slots[index].value!)
    }

    /// Changes the value for `id` in place if there is one.
    mutating func updateIfPresent<R>(_ id: ObjectID, _ body: (inout Value) -> R) -> R? {
        let (index, found) = position(of: id)
        return found ? body(&slots[index].value!) : nil
    }

    mutating func removeValue(forKey id: ObjectID) {
        let (index, found) = position(of: id)
        if found { remove(at: index) }
    }

    /// Empties the slot at `index` and moves back the entries of the same
    /// probe run that would otherwise no longer be found.
    private mutating func remove(at removed: Int) {
        var hole = removed
        slots[hole] = Slot()
        count -= 1
        var next = (hole + 1) & mask
        while let id = slots[next].id {
            let wanted = home(id)
            // Move it when its home is not in the (cyclic) range hole+1…next.
            let staysPut = hole <= next ? (wanted > hole && wanted <= next) : (wanted > hole || wanted <= next)
            if !staysPut {
                slots[hole] = slots[next]
                slots[next] = Slot()
                hole = next
            }
            next = (next + 1) & mask
        }
    }

    /// Doubles the table, moving the entries over (a copy of a value that
    /// holds a weak reference costs a side-table update, twice).
    private mutating func grow() {
        var old = Array(repeating: Slot(), count: slots.count * 2)
        swap(&old, &slots)
        mask = slots.count - 1
        for index in old.indices {
            guard let id = old[index].id, let value = old[index].value.take() else { continue }
            slots[position(of: id).index] = Slot(id: id, value: value)
        }
    }

    mutating func removeAll() {
        self = ObjectTable()
    }

    /// Every ID and value, in no particular order.
    var entries: [(id: ObjectID, value: Value)] {
        slots.compactMap { slot in slot.id.map { ($0, slot.value!) } }
    }

    var keys: [ObjectID] { slots.compactMap(\.id) }
    var values: [Value] { slots.compactMap(\.value) }
}
