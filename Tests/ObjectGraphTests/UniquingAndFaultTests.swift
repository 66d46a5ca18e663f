import Foundation
import Testing
@testable import ObjectGraph

@Suite(.serialized) struct UniquingAndFaultTests {
    @Test func oneInstancePerIDWhateverThePath() throws {
        let store = try Fixtures.store()
        try Fixtures.populate(store)
        let context = ObjectContext(store: store)
        try context.perform {
            let people = Array(try context.fetch(FetchRequest<Person>(sortKeys: [SortKey("name")])))
            let selfies = Array(try context.fetch(FetchRequest<Selfie>(sortKeys: [SortKey("name")])))
            for selfie in selfies {
                for (index, person) in selfie.people.enumerated() {
                    #expect(person === people[index])
                    #expect(person.selfies.contains { $0 === selfie })
                }
            }
            let first = people[0]
            #expect(context.object(with: first.objectID) === first)
            #expect(try context.existingObject(with: first.objectID) === first)
            #expect(context.registeredObject(for: first.objectID) === first)
            let again = Array(try context.fetch(FetchRequest<Person>(predicate: Key("name") == "Person 1")))
            #expect(again.count == 1 && again[0] === first)
        }
    }

    @Test func faultStateAndHooks() throws {
        let log = StatementLog()
        let store = try Fixtures.store(log: log)
        try Fixtures.populate(store)
        let context = ObjectContext(store: store)
        try context.perform {
            let person = try context.fetch(FetchRequest<Person>(predicate: Key("name") == "Person 2"))[0]
            log.clear()
            // The ID, entity, fault state and description never fire the fault.
            #expect(person.isFault)
            _ = person.objectID
            _ = person.entity
            _ = person.description
            #expect(person.isFault)
            #expect(store.rowCache.statistics == .init(hits: 0, misses: 0))
            #expect(person.name == "Person 2")
            #expect(!person.isFault)
            #expect(store.rowCache.statistics == .init(hits: 1, misses: 0))
            #expect(log.takeSQL().isEmpty)

            Person.faultHooks = []
            context.refresh(person, mergeChanges: false)
            #expect(person.isFault)
            #expect(Person.faultHooks == ["will \(person.objectID) fault=false", "did \(person.objectID) fault=true"])
            #expect(person.name == "Person 2")
            #expect(store.rowCache.statistics == .init(hits: 2, misses: 0))
            #expect(log.takeSQL().isEmpty)
        }
    }

    @Test func refreshWithoutMergeDropsChangesWithMergeKeepsThem() throws {
        let store = try Fixtures.store()
        try Fixtures.populate(store)
        let context = ObjectContext(store: store)
        try context.perform {
            let person = try context.fetch(FetchRequest<Person>(predicate: Key("name") == "Person 1"))[0]
            person.name = "Changed"
            person.age = 30
            #expect(context.hasChanges)
            context.refresh(person, mergeChanges: false)
            #expect(!context.hasChanges)
            #expect(person.name == "Person 1")
            #expect(person.age == nil)

            person.age = 41
            let other = ObjectContext(store: store, name: "other")
            try other.perform {
                let same = try other.existingObject(with: person.objectID) as! Person
                same.name = "Renamed elsewhere"
                try other.save()
            }
            context.refresh(person, mergeChanges: true)
            #expect(!person.isFault)
            #expect(person.name == "Renamed elsewhere")
            #expect(person.age == 41)
            #expect(context.updatedObjects.map(\.objectID) == [person.objectID])
        }
    }

    @Test func resetInvalidatesObjects() throws {
        let store = try Fixtures.store()
        try Fixtures.populate(store)
        let context = ObjectContext(store: store, name: "main")
        try context.perform {
            let person = try context.fetch(FetchRequest<Person>(predicate: Key("name") == "Person 1"))[0]
            person.name = "Unsaved"
            context.reset()
            #expect(!context.hasChanges)
            #expect(context.registeredObjectCount == 0)
            #expect(!person.isValid)
            let error = #expect(throws: ObjectGraphError.self) { try person.value(forKey: "name") }
            #expect(error?.description == "\(person.objectID) can no longer be used: its context main was reset")
            let fresh = try context.existingObject(with: person.objectID) as! Person
            #expect(fresh !== person)
            #expect(fresh.name == "Person 1")
        }
    }

    @Test func faultOnADeletedRowIsAnError() throws {
        let store = try Fixtures.store()
        try Fixtures.populate(store)
        let reader = ObjectContext(store: store, name: "reader")
        let writer = ObjectContext(store: store, name: "writer")
        try reader.perform {
            let network = try reader.fetch(FetchRequest<SocialNetwork>(predicate: Key("name") == "Network 1"))[0]
            try writer.perform {
                try writer.delete(writer.existingObject(with: network.objectID))
                try writer.save()
            }
            reader.refresh(network, mergeChanges: false)
            store.rowCache.removeAllSnapshots()
            let error = #expect(throws: ObjectGraphError.self) { try network.fireFault() }
            #expect(error == .objectDeleted(network.objectID))
            #expect(error?.description == "cannot fulfill a fault for SocialNetwork/p1: its row was deleted")
        }
    }

    @Test func unknownKeysAndWrongTypesAreErrors() throws {
        let store = try Fixtures.store()
        try Fixtures.populate(store)
        let context = ObjectContext(store: store)
        try context.perform {
            let selfie = try context.fetch(FetchRequest<Selfie>())[0]
            #expect(throws: ObjectGraphError.unknownKey(entity: "Selfie", key: "colour")) { try selfie.value(forKey: "colour") }
            #expect(throws: ObjectGraphError.typeMismatch(entity: "Selfie", key: "rating", expected: "int16", got: "string")) {
                try selfie.setValue("high", forKey: "rating")
            }
            #expect(throws: ObjectGraphError.typeMismatch(entity: "Selfie", key: "rating", expected: "int16", got: "integer")) {
                try selfie.setValue(.integer(70_000), forKey: "rating")
            }
            #expect(throws: ObjectGraphError.unknownEntity("Selfy")) { try context.insert(entityName: "Selfy") }
            let person = try context.fetch(FetchRequest<Person>())[0]
            #expect(throws: ObjectGraphError.typeMismatch(
                entity: "Selfie", key: "people", expected: "Person object", got: "Selfie object")) {
                try selfie.addObject(selfie, forKey: "people")
            }
            #expect(throws: ObjectGraphError.typeMismatch(
                entity: "Selfie", key: "people", expected: "to-one relationship", got: "to-many relationship")) {
                try selfie.setObject(person, forKey: "people")
            }
            #expect(!context.hasChanges)
        }
    }

    @Test func everyAttributeTypeRoundTrips() throws {
        let store = try Fixtures.store()
        let context = ObjectContext(store: store)
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let uuid = UUID()
        let values: [String: Value] = [
            "i16": .integer(-32768), "i32": .integer(2_147_483_647), "i64": .integer(Int64.min), "double": .double(-0.125),
            "bool": .bool(true), "string": .string("élan ✓"), "date": .date(date), "data": .data(Data([0, 255, 7])),
            "uuid": .uuid(uuid),
        ]
        let id = try context.perform {
            let sample = try context.insert(Sample.self)
            for (key, value) in values { try sample.setValue(value, forKey: key) }
            try context.save()
            return sample.objectID
        }
        let other = ObjectContext(store: store)
        store.rowCache.removeAllSnapshots()
        try other.perform {
            let sample = try other.existingObject(with: id)
            for (key, value) in values { #expect(try sample.value(forKey: key) == value, "\(key)") }
        }
    }
}
