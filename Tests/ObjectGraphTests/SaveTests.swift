import Foundation
import Testing
@testable import ObjectGraph

@Suite struct SaveTests {
    /// Makes one change of every kind in `context`.
    private func change(_ context: ObjectContext, round: Int) throws {
        let people = Array(try context.fetch(FetchRequest<Person>(sortKeys: [SortKey("name")])))
        let selfies = Array(try context.fetch(FetchRequest<Selfie>(sortKeys: [SortKey("name")])))
        let network = try context.fetch(FetchRequest<SocialNetwork>(sortKeys: [SortKey("name")]))[0]
        people[0].name = "Renamed \(round)"
        people[1].age = 50
        let selfie = try context.insert(Selfie.self)
        selfie.name = "Inserted \(round)"
        selfie.people = [people[0]]
        try selfies[0].removeObject(people[1], forKey: "people")
        try context.delete(network)
        try context.delete(selfies[1])
    }

    @Test func aFailedSaveLeavesEveryTableAsItWas() throws {
        let path = Fixtures.storePath()
        let log = StatementLog()
        let store = try Fixtures.store(log: log, location: .file(path))
        try Fixtures.populate(store, people: 3, selfies: 3, networks: 2)
        let before = try dumpTables(path)
        var failedAt: [Int] = []
        var k = 1
        while true {
            let context = ObjectContext(store: store, name: "round \(k)")
            let saved = try context.perform {
                try change(context, round: k)
                let failAt = k
                var executed = 0
                store.pool.writerFailureInjection = { sql in
                    if sql == "BEGIN IMMEDIATE" { return }
                    executed += 1
                    if executed == failAt {
                        throw SQLiteError(extendedResultCode: 10, message: "injected failure at statement \(failAt)", sql: sql, path: path)
                    }
                }
                defer { store.pool.writerFailureInjection = nil }
                do {
                    try context.save()
                    return true
                } catch let error as ObjectGraphError {
                    guard case .saveFailed(let sqlite) = error else {
                        Issue.record("unexpected error \(error)")
                        return true
                    }
                    #expect(sqlite.message == "injected failure at statement \(k)")
                    #expect(context.hasChanges)
                    return false
                }
            }
            if saved { break }
            failedAt.append(k)
            #expect(try dumpTables(path) == before, "after a failure at statement \(k)")
            // The store still works for readers after the failure.
            try context.perform { _ = try context.count(for: FetchRequest<Selfie>()) }
            k += 1
        }
        // Updates, join-row changes, inserts, deletes and COMMIT all failed once.
        #expect(failedAt.count >= 10)
        let after = try dumpTables(path)
        #expect(after != before)
        #expect(after["SocialNetwork"]!.count == 1)
        #expect(after["Selfie"]!.count == 3)
    }

    @Test func validationNamesTheObjectAndKeyBeforeAnySQL() throws {
        let log = StatementLog()
        let store = try Fixtures.store(log: log)
        let context = ObjectContext(store: store)
        try context.perform {
            let selfie = try context.insert(Selfie.self)
            log.clear()
            #expect(throws: ObjectGraphError.missingValue(object: selfie.objectID, key: "name")) { try context.save() }
            #expect(log.takeSQL().isEmpty)
            let error = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(error?.description == "Selfie/p1 has no value for non-optional Selfie.name")
            selfie.name = "Fixed"
            try context.save()
        }
    }

    @Test func uniquenessViolationNamesEntityKeysAndObject() throws {
        let path = Fixtures.storePath()
        let store = try Fixtures.store(location: .file(path))
        try Fixtures.populate(store, people: 1, selfies: 2, networks: 1)
        let before = try dumpTables(path)
        let context = ObjectContext(store: store)
        try context.perform {
            let person = try context.insert(Person.self)
            person.name = "Someone"
            let duplicate = try context.insert(Selfie.self)
            duplicate.name = "Selfie 2"
            let error = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(error == .uniquenessViolation(entity: "Selfie", keys: ["name"], object: duplicate.objectID))
            #expect(error?.description == "Selfie/p3 breaks the uniqueness constraint of Selfie on (name)")
            #expect(try dumpTables(path) == before)
            duplicate.name = "Selfie 3"
            try context.save()
        }
    }

    @Test func saveReturnsAndBroadcastsTheChanges() throws {
        let store = try Fixtures.store()
        try Fixtures.populate(store, people: 2, selfies: 1, networks: 1)
        let received = StatementLogBox()
        store.addChangeObserver { received.append($0) }
        let context = ObjectContext(store: store, name: "editor")
        try context.perform {
            let people = Array(try context.fetch(FetchRequest<Person>()))
            people[0].name = "Changed"
            let inserted = try context.insert(SocialNetwork.self)
            inserted.name = "New"
            let changes = try context.save()
            #expect(changes.inserted == [inserted.objectID])
            // Inverse maintenance is not involved: only the renamed person.
            #expect(changes.updated == [people[0].objectID])
            #expect(changes.deleted.isEmpty)
            #expect(changes.contextName == "editor")
            #expect(received.all == [changes])
            #expect(!context.hasChanges)
            #expect(try context.save().isEmpty)
            #expect(received.all.count == 1)
        }
    }

    @Test func rollbackDropsEveryChange() throws {
        let store = try Fixtures.store()
        try Fixtures.populate(store, people: 2, selfies: 2, networks: 1)
        let context = ObjectContext(store: store)
        try context.perform {
            let selfies = Array(try context.fetch(FetchRequest<Selfie>(sortKeys: [SortKey("name")])))
            selfies[0].rating = 99
            try context.delete(selfies[1])
            let inserted = try context.insert(Selfie.self)
            context.rollback()
            #expect(!context.hasChanges)
            #expect(!inserted.isValid)
            #expect(selfies[0].rating == 1)
            #expect(!selfies[1].isDeleted)
            #expect(selfies[1].people.count == 2)
            #expect(try context.count(for: FetchRequest<Selfie>()) == 2)
        }
    }
}

final class StatementLogBox: @unchecked Sendable {
    private let lock = NSLock()
    private var changes: [ChangeSet] = []
    func append(_ change: ChangeSet) {
        lock.lock()
        changes.append(change)
        lock.unlock()
    }
    var all: [ChangeSet] {
        lock.lock()
        defer { lock.unlock() }
        return changes
    }
}
