import Foundation
import Testing
@testable import ObjectGraph

/// `SELF IN %@` (`Key.object.isIn(ids)`): the objects of a list of IDs in
/// one fetch, the fix for `existingObject(with:)` per ID in a loop; the
/// same answer from SQL, from memory (pending changes) and as a format string.
@Suite struct ObjectIDPredicateTests {
    @Test func oneFetchLoadsTheObjectsOfAListOfIDs() throws {
        let (store, context, log) = try BlogFixtures.savedStore()
        let ids = try context.perform {
            try context.fetchObjectIDs(FetchRequest<Post>(sortKeys: [SortKey("title")]))
        }
        let wanted = [ids[4], ids[1], ids[2]]
        log.clear()
        let titles = try context.perform {
            try context.fetch(FetchRequest<Post>(predicate: Key.object.isIn(wanted), sortKeys: [SortKey("title")])).map(\.title)
        }
        #expect(titles == ["Batch [*] requests", "Faults in Core Data", "Untitled"])
        // One SELECT, by primary key, the keys bound.
        let selects = log.takeSQL().filter { $0.hasPrefix("SELECT") }
        #expect(selects.count == 1)
        #expect(selects.first?.contains("WHERE t0.pk IN (?, ?, ?)") == true)
        // The format string says the same.
        let formatted = try ObjectPredicate(format: "SELF IN %@", wanted)
        #expect(formatted.description == Key.object.isIn(wanted).description)
        let same = try context.perform { try context.fetch(FetchRequest<Post>(predicate: formatted)).count }
        #expect(same == 3)
        // One ID, and its negation.
        let one = try context.perform { try context.fetch(FetchRequest<Post>(predicate: Key.object == ids[0])).map(\.objectID) }
        #expect(one == [ids[0]])
        let others = try context.perform { try context.count(for: FetchRequest<Post>(predicate: Key.object != ids[0])) }
        #expect(others == ids.count - 1)
        // An ID of another entity is a type error, not an empty result.
        let author = try context.perform { try context.fetchObjectIDs(FetchRequest<Author>()).first! }
        #expect(throws: ObjectGraphError.self) {
            try context.perform { try context.fetch(FetchRequest<Post>(predicate: Key.object.isIn([author]))) }
        }
        withExtendedLifetime(store) {}
    }

    @Test func pendingObjectsAnswerFromMemory() throws {
        let (_, context, _) = try BlogFixtures.pendingStore()
        try context.perform {
            let posts = Array(try context.fetch(FetchRequest<Post>(sortKeys: [SortKey("title")])))
            let wanted = [posts[0].objectID, posts[3].objectID]
            let found = try context.fetch(FetchRequest<Post>(predicate: Key.object.isIn(wanted), sortKeys: [SortKey("title")]))
            #expect(found.map(\.objectID) == wanted)
            #expect(try context.evaluate(Key.object.isIn(wanted), on: posts[3]))
            #expect(try !context.evaluate(Key.object.isIn(wanted), on: posts[1]))
        }
    }
}
