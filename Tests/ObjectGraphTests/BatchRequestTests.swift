import Foundation
import Testing
@testable import ObjectGraph

@Suite struct BatchRequestTests {
    @Test func batchUpdateIsOneStatementAndMergesIntoAContext() throws {
        let path = Fixtures.storePath()
        let log = StatementLog()
        let store = try Fixtures.store(log: log, location: .file(path))
        try Fixtures.populate(store, people: 1, selfies: 6, networks: 1)
        let context = ObjectContext(store: store)
        let selfies = try context.perform { Array(try context.fetch(FetchRequest<Selfie>(sortKeys: [SortKey("rating")]))) }
        context.perform { for selfie in selfies { _ = selfie.rating } }
        log.clear()
        let result = try store.execute(BatchUpdateRequest(
            entityName: "Selfie", predicate: Key("rating") <= 3, propertiesToUpdate: ["rating": .value(5)], resultType: .objectIDs))
        #expect(result == .objectIDs(selfies.prefix(3).map(\.objectID)))
        #expect(log.takeSQL() == [
            "BEGIN IMMEDIATE",
            "UPDATE \"Selfie\" SET \"rating\" = ? WHERE pk IN (SELECT t0.pk FROM \"Selfie\" t0 WHERE t0.\"rating\" <= ?) RETURNING pk",
            "COMMIT",
        ])
        // The context still shows what it had, until it merges.
        context.perform {
            #expect(selfies.map(\.rating) == [1, 2, 3, 4, 5, 6])
            context.mergeBatchResult(result)
            #expect(selfies.map(\.rating) == [5, 5, 5, 4, 5, 6])
        }
        let count = try store.execute(BatchUpdateRequest(
            entityName: "Selfie", propertiesToUpdate: ["rating": .arithmetic("rating", .add, 1)], resultType: .count))
        #expect(count == .count(6))
        #expect(try dumpTables(path)["Selfie"]!.map { $0[2] } == [6, 6, 6, 5, 6, 7].map { DatabaseValue.integer($0) })
    }

    /// An update whose result is a count, with no history, no derived
    /// attributes and no observer, reads back no keys: the row cache then
    /// drops every snapshot of the entity, and a refreshed object reads the
    /// new row.
    @Test func aBatchUpdateThatCountsReadsNoKeysAndDropsTheEntitysSnapshots() throws {
        let log = StatementLog()
        let store = try Fixtures.store(log: log)
        try Fixtures.populate(store, people: 1, selfies: 6, networks: 1)
        let context = ObjectContext(store: store)
        let (selfies, person) = try context.perform {
            let selfies = Array(try context.fetch(FetchRequest<Selfie>(sortKeys: [SortKey("rating")])))
            for selfie in selfies { _ = selfie.rating }
            let person = try #require(try context.fetch(FetchRequest<Person>()).first)
            _ = person.name
            return (selfies, person)
        }
        #expect(selfies.allSatisfy { store.rowCache.contains($0.objectID) })
        log.clear()
        let result = try store.execute(BatchUpdateRequest(
            entityName: "Selfie", predicate: Key("rating") <= 3, propertiesToUpdate: ["rating": .value(5)], resultType: .count))
        #expect(result == .count(3))
        #expect(log.takeSQL() == [
            "BEGIN IMMEDIATE",
            "UPDATE \"Selfie\" SET \"rating\" = ? WHERE pk IN (SELECT t0.pk FROM \"Selfie\" t0 WHERE t0.\"rating\" <= ?)",
            "COMMIT",
        ])
        #expect(selfies.allSatisfy { !store.rowCache.contains($0.objectID) })
        #expect(store.rowCache.contains(person.objectID))
        context.perform {
            for selfie in selfies { context.refresh(selfie, mergeChanges: false) }
            #expect(selfies.map(\.rating) == [5, 5, 5, 4, 5, 6])
        }
        // An observer hears of the rows: they are read back again.
        let token = store.addChangeObserver { _ in }
        defer { store.removeChangeObserver(token) }
        log.clear()
        #expect(try store.execute(BatchUpdateRequest(entityName: "Selfie", propertiesToUpdate: ["rating": .value(1)], resultType: .count))
            == .count(6))
        #expect(log.takeSQL()[1] == "UPDATE \"Selfie\" SET \"rating\" = ? RETURNING pk")
    }

    @Test func badBatchUpdatesLeaveTheStoreUntouched() throws {
        let path = Fixtures.storePath()
        let store = try Fixtures.store(location: .file(path))
        try Fixtures.populate(store, people: 1, selfies: 2, networks: 1)
        let before = try dumpTables(path)
        #expect(throws: ObjectGraphError.unknownKey(entity: "Selfie", key: "stars")) {
            try store.execute(BatchUpdateRequest(entityName: "Selfie", propertiesToUpdate: ["stars": .value(1)]))
        }
        #expect(throws: ObjectGraphError.typeMismatch(entity: "Selfie", key: "rating", expected: "int16", got: "string")) {
            try store.execute(BatchUpdateRequest(entityName: "Selfie", propertiesToUpdate: ["rating": .value("high")]))
        }
        #expect(throws: ObjectGraphError.invalidBatchRequest("batch update of Selfie sets non-optional name to nil")) {
            try store.execute(BatchUpdateRequest(entityName: "Selfie", propertiesToUpdate: ["name": .value(nil)]))
        }
        #expect(throws: ObjectGraphError.unknownEntity("Selfy")) {
            try store.execute(BatchUpdateRequest(entityName: "Selfy", propertiesToUpdate: ["rating": .value(1)]))
        }
        #expect(try dumpTables(path) == before)
    }

    @Test func batchInsertFromRowsAndFromAHandlerWithUpsert() throws {
        let path = Fixtures.storePath()
        let store = try Fixtures.store(location: .file(path))
        try Fixtures.populate(store, people: 2, selfies: 2, networks: 1)
        let inserted = try store.execute(BatchInsertRequest(
            entityName: "Selfie", objects: [["name": "Selfie 3", "rating": 3], ["name": "Selfie 2", "rating": 9]], resultType: .objectIDs))
        // "Selfie 2" exists (unique name): updated in place, relationships kept.
        #expect(inserted.objectIDs?.map(\.primaryKey) == [2, 3])
        var tables = try dumpTables(path)
        #expect(tables["Selfie"]!.map { $0[1] } == ["Selfie 1", "Selfie 2", "Selfie 3"].map { DatabaseValue.text($0) })
        #expect(tables["Selfie"]![1][2] == .integer(9))
        #expect(tables["Person_selfies"]!.count == 4)

        final class Counter: @unchecked Sendable { var next = 0 }
        let counter = Counter()
        let count = try store.execute(BatchInsertRequest(entityName: "SocialNetwork", resultType: .count) { row in
            counter.next += 1
            guard counter.next <= 100 else { return true }
            row["name"] = .string("Generated \(counter.next)")
            return false
        })
        #expect(count == .count(100))
        tables = try dumpTables(path)
        #expect(tables["SocialNetwork"]!.count == 101)
    }

    @Test func aBadBatchInsertRowWritesNothing() throws {
        let path = Fixtures.storePath()
        let store = try Fixtures.store(location: .file(path))
        let before = try dumpTables(path)
        #expect(throws: ObjectGraphError.invalidBatchRequest("batch insert into Selfie, row 2: no value for non-optional name")) {
            try store.execute(BatchInsertRequest(entityName: "Selfie", objects: [["name": "ok"], ["rating": 2]]))
        }
        #expect(throws: ObjectGraphError.invalidBatchRequest("batch insert into Selfie, row 1: rating expects int16, got string")) {
            try store.execute(BatchInsertRequest(entityName: "Selfie", objects: [["name": "x", "rating": "high"]]))
        }
        #expect(try dumpTables(path) == before)
    }

    @Test func batchDeleteRemovesJoinRowsAndAppliesDeleteRules() throws {
        let path = Fixtures.storePath()
        let store = try Fixtures.store(location: .file(path))
        try Fixtures.populate(store, people: 3, selfies: 2, networks: 1)
        let context = ObjectContext(store: store)
        try context.perform {
            let people = Array(try context.fetch(FetchRequest<Person>(sortKeys: [SortKey("name")])))
            let passport = try context.insert(Passport.self)
            passport.number = "P"
            people[0].passport = passport
            let acme = try context.insert(Company.self)
            acme.name = "Acme"
            people[0].company = acme
            try context.save()
        }
        let result = try store.execute(BatchDeleteRequest(entityName: "Person", predicate: Key("name") == "Person 1", resultType: .objectIDs))
        #expect(result.objectIDs?.map(\.primaryKey) == [1])
        let tables = try dumpTables(path)
        #expect(tables["Person"]!.count == 2)
        #expect(tables["Passport"]!.isEmpty)  // cascade through the one-to-one
        #expect(tables["Person_selfies"]!.count == 4)  // its 2 join rows went
        #expect(tables["Company"]!.count == 1)

        #expect(throws: ObjectGraphError.deleteDenied(object: ObjectID(entity: store.model.entities[3], primaryKey: 1), key: "employees")) {
            try context.perform {
                let acme = try context.fetch(FetchRequest<Company>())[0]
                let person = try context.fetch(FetchRequest<Person>())[0]
                person.company = acme
                try context.save()
            }
            try store.execute(BatchDeleteRequest(entityName: "Company"))
        }
        #expect(try dumpTables(path)["Company"]!.count == 1)
    }
}

import Probes

@Suite struct BatchRequestCounterTests {
    @Test func eachRequestTypeCountsExactly() throws {
        let path = Fixtures.storePath()
        try Fixtures.populate(try Fixtures.store(location: .file(path)), people: 2, selfies: 3, networks: 1)
        let recorder = Recorder()
        let store = try Fixtures.store(location: .file(path)) { $0.sinks = [recorder] }

        _ = try store.execute(BatchUpdateRequest(entityName: "Selfie", propertiesToUpdate: ["rating": .value(8)]))
        var expected = Counters()
        expected.batchRequests = 1
        expected.sqlStatements = 3  // BEGIN IMMEDIATE, UPDATE, COMMIT
        expected.rowsWritten = 3
        expected.fullScanSteps = 2
        // SQLite's own figure, which changes with its version: some were
        // stepped (the run twice gives the same, RecorderTests).
        #expect(recorder.counters.vmSteps > 0)
        expected.vmSteps = recorder.counters.vmSteps
        #expect(recorder.counters == expected)

        // Asked for IDs, the update returns its rows' keys: rows read.
        recorder.reset()
        _ = try store.execute(BatchUpdateRequest(entityName: "Selfie", propertiesToUpdate: ["rating": .value(9)], resultType: .objectIDs))
        expected.rowsRead = 3
        #expect(recorder.counters.vmSteps > 0)
        expected.vmSteps = recorder.counters.vmSteps
        #expect(recorder.counters == expected)

        recorder.reset()
        _ = try store.execute(BatchInsertRequest(entityName: "SocialNetwork", objects: [["name": "A"], ["name": "B"]]))
        expected = Counters()
        expected.batchRequests = 1
        expected.sqlStatements = 4  // BEGIN IMMEDIATE, 2 INSERTs, COMMIT
        expected.rowsRead = 2
        expected.rowsWritten = 2
        #expect(recorder.counters.vmSteps > 0)
        expected.vmSteps = recorder.counters.vmSteps
        #expect(recorder.counters == expected)

        recorder.reset()
        let deleted = try store.execute(BatchDeleteRequest(entityName: "Selfie", predicate: Key("name") == "Selfie 1", resultType: .count))
        #expect(deleted == .count(1))
        let counters = recorder.counters
        #expect(counters.batchRequests == 1)
        #expect(counters.rowsWritten == 1 + 2 + 1)  // the selfie, its 2 people and 1 network join rows
    }
}

@Suite struct BatchTransactionTests {
    @Test func severalRequestsCommitTogetherOrNotAtAll() throws {
        let path = Fixtures.storePath()
        let log = StatementLog()
        let store = try Fixtures.store(log: log, location: .file(path))
        let before = try dumpTables(path)
        #expect(throws: ObjectGraphError.self) {
            try store.performBatchTransaction {
                _ = try store.execute(BatchInsertRequest(entityName: "SocialNetwork", objects: [["name": "A"]]))
                _ = try store.execute(BatchInsertRequest(entityName: "Selfie", objects: [["rating": 1]]))  // no name
            }
        }
        #expect(try dumpTables(path) == before)
        log.clear()
        let received = StatementLogBox()
        store.addChangeObserver { received.append($0) }
        let ids = try store.performBatchTransaction { () throws -> [ObjectID] in
            let people = try store.execute(BatchInsertRequest(entityName: "Person", objects: [["name": "P"]], resultType: .objectIDs))
            let selfies = try store.execute(BatchInsertRequest(entityName: "Selfie", objects: [["name": "S"]], resultType: .objectIDs))
            #expect(received.all.isEmpty)  // not before the commit
            let pair = (selfies.objectIDs![0], people.objectIDs![0])
            try store.relate([pair], through: "people", of: "Selfie")
            return [pair.0, pair.1]
        }
        let sql = log.takeSQL()
        #expect(sql.filter { $0 == "BEGIN IMMEDIATE" }.count == 1)
        #expect(sql.filter { $0 == "COMMIT" }.count == 1)
        #expect(received.all.count == 3)
        #expect(try dumpTables(path)["Person_selfies"] == [[.integer(ids[1].primaryKey), .integer(ids[0].primaryKey)]])
    }
}
