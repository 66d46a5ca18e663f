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
}
