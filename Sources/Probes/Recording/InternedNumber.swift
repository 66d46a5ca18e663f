/// A statement shape's or text's interned number (``SQLShape/intern(_:)``)
/// as a dictionary key, hashed by ``KeyHash``: the recorder looks two up
/// per statement.
struct InternedNumber: Hashable {
    let value: Int

    init(_ value: Int) {
        self.value = value
    }

    func _rawHashValue(seed: Int) -> Int {
        KeyHash.mix(UInt64(bitPattern: Int64(value)), seed: seed)
    }
}
