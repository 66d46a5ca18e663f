/// The hash of keys that are the program's own numbers (primary keys,
/// interned statement numbers) for `Set` and `Dictionary`: the key mixed
/// with the table's seed by splitmix64's finalizer, about ten instructions
/// where SipHash costs about a hundred. Not for input an adversary chooses,
/// which is what SipHash's seeding guards against.
public enum KeyHash {
    /// `key` added to `seed` and mixed by splitmix64's finalizer: equal keys
    /// give equal hashes for one seed.
    @inlinable
    public static func mix(_ key: UInt64, seed: Int) -> Int {
        var x = key &+ UInt64(bitPattern: Int64(seed))
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: x ^ (x >> 31))
    }
}
