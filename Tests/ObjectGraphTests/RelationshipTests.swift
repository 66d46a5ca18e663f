import Foundation
import Testing
@testable import ObjectGraph

@Suite struct RelationshipTests {
    private func joinRows(_ path: String, _ table: String) throws -> [[Int64]] {
        try dumpTables(path)[table]!.map { $0.map { if case .integer(let v) = $0 { v } else { -1 } } }
    }

    @Test func manyToManyKeepsBothSidesAndWritesJoinRows() throws {
        let path = Fixtures.storePath()
        let log = StatementLog()
        let store = try Fixtures.store(log: log, location: .file(path))
        let context = ObjectContext(store: store)
        try context.perform {
            let ada = try context.insert(Person.self)
            ada.name = "Ada"
            let bob = try context.insert(Person.self)
            bob.name = "Bob"
            let selfie = try context.insert(Selfie.self)
            selfie.name = "S"
            selfie.people = [bob, ada]
            #expect(selfie.people.map(\.name) == ["Ada", "Bob"])  // primary-key order
            #expect(ada.selfies.map(\.name) == ["S"])
            try context.save()
            // Person_selfies has source = person, destination = selfie.
            #expect(try joinRows(path, "Person_selfies") == [[1, 1], [2, 1]])

            log.clear()
            try ada.removeObject(selfie, forKey: "selfies")
            #expect(selfie.people.map(\.name) == ["Bob"])
            #expect(Set(context.updatedObjects.map(\.objectID)) == [ada.objectID, selfie.objectID])
            try context.save()
            let sql = log.takeSQL()
            #expect(sql == ["BEGIN IMMEDIATE", "DELETE FROM \"Person_selfies\" WHERE source = ? AND destination = ?", "COMMIT"])
            #expect(try joinRows(path, "Person_selfies") == [[2, 1]])

            // Adding and removing the same pair before a save writes nothing.
            try ada.addObject(selfie, forKey: "selfies")
            try selfie.removeObject(ada, forKey: "people")
            #expect(context.joinChanges.isEmpty)
        }
        // A fresh context reads the relationship from the join table.
        let other = ObjectContext(store: store)
        try other.perform {
            let selfie = try other.fetch(FetchRequest<Selfie>())[0]
            #expect(selfie.people.map(\.name) == ["Bob"])
        }
    }

    @Test func oneToManyFollowsTheForeignKey() throws {
        let path = Fixtures.storePath()
        let store = try Fixtures.store(location: .file(path))
        let context = ObjectContext(store: store)
        try context.perform {
            let acme = try context.insert(Company.self)
            acme.name = "Acme"
            let globex = try context.insert(Company.self)
            globex.name = "Globex"
            let person = try context.insert(Person.self)
            person.name = "Ada"
            person.company = acme
            #expect(acme.employees.map(\.name) == ["Ada"])
            try globex.addObject(person, forKey: "employees")
            #expect(person.company === globex)
            #expect(acme.employees.isEmpty)
            try context.save()
            let rows = try dumpTables(path)["Person"]!
            #expect(rows == [[.integer(1), .text("Ada"), .null, .integer(2), .null]])
        }
        let other = ObjectContext(store: store)
        try other.perform {
            let globex = try other.fetch(FetchRequest<Company>(predicate: Key("name") == "Globex"))[0]
            #expect(globex.employees.map(\.name) == ["Ada"])
        }
    }

    @Test func oneToOneStealsFromThePreviousHolder() throws {
        let store = try Fixtures.store()
        let context = ObjectContext(store: store)
        try context.perform {
            let ada = try context.insert(Person.self)
            ada.name = "Ada"
            let bob = try context.insert(Person.self)
            bob.name = "Bob"
            let passport = try context.insert(Passport.self)
            passport.number = "X1"
            ada.passport = passport
            #expect(passport.holder === ada)
            passport.holder = bob
            #expect(ada.passport == nil)
            #expect(bob.passport === passport)
            try context.save()
        }
    }

    @Test func deleteRules() throws {
        let path = Fixtures.storePath()
        let store = try Fixtures.store(location: .file(path))
        try Fixtures.populate(store, people: 2, selfies: 2, networks: 1)
        let context = ObjectContext(store: store)
        try context.perform {
            // nullify: deleting a person removes it from its selfies.
            let person = try context.fetch(FetchRequest<Person>(predicate: Key("name") == "Person 1"))[0]
            let passport = try context.insert(Passport.self)
            passport.number = "P-1"
            person.passport = passport
            let company = try context.insert(Company.self)
            company.name = "Acme"
            person.company = company
            try context.save()

            // deny: a company with employees cannot be deleted.
            #expect(throws: ObjectGraphError.deleteDenied(object: company.objectID, key: "employees")) { try context.delete(company) }
            #expect(!context.hasChanges)

            try context.delete(person)
            #expect(passport.isDeleted)  // cascade
            #expect(company.employees.isEmpty)
            let selfies = Array(try context.fetch(FetchRequest<Selfie>()))
            #expect(selfies.allSatisfy { $0.people.map(\.name) == ["Person 2"] })
            try context.save()
            let tables = try dumpTables(path)
            #expect(tables["Person"]!.count == 1)
            #expect(tables["Passport"]!.isEmpty)
            #expect(tables["Person_selfies"]!.count == 2)
            #expect(!person.isValid)
            try context.delete(company)
            try context.save()
        }
    }
}
