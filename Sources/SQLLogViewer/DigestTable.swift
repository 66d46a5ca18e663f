/// Places of entries by a 64-bit digest of their text, for the analyzer's
/// bounded tables of texts read before (SQLLogAnalyzer+KnownStatements.swift,
/// LogTextTable.swift, plan rows): open addressing over a power of two of
/// slots, the digest itself the hash (no hashing of a hash), at most half
/// the slots used. An entry is found by its digest; the caller compares
/// the text.
struct DigestTable {
    private var slots: [Int32]
    private var digests: [UInt64] = []
    private var places: [Int] = []
    private let mask: Int

    /// A table for at most `capacity` entries.
    init(capacity: Int) {
        var size = 16
        while size < 2 * capacity { size *= 2 }
        slots = Array(repeating: -1, count: size)
        mask = size - 1
    }

    var count: Int { digests.count }

    /// The place of the first entry added with `digest`.
    func find(_ digest: UInt64) -> Int? {
        var slot = Int(truncatingIfNeeded: digest ^ (digest >> 32)) & mask
        while true {
            let entry = Int(slots[slot])
            if entry < 0 { return nil }
            if digests[entry] == digest { return places[entry] }
            slot = (slot + 1) & mask
        }
    }

    /// Adds an entry with `digest` at `place`; the caller keeps at most
    /// the capacity.
    mutating func add(_ digest: UInt64, place: Int) {
        var slot = Int(truncatingIfNeeded: digest ^ (digest >> 32)) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(digests.count)
        digests.append(digest)
        places.append(place)
    }
}
