/// An object's marker for its typed fields: which of the stored properties
/// a subclass keeps its attributes in (``AttributeField``) hold the
/// current value, and whether they may be read in place at all.
///
/// The engine's canonical storage stays the object's values array (shared
/// with the row cache's snapshot, read by key-value access, predicates,
/// saves, merges and history); a typed field is a cache of one element of
/// it, decoded once. Keeping the array canonical keeps every engine path
/// as it was: each path that changes the values invalidates the fields
/// with one store (``ManagedObject/values``), and a typed read is one test
/// of this word and a field read (``ManagedObject/attribute(_:at:in:)``).
///
/// - Bits 0 to 62: the field of the attribute at that index of the
///   entity's attributes (inherited ones first, so an attribute has one
///   index in every subentity) holds its value. Attributes at index 63 and
///   above have no field: their reads always decode.
/// - Bit 63, ``readable``: the object is loaded, its context is alive and
///   does not check concurrency, and no fetch waits for its first use.
///   Only the out-of-line read sets it, after checking all of that; the
///   engine withdraws it whenever one of them stops holding (the object
///   turns into a fault or is invalidated, a fetch returns it again). A
///   refresh withdraws only this bit: the fields of an unchanged object
///   stay valid, so the read after a refault fires the fault and takes
///   the field without decoding it again.
public struct TypedFields: Sendable, Equatable {
    @usableFromInline var bits: UInt64 = 0

    @inlinable init() {}

    /// Objects may be read in place.
    @usableFromInline static let readable: UInt64 = 1 << 63

    /// Whether the field at `index` holds its value and may be read in
    /// place: one test of the word (the index is a constant in a
    /// property, so the rest folds away).
    @inlinable @inline(__always)
    func canRead(_ index: Int) -> Bool {
        let mask = Self.readable | Self.bit(index)
        return Self.hasField(index) && bits & mask == mask
    }

    /// The bit of the field at `index` (0 for an index without one).
    @inlinable @inline(__always)
    static func bit(_ index: Int) -> UInt64 {
        hasField(index) ? 1 << UInt64(index) : 0
    }

    /// Whether an attribute at `index` has a field (a class's property
    /// for a later one reads through its key: `perf-run model import
    /// --swift` asks this).
    @inlinable @inline(__always)
    public static func hasField(_ index: Int) -> Bool {
        UInt(bitPattern: index) < 63
    }

    /// Whether the object may be read in place.
    @inlinable @inline(__always) var isReadable: Bool { bits & Self.readable != 0 }

    /// Whether the field at `index` holds its value (readable or not).
    @inlinable @inline(__always) func holds(_ index: Int) -> Bool {
        Self.hasField(index) && bits & Self.bit(index) != 0
    }

    /// Notes that the object may be read in place.
    @inlinable @inline(__always) mutating func grantReadable() { bits |= Self.readable }

    /// The object may no longer be read in place; the fields stay valid.
    @inline(__always) mutating func withdrawReadable() { bits &= ~Self.readable }

    /// The field at `index` holds its value.
    @inlinable @inline(__always) mutating func fill(_ index: Int) { bits |= Self.bit(index) }

    /// No field holds its value any more.
    @inline(__always) mutating func invalidateFields() { bits &= Self.readable }

    /// The field at `index` no longer holds its value.
    @inline(__always) mutating func invalidateField(_ index: Int) { bits &= ~Self.bit(index) }
}
