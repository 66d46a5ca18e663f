import Testing
@testable import ObjectGraph

/// The prefetch's lookup table, dense and sparse.
@Suite struct KeyTableTests {
    @Test func denseAndSparseKeysGiveTheSameAnswers() {
        for keys in [[5, 3, 9, 4] as [Int64], [1, 1_000_000_000, Int64.max, Int64.min]] {
            var table = KeyTable<String>(keys: keys)
            for key in keys { table[key] = "v\(key)" }
            for key in keys { #expect(table[key] == "v\(key)") }
            #expect(table[6] == nil)
            #expect(table[-7] == nil)
        }
        let empty = KeyTable<Int>(keys: [Int64]())
        #expect(empty[1] == nil)
    }

    @Test func repeatsOfASortedArrayGoInPlace() {
        var keys: [Int64] = [1, 1, 2, 3, 3, 3, 7]
        keys.removeConsecutiveDuplicates()
        #expect(keys == [1, 2, 3, 7])
        var one: [Int64] = [4]
        one.removeConsecutiveDuplicates()
        #expect(one == [4])
    }

    /// The bitmap (dense keys) and the sort (sparse keys) give what a set
    /// sorted gives: on the edges of a word, negative keys, the extremes,
    /// repeats, and random lists of both kinds.
    @Test func distinctKeysAreTheSortedSetOfTheKeys() {
        var lists: [[Int64]] = [
            [], [7], [7, 7, 7], [63, 64, 0, 127, 128, 64, 1], [-5, -70, 3, -5, 0], [Int64.min, Int64.max, 0, Int64.max],
            [1, 1_000_000_000, 2],
        ]
        var generator = SeededGenerator(seed: 31)
        for _ in 0..<200 {
            let count = Int.random(in: 0...300, using: &generator)
            let spread = Bool.random(using: &generator) ? Int64(count) * 2 + 10 : 1_000_000_000
            lists.append((0..<count).map { _ in Int64.random(in: -spread...spread, using: &generator) })
        }
        for keys in lists {
            #expect(DistinctKeys.sorted(keys) == Set(keys).sorted(), "keys \(keys)")
        }
    }
}
