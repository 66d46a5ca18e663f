import Testing
@testable import ObjectGraph

/// The identity map's and row cache's hash table against a Dictionary:
/// the same contents after every step of a random sequence of inserts,
/// updates and removals (removals shift probe runs back, so this is where
/// a mistake would lose an entry).
@Suite struct ObjectTableTests {
    @Test(arguments: [1, 2, 3, 4])
    func behavesAsADictionary(seed: UInt64) throws {
        let model = try Model([Entity("A", properties: [.attribute("x", .int64)]), Entity("B", properties: [.attribute("y", .int64)])])
        let entities = model.entities
        var generator = SeededGenerator(seed: seed)
        let table = ObjectTable<Int>()
        var reference: [ObjectID: Int] = [:]
        for step in 0..<20_000 {
            // Few keys, so that removals hit long probe runs often.
            let id = ObjectID(entity: entities[Int(generator.next() % 2)], primaryKey: Int64(generator.next() % 300))
            switch generator.next() % 4 {
            case 0: table[id] = nil; reference[id] = nil
            case 1: table.removeValue(forKey: id); reference[id] = nil
            case 2: table.update(id, default: 0) { $0 += 1 }; reference[id, default: 0] += 1
            default: table[id] = step; reference[id] = step
            }
            #expect(table[id] == reference[id])
            if step % 1_000 == 0 {
                #expect(table.count == reference.count)
                #expect(Dictionary(uniqueKeysWithValues: table.entries.map { ($0.id, $0.value) }) == reference)
            }
        }
        #expect(table.count == reference.count)
        for (id, value) in reference { #expect(table[id] == value) }
    }
}
