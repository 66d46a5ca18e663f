import Dispatch
import Foundation
import Synchronization
import Testing
@testable import ObjectGraph

@Suite struct ConcurrencyTests {
    /// Reads share one read transaction until a save moves the store on.
    @Test func readsKeepOneTransactionUntilASave() throws {
        let log = StatementLog()
        let store = try Fixtures.store(log: log) { $0.stalenessInterval = .zero }
        try Fixtures.populate(store, people: 5, selfies: 1, networks: 1)
        let reader = ObjectContext(store: store, name: "reader")
        let writer = ObjectContext(store: store, name: "writer")
        log.clear()
        try reader.perform {
            let people = Array(try reader.fetch(FetchRequest<Person>(sortKeys: [SortKey("name")])))
            for person in people { _ = person.name }
            let sql = log.takeSQL()
            #expect(sql.first == "BEGIN DEFERRED")
            #expect(sql.dropFirst().allSatisfy { $0.hasPrefix("SELECT") })
            #expect(sql.count == 7)  // BEGIN, the fetch, 5 faults (staleness 0)

            try writer.perform {
                let person = try writer.existingObject(with: people[0].objectID) as! Person
                person.name = "Changed"
                try writer.save()
            }
            log.clear()
            reader.refresh(people[0], mergeChanges: false)
            #expect(people[0].name == "Changed")
            #expect(log.takeSQL() == [
                "COMMIT", "BEGIN DEFERRED",
                "SELECT t0.pk, t0.\"name\", t0.\"age\", t0.\"company_pk\", t0.\"passport_pk\" FROM \"Person\" t0 WHERE t0.pk = ?",
            ])
        }
    }

    /// A writer on one thread saves; a reader context on another thread
    /// merges the change set it is sent and fetches what was inserted.
    @Test func mergingBetweenContextsOnTwoThreads() throws {
        let store = try Fixtures.store()
        try Fixtures.populate(store, people: 3, selfies: 2, networks: 1)
        let mailbox = Mailbox()
        let readerReady = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let results = Mutex<[String]>([])

        DispatchQueue.global().async {
            let reader = ObjectContext(store: store, name: "reader")
            reader.perform {
                do {
                    let people = Array(try reader.fetch(FetchRequest<Person>(sortKeys: [SortKey("name")])))
                    let selfie = try reader.fetch(FetchRequest<Selfie>(predicate: Key("name") == "Selfie 1"))[0]
                    #expect(selfie.people.count == 3)
                    people[2].age = 77  // an unsaved change of the reader's own
                    readerReady.signal()
                    let changes = mailbox.receive()
                    reader.merge(changes)
                    #expect(people[0].isFault)
                    #expect(!people[1].isValid)  // deleted by the writer
                    #expect(people[2].age == 77)  // kept through the merge
                    #expect(people[2].name == "Person 3 (renamed)")
                    #expect(selfie.people.map(\.name) == ["Renamed", "Person 3 (renamed)"])
                    let all = try reader.fetch(FetchRequest<Person>(sortKeys: [SortKey("name")]))
                    results.withLock { $0 = all.map(\.name) }
                } catch {
                    Issue.record("reader: \(error)")
                }
            }
            done.signal()
        }

        readerReady.wait()
        let writerDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let writer = ObjectContext(store: store, name: "writer")
            writer.perform {
                do {
                    let people = Array(try writer.fetch(FetchRequest<Person>(sortKeys: [SortKey("name")])))
                    people[0].name = "Renamed"
                    try writer.delete(people[1])
                    people[2].name = "Person 3 (renamed)"
                    let added = try writer.insert(Person.self)
                    added.name = "Added"
                    mailbox.send(try writer.save())
                } catch {
                    Issue.record("writer: \(error)")
                }
            }
            writerDone.signal()
        }
        writerDone.wait()
        done.wait()
        #expect(results.withLock { $0 } == ["Added", "Person 3 (renamed)", "Renamed"])
    }
}

/// Hands one change set from one thread to another.
final class Mailbox: Sendable {
    private let box = Mutex<ChangeSet?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    func send(_ changes: ChangeSet) {
        box.withLock { $0 = changes }
        ready.signal()
    }

    func receive() -> ChangeSet {
        ready.wait()
        return box.withLock { $0! }
    }
}
