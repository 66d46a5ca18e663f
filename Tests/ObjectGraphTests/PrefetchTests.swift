import Foundation
import Testing
@testable import ObjectGraph

@Suite struct PrefetchTests {
    /// Prefetching issues a fixed number of queries per key path (two for a
    /// many-to-many one), whatever the number of objects; touching every
    /// prefetched object afterwards runs no SQL.
    @Test(arguments: [(2, 3, 2), (5, 8, 4)])
    func fixedQueriesPerKeyPath(people: Int, selfies: Int, networks: Int) throws {
        let log = StatementLog()
        let store = try Fixtures.store(log: log)
        try Fixtures.populate(store, people: people, selfies: selfies, networks: networks)
        let context = ObjectContext(store: store)
        try context.perform {
            log.clear()
            var request = FetchRequest<Selfie>()
            request.relationshipKeyPathsForPrefetching = ["socialNetworks", "people"]
            let results = Array(try context.fetch(request))
            let sql = log.takeSQL()
            #expect(sql == [
                "BEGIN DEFERRED",
                "SELECT t0.pk, t0.\"name\", t0.\"rating\" FROM \"Selfie\" t0",
                "SELECT source, destination FROM \"Selfie_socialNetworks\" WHERE source IN (SELECT value FROM json_each(?)) ORDER BY source, destination",
                "SELECT t0.pk, t0.\"name\" FROM \"SocialNetwork\" t0 WHERE t0.pk IN (SELECT value FROM json_each(?))",
                "SELECT destination, source FROM \"Person_selfies\" WHERE destination IN (SELECT value FROM json_each(?)) ORDER BY destination, source",
                "SELECT t0.pk, t0.\"name\", t0.\"age\", t0.\"company_pk\", t0.\"passport_pk\" FROM \"Person\" t0 WHERE t0.pk IN (SELECT value FROM json_each(?))",
            ])
            var names = 0
            for selfie in results {
                _ = selfie.name
                for network in selfie.socialNetworks { _ = network.name; names += 1 }
                for person in selfie.people { _ = person.name; names += 1 }
            }
            #expect(names == selfies * (people + networks))
            #expect(log.takeSQL().isEmpty)
            #expect(store.rowCache.statistics == .init(hits: 0, misses: 0))
        }
    }

    @Test func oneToManyToOneAndNestedPaths() throws {
        let log = StatementLog()
        let store = try Fixtures.store(log: log)
        let context = ObjectContext(store: store)
        try context.perform {
            for number in 1...3 {
                let company = try context.insert(Company.self)
                company.name = "C\(number)"
                for employee in 1...number {
                    let person = try context.insert(Person.self)
                    person.name = "C\(number)-\(employee)"
                    person.company = company
                }
            }
            try context.save()
            context.reset()
            log.clear()
            var request = FetchRequest<Company>(sortKeys: [SortKey("name")])
            request.relationshipKeyPathsForPrefetching = ["employees.company"]
            let companies = Array(try context.fetch(request))
            let sql = log.takeSQL()
            #expect(sql.count == 3)  // BEGIN, companies, employees; their company is loaded already
            #expect(sql[2].hasSuffix("WHERE t0.\"company_pk\" IN (SELECT value FROM json_each(?)) ORDER BY t0.\"company_pk\", t0.pk"))
            #expect(companies.map { $0.employees.count } == [1, 2, 3])
            #expect(companies.allSatisfy { company in company.employees.allSatisfy { $0.company === company } })
            #expect(log.takeSQL().isEmpty)

            context.reset()
            var people = FetchRequest<Person>()
            people.relationshipKeyPathsForPrefetching = ["company"]
            let everyone = Array(try context.fetch(people))
            #expect(log.takeSQL().count == 2)
            #expect(everyone.map { $0.company!.name } == ["C1", "C2", "C2", "C3", "C3", "C3"])
            #expect(log.takeSQL().isEmpty)
        }
    }

    @Test func aKeyPathThatIsNotARelationshipIsAnError() throws {
        let store = try Fixtures.store()
        let context = ObjectContext(store: store)
        context.perform {
            var request = FetchRequest<Selfie>()
            request.relationshipKeyPathsForPrefetching = ["peple"]
            #expect(throws: ObjectGraphError.invalidFetchRequest("prefetch key path \"peple\": Selfie.peple is not a key, not a relationship")) {
                try context.fetch(request)
            }
            request.relationshipKeyPathsForPrefetching = ["people.name"]
            #expect(throws: ObjectGraphError.invalidFetchRequest("prefetch key path \"people.name\": Person.name is an attribute, not a relationship")) {
                try context.fetch(request)
            }
        }
    }
}
