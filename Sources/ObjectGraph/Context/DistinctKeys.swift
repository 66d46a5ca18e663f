/// The distinct keys of a list, in ascending order: what a prefetch needs
/// from the destination keys of its join rows (one per pair, repeated for
/// every source that shares a destination).
///
/// Dense keys (as SQLite's rowids usually are, the same rule as
/// ``KeyTable``) go through a bitmap over their range: a pass to set the
/// bits and a pass over the words, where sorting the list compared each
/// key about log n times (a sixth of a prefetched name read). Sparse keys
/// are sorted.
enum DistinctKeys {
    static func sorted(_ keys: [Int64]) -> [Int64] {
        guard let low = keys.min(), let high = keys.max() else { return [] }
        let (range, overflow) = high.subtractingReportingOverflow(low)
        guard !overflow, range < Int64(keys.count) * 4 + 1_024 else {
            var sorted = keys.sorted()
            sorted.removeConsecutiveDuplicates()
            return sorted
        }
        var bits = [UInt64](repeating: 0, count: Int(range) / 64 + 1)
        var distinct = 0
        bits.withUnsafeMutableBufferPointer { words in
            for key in keys {
                let offset = Int(key &- low)
                let mask: UInt64 = 1 << UInt64(offset & 63)
                if words[offset >> 6] & mask == 0 {
                    words[offset >> 6] |= mask
                    distinct += 1
                }
            }
        }
        var result: [Int64] = []
        result.reserveCapacity(distinct)
        for (index, word) in bits.enumerated() where word != 0 {
            var remaining = word
            while remaining != 0 {
                let bit = remaining.trailingZeroBitCount
                result.append(low &+ Int64(index * 64 + bit))
                remaining &= remaining &- 1
            }
        }
        return result
    }
}
