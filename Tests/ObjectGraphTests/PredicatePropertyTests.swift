import Foundation
import PropertyBased
import Testing
@testable import ObjectGraph

/// SQL and in-memory evaluation agree on random predicates over random data,
/// and every canonical form parses back to the same tree.
@Suite struct PredicatePropertyTests {
    @Test func sqlAndMemoryAgreeAndCanonicalFormsRoundTrip() async {
        await propertyCheck(count: 60, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SeededGenerator(seed: UInt64(seed))
            do {
                let store = try Fixtures.store(location: .memory)
                try RandomPredicates.populate(store, count: 24, &rng)
                let context = ObjectContext(store: store)
                try context.perform {
                    let all = Array(try context.fetch(FetchRequest<Sample>()))
                    for _ in 0..<12 {
                        let predicate = RandomPredicates.predicate(depth: 3, &rng)
                        let sql = try context.fetchObjectIDs(FetchRequest<Sample>(predicate: predicate)).map(\.primaryKey).sorted()
                        let memory = try context.filter(all, predicate).map(\.objectID.primaryKey).sorted()
                        #expect(sql == memory, "seed \(seed): \(predicate)")
                        let reparsed = try ObjectPredicate(format: predicate.description)
                        #expect(reparsed == predicate, "seed \(seed): \(predicate.description)")
                    }
                }
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
    }
}
