/// Values by primary key, for the many lookups of one prefetch: an array
/// indexed by key when the keys are dense (as SQLite's rowids usually
/// are), a dictionary otherwise. A lookup in the array costs a subtraction
/// and a bounds check where a dictionary hashes the key.
struct KeyTable<Value> {
    private var dense: [Value?] = []
    private var lowest: Int64 = 0
    private var sparse: [Int64: Value] = [:]
    private let isDense: Bool

    /// A table for the keys in `keys` (any order, repeats allowed).
    init(keys: some Collection<Int64>) {
        guard let low = keys.min(), let high = keys.max() else {
            isDense = false
            return
        }
        // Dense when the range is at most four times the keys, plus slack.
        let (range, overflow) = high.subtractingReportingOverflow(low)
        isDense = !overflow && range < Int64(keys.count) * 4 + 1_024
        if isDense {
            lowest = low
            dense = Array(repeating: nil, count: Int(range) + 1)
        } else {
            sparse.reserveCapacity(keys.count)
        }
    }

    subscript(key: Int64) -> Value? {
        get {
            guard isDense else { return sparse[key] }
            let index = key &- lowest
            return index >= 0 && index < Int64(dense.count) ? dense[Int(index)] : nil
        }
        set {
            guard isDense else {
                sparse[key] = newValue
                return
            }
            let index = key &- lowest
            precondition(index >= 0 && index < Int64(dense.count), "key \(key) outside the table's range")
            dense[Int(index)] = newValue
        }
    }
}

extension Array where Element: Equatable {
    /// Removes each element equal to the one before it (on a sorted array:
    /// every repeat), in place.
    mutating func removeConsecutiveDuplicates() {
        guard count > 1 else { return }
        var kept = 1
        for index in 1..<count where self[index] != self[kept - 1] {
            self[kept] = self[index]
            kept += 1
        }
        removeLast(count - kept)
    }
}
