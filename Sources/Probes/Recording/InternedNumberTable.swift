/// Values by interned number (a statement shape's or text's,
/// ``SQLShape/intern(_:)``, dense from 0 in a process): the values in the
/// order first added, and where each number's is, in an array indexed by
/// the number itself below 65,536 (one read per lookup where a
/// dictionary hashed the number and probed) and in a dictionary for any
/// other number (a negative one given to a text without an interned one).
struct InternedNumberTable<Value> {
    /// The values, in the order first added.
    private(set) var values: [Value] = []
    /// Each dense number's position in ``values`` plus one; 0 for none.
    private var positions: [Int32] = []
    /// The positions of the other numbers.
    private var others: [InternedNumber: Int] = [:]
    private static var denseLimit: Int { 1 << 16 }

    /// Where the value of `number` is in ``values``; nil for none.
    @inline(__always)
    func position(of number: Int) -> Int? {
        guard number >= 0, number < Self.denseLimit else { return others[InternedNumber(number)] }
        guard number < positions.count else { return nil }
        let position = Int(positions[number])
        return position == 0 ? nil : position &- 1
    }

    /// Adds the value of a number that has none yet; returns its position.
    @discardableResult
    mutating func append(_ value: Value, for number: Int) -> Int {
        let position = values.count
        values.append(value)
        if number >= 0, number < Self.denseLimit {
            if number >= positions.count {
                positions.append(contentsOf: repeatElement(0, count: max(number + 1, positions.count * 2) - positions.count))
            }
            positions[number] = Int32(position + 1)
        } else {
            others[InternedNumber(number)] = position
        }
        return position
    }

    /// The value at a position ``position(of:)`` or ``append(_:for:)``
    /// gave, updated in place.
    subscript(position: Int) -> Value {
        get { values[position] }
        _modify { yield &values[position] }
    }
}

extension InternedNumberTable: Sendable where Value: Sendable {}
