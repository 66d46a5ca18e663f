import Foundation
import Testing
@testable import ObjectGraph

@Suite struct PersistentHistoryTests {
    private func historyStore(_ path: String = Fixtures.storePath()) throws -> Store {
        try Fixtures.store(location: .file(path)) { $0.persistentHistoryTracking = true }
    }

    @Test func savesAndBatchRequestsAreRecordedWithTheirAuthors() throws {
        let store = try historyStore()
        let importer = ObjectContext(store: store, name: "import")
        importer.transactionAuthor = "importer"
        try importer.perform {
            let person = try importer.insert(Person.self)
            person.name = "Ada"
            try importer.save()
            person.name = "Ada L."
            try importer.save()
        }
        try store.execute(BatchUpdateRequest(entityName: "Person", propertiesToUpdate: ["age": .value(36)]), author: "batch")
        let all = try store.fetchHistory(after: nil)
        #expect(all.map(\.author) == ["importer", "importer", "batch"])
        #expect(all[0].changes.inserted.map(\.description) == ["Person/p1"])
        #expect(all[1].changes.updated.map(\.description) == ["Person/p1"])
        #expect(all[2].contextName == "batch update")
        #expect(try store.fetchHistory(after: all[0].token).count == 2)
        #expect(try store.fetchHistory(after: nil, author: "batch").count == 1)
        #expect(try store.fetchHistory(after: nil, excludingAuthor: "importer").count == 1)
        #expect(try store.currentHistoryToken() == all[2].token)

        // Tokens survive serialization.
        let data = try JSONEncoder().encode(all[1].token)
        let token = try JSONDecoder().decode(HistoryToken.self, from: data)
        #expect(token == all[1].token)
        #expect(try store.fetchHistory(after: token).map(\.token) == [all[2].token])

        #expect(try store.deleteHistory(through: all[1].token) == 2)
        #expect(try store.fetchHistory(after: nil).map(\.token) == [all[2].token])
    }

    @Test func mergingHistoryBringsAContextUpToDate() throws {
        let store = try historyStore()
        try Fixtures.populate(store, people: 3, selfies: 1, networks: 1)
        let viewer = ObjectContext(store: store, name: "view")
        let people = try viewer.perform { Array(try viewer.fetch(FetchRequest<Person>(sortKeys: [SortKey("name")]))) }
        viewer.perform { for person in people { _ = person.name } }
        let start = try #require(try store.currentHistoryToken())

        let background = ObjectContext(store: store, name: "background")
        background.transactionAuthor = "sync"
        try background.perform {
            let mine = Array(try background.fetch(FetchRequest<Person>(sortKeys: [SortKey("name")])))
            mine[0].name = "Renamed"
            try background.delete(mine[2])
            try background.save()
        }
        let transactions = try store.fetchHistory(after: start, author: "sync")
        #expect(transactions.count == 1)
        #expect(transactions[0].changes.updated.contains(people[0].objectID))
        #expect(transactions[0].changes.deleted == [people[2].objectID])
        viewer.perform {
            viewer.merge(transactions)
            #expect(people[0].isFault)
            #expect(!people[1].isFault)  // untouched
            #expect(!people[2].isValid)
            #expect(people[0].name == "Renamed")
        }
    }

    @Test func foreignTokensAndDisabledHistoryAreErrors() throws {
        let first = try historyStore()
        let second = try historyStore()
        let context = ObjectContext(store: first)
        try context.perform {
            let person = try context.insert(Person.self)
            person.name = "A"
            try context.save()
        }
        let token = try #require(try first.currentHistoryToken())
        #expect(throws: ObjectGraphError.historyTokenMismatch(expected: second.storeIdentifier, got: first.storeIdentifier)) {
            try second.fetchHistory(after: token)
        }
        let plain = try Fixtures.store()
        #expect(throws: ObjectGraphError.historyDisabled) { try plain.fetchHistory(after: nil) }
    }

    @Test func storeChangeObserversHearOfBatchRequests() throws {
        let store = try historyStore()
        try Fixtures.populate(store, people: 1, selfies: 2, networks: 1)
        let received = StatementLogBox()
        store.addChangeObserver { received.append($0) }
        try store.execute(BatchUpdateRequest(entityName: "Selfie", propertiesToUpdate: ["rating": .value(3)]))
        #expect(received.all.count == 1)
        #expect(received.all[0].updated.count == 2)
        #expect(received.all[0].historyToken != nil)
    }
}
