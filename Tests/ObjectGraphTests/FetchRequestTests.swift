import Foundation
import Testing
@testable import ObjectGraph

@Suite struct FetchRequestTests {
    @Test func predicateSortLimitAndOffset() throws {
        let (_, context, log) = try Fixtures.populatedStore(people: 1, selfies: 10, networks: 1)
        try context.perform {
            log.clear()
            var request = FetchRequest<Selfie>(predicate: Key("rating") >= 3 && !(Key("rating") == 7), sortKeys: [SortKey("rating", ascending: false)])
            request.fetchLimit = 3
            request.fetchOffset = 1
            let selfies = try context.fetch(request)
            #expect(selfies.map(\.rating) == [9, 8, 6])
            let entries = log.take()
            #expect(entries.map(\.sql) == [
                "BEGIN DEFERRED",
                "SELECT t0.pk, t0.\"name\", t0.\"rating\" FROM \"Selfie\" t0 WHERE (t0.\"rating\" >= ? AND (t0.\"rating\" = ? IS NOT 1)) "
                    + "ORDER BY t0.\"rating\" DESC LIMIT ? OFFSET ?",
            ])
            #expect(entries[1].arguments == [.integer(3), .integer(7), .integer(3), .integer(1)])
        }
    }

    @Test func countDictionariesAndIDs() throws {
        let (_, context, log) = try Fixtures.populatedStore(people: 1, selfies: 6, networks: 1)
        try context.perform {
            log.clear()
            let request = FetchRequest<Selfie>(predicate: Key("rating") < 4, sortKeys: [SortKey("name")])
            #expect(try context.count(for: request) == 3)
            #expect(log.takeSQL().last == "SELECT count(*) FROM \"Selfie\" t0 WHERE t0.\"rating\" < ?")
            #expect(context.registeredObjectCount == 0)

            let ids = try context.fetchObjectIDs(request)
            #expect(ids.map(\.primaryKey) == [1, 2, 3])
            #expect(context.registeredObjectCount == 0)

            var dictionaries = request
            dictionaries.propertiesToFetch = ["name"]
            #expect(try context.fetchDictionaries(dictionaries) == [["name": "Selfie 1"], ["name": "Selfie 2"], ["name": "Selfie 3"]])
            dictionaries.propertiesToFetch = ["people"]
            #expect(throws: ObjectGraphError.self) { try context.fetchDictionaries(dictionaries) }
        }
    }

    @Test func toOneKeyPathsJoin() throws {
        let log = StatementLog()
        let store = try Fixtures.store(log: log)
        let context = ObjectContext(store: store)
        try context.perform {
            let acme = try context.insert(Company.self)
            acme.name = "Acme"
            let other = try context.insert(Company.self)
            other.name = "Other"
            for (number, company) in [acme, other, acme, nil].enumerated() {
                let person = try context.insert(Person.self)
                person.name = "P\(number)"
                person.company = company
            }
            try context.save()
            log.clear()
            let atAcme = try context.fetch(FetchRequest<Person>(predicate: Key("company.name") == "Acme", sortKeys: [SortKey("name")]))
            #expect(atAcme.map(\.name) == ["P0", "P2"])
            #expect(log.takeSQL().last?.contains("LEFT JOIN \"Company\" t1 ON t1.pk = t0.\"company_pk\" WHERE t1.\"name\" = ?") == true)
            let alone = try context.fetch(FetchRequest<Person>(predicate: Key("company") == nil))
            #expect(alone.map(\.name) == ["P3"])
            let notAcme = try context.fetch(FetchRequest<Person>(predicate: Key("company") != acme.objectID, sortKeys: [SortKey("name")]))
            #expect(notAcme.map(\.name) == ["P1", "P3"])
            #expect(throws: ObjectGraphError.unknownKey(entity: "Company", key: "nmae")) {
                try context.fetch(FetchRequest<Person>(predicate: Key("company.nmae") == "Acme"))
            }
            #expect(throws: ObjectGraphError.typeMismatch(entity: "Person", key: "name", expected: "string", got: "integer")) {
                try context.fetch(FetchRequest<Person>(predicate: Key("name") == 3))
            }
        }
    }

    @Test func nilComparisonsMatchInSQLAndInMemory() throws {
        let store = try Fixtures.store()
        let context = ObjectContext(store: store)
        try context.perform {
            for (number, age) in ([nil, 3, 7] as [Int16?]).enumerated() {
                let person = try context.insert(Person.self)
                person.name = "P\(number)"
                person.age = age
            }
            try context.save()
            let predicates: [ObjectPredicate] = [
                Key("age") < 5, !(Key("age") < 5), Key("age") == nil, Key("age") != nil, Key("age") != 3, !(Key("age") != 3),
                Key("age") < 5 || Key("age") == nil,
            ]
            let everyone = Array(try context.fetch(FetchRequest<Person>()))
            for predicate in predicates {
                let sql = Set(try context.fetch(FetchRequest<Person>(predicate: predicate)).map(\.name))
                let memory = Set(try context.filter(everyone, predicate).map { ($0 as! Person).name })
                #expect(sql == memory, "\(predicate)")
            }
            #expect(Set(try context.fetch(FetchRequest<Person>(predicate: !(Key("age") < 5))).map(\.name)) == ["P0", "P2"])
        }
    }

    @Test func batchFaultingLoadsValuesWithoutFaults() throws {
        let (store, context, log) = try Fixtures.populatedStore(people: 5, selfies: 1, networks: 1)
        try context.perform {
            var request = FetchRequest<Person>()
            request.returnsObjectsAsFaults = false
            let people = Array(try context.fetch(request))
            #expect(people.allSatisfy { !$0.isFault })
            log.clear()
            #expect(people.map(\.name) == (1...5).map { "Person \($0)" })
            #expect(log.takeSQL().isEmpty)
            #expect(store.rowCache.statistics == .init(hits: 0, misses: 0))
        }
    }

    @Test func withoutPropertyValuesEveryReadIsAMiss() throws {
        let (store, context, log) = try Fixtures.populatedStore(people: 4, selfies: 1, networks: 1)
        try context.perform {
            var request = FetchRequest<Person>()
            request.includesPropertyValues = false
            let people = Array(try context.fetch(request))
            #expect(log.takeSQL().last == "SELECT t0.pk FROM \"Person\" t0")
            for person in people { _ = person.name }
            #expect(store.rowCache.statistics == .init(hits: 0, misses: 4))
            #expect(log.takeSQL().count == 4)
        }
    }

    @Test func batchSizeLoadsPagesAsTheyAreTouched() throws {
        let (_, context, log) = try Fixtures.populatedStore(people: 1, selfies: 10, networks: 1)
        try context.perform {
            log.clear()
            var request = FetchRequest<Selfie>(sortKeys: [SortKey("rating")])
            request.fetchBatchSize = 4
            let results = try context.fetch(request)
            #expect(results.count == 10)
            #expect(log.takeSQL() == ["BEGIN DEFERRED", "SELECT t0.pk FROM \"Selfie\" t0 ORDER BY t0.\"rating\""])
            #expect(context.registeredObjectCount == 0)
            #expect(results[0].rating == 1)
            #expect(results[3].rating == 4)
            let page = log.take()
            #expect(page.count == 1)
            #expect(page[0].sql == "SELECT t0.pk, t0.\"name\", t0.\"rating\" FROM \"Selfie\" t0 WHERE t0.pk IN (SELECT value FROM json_each(?))")
            #expect(page[0].rowsReturned == 4)
            #expect(context.registeredObjectCount == 4)
            #expect(results.map(\.rating) == Array(1...10))
            #expect(log.takeSQL().count == 2)  // pages 1 and 2
            #expect(context.registeredObjectCount == 2)  // only the page read last (2 rows) is held
            #expect(results[0].rating == 1)  // page 0 again
            #expect(log.takeSQL().count == 1)
        }
    }

    @Test func pendingChangesAppearInResults() throws {
        let (_, context, _) = try Fixtures.populatedStore(people: 1, selfies: 5, networks: 1)
        try context.perform {
            let all = Array(try context.fetch(FetchRequest<Selfie>(sortKeys: [SortKey("rating")])))
            let inserted = try context.insert(Selfie.self)
            inserted.name = "New"
            inserted.rating = 2
            all[0].rating = 9  // no longer < 3
            all[4].rating = 0  // now < 3
            try context.delete(all[1])  // rating 2, deleted
            let request = FetchRequest<Selfie>(predicate: Key("rating") < 3, sortKeys: [SortKey("rating"), SortKey("name")])
            #expect(try context.fetch(request).map(\.name) == ["Selfie 5", "New"])
            #expect(try context.count(for: request) == 2)
            #expect(try context.fetchObjectIDs(request) == [all[4].objectID, inserted.objectID])
            var limited = request
            limited.fetchLimit = 1
            limited.fetchOffset = 1
            #expect(try context.fetch(limited).map(\.name) == ["New"])
            var ignoring = request
            ignoring.includesPendingChanges = false
            #expect(try context.fetch(ignoring).map(\.name) == ["Selfie 1", "Selfie 2"])
        }
    }
}
