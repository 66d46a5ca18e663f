import Foundation
import Testing
@testable import ObjectGraph

@Suite struct RowCacheTests {
    @Test func hitsAndMissesAreCountedExactly() throws {
        let (store, context, log) = try Fixtures.populatedStore(people: 5, selfies: 1, networks: 1)
        try context.perform {
            // A fetch caches the rows: the first read of each is a hit.
            let people = Array(try context.fetch(FetchRequest<Person>()))
            for person in people { _ = person.name }
            #expect(store.rowCache.statistics == .init(hits: 5, misses: 0))
            // Refresh, then read: still hits while the rows are cached.
            for person in people { context.refresh(person, mergeChanges: false) }
            for person in people { _ = person.name }
            #expect(store.rowCache.statistics == .init(hits: 10, misses: 0))
            let ids = people.map(\.objectID)
            log.clear()
            // A reset context drops its registrations, so the rows go; the
            // next reads are misses, one SELECT each.
            context.reset()
            #expect(store.rowCache.count == 0)
            for id in ids { _ = (context.object(with: id) as! Person).name }
            #expect(store.rowCache.statistics == .init(hits: 10, misses: 5))
            let sql = log.takeSQL()
            #expect(sql.filter { $0.hasPrefix("SELECT") }.count == 5)
            #expect(sql.allSatisfy { $0 == "BEGIN DEFERRED" || $0.hasSuffix("FROM \"Person\" t0 WHERE t0.pk = ?") })
        }
    }

    @Test func anotherContextKeepsTheRow() throws {
        let store = try Fixtures.store()
        try Fixtures.populate(store, people: 1, selfies: 1, networks: 1)
        let first = ObjectContext(store: store, name: "first")
        let second = ObjectContext(store: store, name: "second")
        let held = try first.perform {
            let person = try first.fetch(FetchRequest<Person>())[0]
            _ = person.name
            return person
        }
        let id = held.objectID
        let kept = second.perform {
            let person = second.object(with: id) as! Person
            #expect(store.rowCache.registrations(of: id) == 2)
            first.perform { first.reset() }
            #expect(store.rowCache.registrations(of: id) == 1)
            #expect(person.name == "Person 1")
            return person
        }
        #expect(store.rowCache.statistics == .init(hits: 2, misses: 0))
        second.perform { _ = kept }
    }

    @Test func stalenessZeroAlwaysGoesToSQLite() throws {
        let log = StatementLog()
        let store = try Fixtures.store(log: log) { $0.stalenessInterval = .zero }
        try Fixtures.populate(store, people: 3, selfies: 1, networks: 1)
        let context = ObjectContext(store: store)
        try context.perform {
            let people = Array(try context.fetch(FetchRequest<Person>()))
            log.clear()
            for person in people { _ = person.name }
            #expect(store.rowCache.statistics == .init(hits: 0, misses: 3))
            #expect(log.takeSQL().filter { $0.hasPrefix("SELECT") }.count == 3)
            // A context may set its own interval.
            context.stalenessInterval = nil
            for person in people { context.refresh(person, mergeChanges: false) }
            for person in people { _ = person.name }
            #expect(store.rowCache.statistics == .init(hits: 3, misses: 3))
            // A negative interval means never stale, as in Core Data.
            context.stalenessInterval = .seconds(-1)
            for person in people { context.refresh(person, mergeChanges: false) }
            for person in people { _ = person.name }
            #expect(store.rowCache.statistics == .init(hits: 6, misses: 3))
        }
        let negative = try Fixtures.store { $0.stalenessInterval = .milliseconds(-5) }
        try Fixtures.populate(negative, people: 2, selfies: 1, networks: 1)
        let other = ObjectContext(store: negative)
        try other.perform {
            let people = Array(try other.fetch(FetchRequest<Person>()))
            for person in people { other.refresh(person, mergeChanges: false) }
            for person in people { _ = person.name }
            #expect(negative.rowCache.statistics == .init(hits: 2, misses: 0))
        }
    }

    @Test func droppedObjectsReleaseTheirRows() throws {
        let store = try Fixtures.store()
        try Fixtures.populate(store, people: 4, selfies: 1, networks: 1)
        let context = ObjectContext(store: store)
        context.perform {
            do {
                let people = Array(try! context.fetch(FetchRequest<Person>()))
                #expect(store.rowCache.count == 4)
                #expect(people.count == 4)
            }
            #expect(context.registeredObjectCount == 0)
            #expect(store.rowCache.count == 0)
        }
    }
}
