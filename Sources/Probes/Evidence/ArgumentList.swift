/// A statement's list of bound values as a dictionary key, hashed once
/// when made: ``InsightEvidence``'s repetition table looks a list up per
/// execution, and SipHash over an array of strings (what `[String]`'s
/// `Hashable` does) cost hundreds of instructions per lookup, twice for a
/// new list (the lookup, then the insertion).
///
/// Equal lists are those `[String]` calls equal: values compared as
/// Swift compares strings, by canonical equivalence (a Kelvin sign is a
/// K). The hash agrees with that: a value of ASCII bytes other than `K`,
/// `;` and `` ` `` has no other spelling, and is hashed by its bytes,
/// eight at a time, each word folded in by a 64 × 64 → 128-bit multiply
/// (as wyhash does) from a seed drawn once per process; any other value
/// (non-ASCII, or one of the three ASCII characters that a non-ASCII one
/// is canonically equal to: U+212A KELVIN SIGN, U+037E GREEK QUESTION
/// MARK, U+1FEF GREEK VARIA) is folded in by Swift's own string hash,
/// which equal strings share.
public struct ArgumentList: Hashable, Sendable {
    /// The values, in parameter order.
    public let values: [String]
    /// ``hash(of:)`` of the values.
    public let hash: UInt64

    /// The list of `values`, hashed now.
    public init(_ values: [String]) {
        self.values = values
        hash = Self.hash(of: values)
    }

    /// Whether the values are equal as strings, in order (the hashes are
    /// compared first).
    public static func == (a: ArgumentList, b: ArgumentList) -> Bool {
        a.hash == b.hash && a.values == b.values
    }

    /// Feeds the hash computed when the list was made.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }

    /// The hash `Set` and `Dictionary` use, without SipHash: the list's hash
    /// mixed with the table's seed (``KeyHash``).
    public func _rawHashValue(seed: Int) -> Int {
        KeyHash.mix(hash, seed: seed)
    }

    /// Drawn once per process.
    private static let seed = UInt64.random(in: .min ... .max)
    private static let multiplier: UInt64 = 0xA076_1D64_78BD_642F
    private static let lengthMultiplier: UInt64 = 0xE703_7ED1_A0B4_28DB
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The hash of a list of values: the same for equal lists in one
    /// process. A value's length is folded in with its bytes, so that
    /// `["ab", "c"]` and `["a", "bc"]` differ before the bytes do.
    public static func hash(of values: [String]) -> UInt64 {
        var state = seed ^ (UInt64(truncatingIfNeeded: values.count) &* lengthMultiplier)
        for value in values {
            let folded = value.utf8.withContiguousStorageIfAvailable { fold(state, UnsafeRawBufferPointer($0)) }
                ?? Array(value.utf8).withUnsafeBytes { fold(state, $0) }
            // A value that another spelling equals: Swift's hash of it.
            state = folded ?? mum(state ^ UInt64(bitPattern: Int64(value.hashValue)), lengthMultiplier ^ 1)
        }
        return mum(state, multiplier)
    }

    /// Folds the bytes of one value into `state`; nil when a value equal
    /// to it could have other bytes.
    @inline(__always)
    private static func fold(_ state: UInt64, _ bytes: UnsafeRawBufferPointer) -> UInt64? {
        let count = bytes.count
        var state = mum(state ^ UInt64(truncatingIfNeeded: count), lengthMultiplier)
        var offset = 0
        while offset + 8 <= count {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            guard isPlain(word) else { return nil }
            state = mum(state ^ word, multiplier)
            offset += 8
        }
        if offset < count {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while offset < count {
                tail |= UInt64(bytes[offset]) << shift
                shift += 8
                offset += 1
            }
            // Zero bytes above the tail: neither high nor any of the three.
            guard isPlain(tail) else { return nil }
            state = mum(state ^ tail, multiplier ^ shift)
        }
        return state
    }

    /// Whether eight bytes are ASCII and none is `K`, `;` or `` ` ``.
    @inline(__always)
    private static func isPlain(_ word: UInt64) -> Bool {
        word & highs == 0 && !has(word, 0x4B) && !has(word, 0x3B) && !has(word, 0x60)
    }

    /// Whether some byte of `word` (all below 0x80) is `byte`.
    @inline(__always)
    private static func has(_ word: UInt64, _ byte: UInt64) -> Bool {
        let x = word ^ (ones &* byte)
        return (x &- ones) & ~x & highs != 0
    }

    /// The two halves of the 128-bit product, xored.
    @inline(__always)
    private static func mum(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }
}
