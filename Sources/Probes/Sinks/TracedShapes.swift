/// The statement shapes the LTTng sink has traced (a `faultline:sql_shape`
/// event each), by number (``SQLShape/intern(_:)``, dense from 0 in a
/// process): a bit for each number below 65,536, a set for any other
/// number another producer gives. Not thread-safe: the sink guards it with
/// its lock, so that a shape is traced once however many threads run it.
struct TracedShapes {
    private static let bitLimit = 1 << 16
    private var bits: [UInt64] = []
    private var others: Set<Int> = []

    /// Whether `shape` was inserted.
    @inline(__always)
    func contains(_ shape: Int) -> Bool {
        guard shape >= 0, shape < Self.bitLimit else { return others.contains(shape) }
        let word = shape &>> 6
        return word < bits.count && bits[word] & (1 &<< UInt64(shape & 63)) != 0
    }

    mutating func insert(_ shape: Int) {
        guard shape >= 0, shape < Self.bitLimit else {
            others.insert(shape)
            return
        }
        let word = shape &>> 6
        if word >= bits.count { bits.append(contentsOf: repeatElement(0, count: word + 1 - bits.count)) }
        bits[word] |= 1 &<< UInt64(shape & 63)
    }
}
