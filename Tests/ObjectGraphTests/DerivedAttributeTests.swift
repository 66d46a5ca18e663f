import Foundation
import Testing
@testable import ObjectGraph

@Suite struct DerivedAttributeTests {
    static let model: Model = try! Model([
        Entity("Group", properties: [
            .attribute("name", .string),
            .derived("memberCount", .int64, .count("members")),
            .derived("energy", .double, .sum("members", "energy")),
            .derived("tagCount", .int64, .count("tags")),
            .toMany("members", "Fireball", inverse: "group"),
            .toMany("tags", "Tag", inverse: "groups"),
        ]),
        Entity("Fireball", properties: [
            .attribute("title", .string),
            .derived("titleKey", .string, .lowercase("title"), indexed: true),
            .attribute("energy", .double, default: 0),
            .toOne("group", "Group", inverse: "members"),
        ]),
        Entity("Tag", properties: [
            .attribute("name", .string),
            .toMany("groups", "Group", inverse: "tags"),
        ]),
    ])

    @Test func derivedValuesFollowSavesAndBatchRequests() throws {
        let log = StatementLog()
        let store = try Store(model: Self.model, location: .file(Fixtures.storePath()), configuration: {
            var configuration = StoreConfiguration()
            configuration.statementHook = log.hook
            return configuration
        }())
        let context = ObjectContext(store: store)
        try context.perform {
            let group = try context.insert(entityName: "Group")
            try group.setValue("G", forKey: "name")
            let tag = try context.insert(entityName: "Tag")
            try tag.setValue("t", forKey: "name")
            try group.addObject(tag, forKey: "tags")
            for (title, energy) in [("Bolide ÉCLAT", 1.5), ("Meteor", 2.0)] {
                let fireball = try context.insert(entityName: "Fireball")
                try fireball.setValue(.string(title), forKey: "title")
                try fireball.setValue(.double(energy), forKey: "energy")
                try fireball.setObject(group, forKey: "group")
            }
            log.clear()
            try context.save()
            // Two fireballs: their owners through the bound list.
            #expect(log.takeSQL().contains(
                "SELECT \"group_pk\" FROM \"Fireball\" WHERE pk IN (SELECT value FROM json_each(?)) AND \"group_pk\" IS NOT NULL"))
            #expect(try group.value(forKey: "memberCount") == 2)
            #expect(try group.value(forKey: "energy") == 3.5)
            #expect(try group.value(forKey: "tagCount") == 1)
            let fireballs = try group.objects(forKey: "members")
            #expect(try fireballs[0].value(forKey: "titleKey") == "bolide éclat")

            #expect(throws: ObjectGraphError.derivedAttribute(entity: "Group", key: "memberCount")) {
                try group.setValue(9, forKey: "memberCount")
            }

            // Reading the count touches no relationship: no SQL at all.
            let other = ObjectContext(store: store, name: "reader")
            log.clear()
            try other.perform {
                let groups = try other.fetch(FetchRequest<ManagedObject>(entityName: "Group"))
                #expect(try groups[0].value(forKey: "memberCount") == 2)
            }
            #expect(log.takeSQL().filter { $0.contains("Fireball") }.isEmpty)

            // A destination's change moves its source's sum. One changed
            // row: its owner, and the owner's new values, by key.
            log.clear()
            try fireballs[1].setValue(4.0, forKey: "energy")
            try context.save()
            let statements = log.takeSQL()
            #expect(statements.contains("SELECT \"group_pk\" FROM \"Fireball\" WHERE pk = ? AND \"group_pk\" IS NOT NULL"))
            #expect(statements.contains { $0.hasPrefix("UPDATE \"Group\" SET ") && $0.hasSuffix(" WHERE pk = ?") })
            #expect(statements.contains { $0.hasPrefix("SELECT pk, ") && $0.hasSuffix(" FROM \"Group\" WHERE pk = ?") })
            #expect(try group.value(forKey: "energy") == 5.5)
            try context.delete(fireballs[0])
            try context.save()
            #expect(try group.value(forKey: "memberCount") == 1)
        }
        // Batch requests keep them too.
        _ = try store.execute(BatchInsertRequest(entityName: "Fireball", objects: [["title": "NEW", "energy": 1.0]]))
        _ = try store.execute(BatchUpdateRequest(entityName: "Fireball", propertiesToUpdate: ["energy": .value(10.0)]))
        let check = ObjectContext(store: store)
        try check.perform {
            let fireballs = Array(try check.fetch(FetchRequest<ManagedObject>(entityName: "Fireball", sortKeys: [SortKey("title")])))
            #expect(try fireballs.map { try $0.value(forKey: "titleKey") } == ["meteor", "new"])
            let group = try check.fetch(FetchRequest<ManagedObject>(entityName: "Group"))[0]
            #expect(try group.value(forKey: "energy") == 10.0)
            #expect(try check.count(for: FetchRequest<ManagedObject>(entityName: "Group", predicate: Key("memberCount") == 1)) == 1)
        }
        #expect(throws: ObjectGraphError.derivedAttribute(entity: "Group", key: "memberCount")) {
            try store.execute(BatchUpdateRequest(entityName: "Group", propertiesToUpdate: ["memberCount": .value(3)]))
        }
    }

    @Test func derivationsAreCheckedInTheModel() {
        #expect(throws: ObjectGraphError.invalidModel("A.n: derived from bs, which is not a to-many relationship of A")) {
            try Model([Entity("A", properties: [.derived("n", .int64, .count("bs"))])])
        }
        #expect(throws: ObjectGraphError.invalidModel("A.k: lowercase needs a string attribute n and a string type")) {
            try Model([Entity("A", properties: [.attribute("n", .int32), .derived("k", .string, .lowercase("n"))])])
        }
    }
}

@Suite struct QueryGenerationTests {
    @Test func aPinnedContextSeesItsSnapshotUntilItMerges() throws {
        let store = try Fixtures.store()
        try Fixtures.populate(store, people: 2, selfies: 1, networks: 1)
        let pinned = ObjectContext(store: store, name: "pinned")
        let writer = ObjectContext(store: store, name: "writer")
        try pinned.perform {
            try pinned.pinQueryGeneration()
            #expect(pinned.isPinned)
            #expect(try pinned.count(for: FetchRequest<Person>()) == 2)
        }
        let changes = try writer.perform {
            let person = try writer.insert(Person.self)
            person.name = "Late"
            let first = try writer.fetch(FetchRequest<Person>(predicate: Key("name") == "Person 1"))[0]
            first.name = "Renamed"
            return try writer.save()
        }
        try pinned.perform {
            #expect(try pinned.count(for: FetchRequest<Person>()) == 2)
            let first = try pinned.fetch(FetchRequest<Person>(sortKeys: [SortKey("name")]))[0]
            #expect(first.name == "Person 1")  // the row cache's newer row is not used
            pinned.merge(changes)
            #expect(pinned.isPinned)
            #expect(try pinned.count(for: FetchRequest<Person>()) == 3)
            #expect(first.name == "Renamed")
            pinned.unpinQueryGeneration()
            #expect(!pinned.isPinned)
        }
        let memory = try Fixtures.store(location: .memory)
        let context = ObjectContext(store: memory)
        #expect(throws: ObjectGraphError.self) { try context.perform { try context.pinQueryGeneration() } }
    }
}
