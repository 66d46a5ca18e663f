import Foundation
import ObjectGraph
import Probes
import Testing

/// `FAULTLINE_CONCURRENCY_DEBUG=1`, checked in child processes (exit tests).
@Suite struct ConcurrencyGuardTests {
    @Test func touchingAnObjectOffItsQueueStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            setenv("FAULTLINE_CONCURRENCY_DEBUG", "1", 1)
            let path = try Workload.populate(people: 1, selfies: 1, networks: 1)
            let context = ObjectContext(store: try Workload.store(path, sinks: []), name: "main")
            let person = try context.perform { try context.fetch(FetchRequest<ManagedObject>(entityName: "Person"))[0] }
            _ = try person.value(forKey: "name")  // outside perform
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Faultline concurrency violation: access to Person.name of Person/p1 of context main on thread "))
        #expect(message.contains(#/on thread [^ ]+ \(thread ID [0-9]+\), outside the context's perform/#))
    }

    @Test func touchingAContextOffItsQueueStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            setenv("FAULTLINE_CONCURRENCY_DEBUG", "1", 1)
            let path = try Workload.populate(people: 1, selfies: 1, networks: 1)
            let context = ObjectContext(store: try Workload.store(path, sinks: []), name: "worker")
            _ = try context.fetch(FetchRequest<ManagedObject>(entityName: "Person"))
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Faultline concurrency violation: fetch of Person of context worker on thread"))
    }

    @Test func correctAccessPasses() async throws {
        await #expect(processExitsWith: .success) {
            setenv("FAULTLINE_CONCURRENCY_DEBUG", "1", 1)
            let path = try Workload.populate(people: 2, selfies: 2, networks: 1)
            let context = ObjectContext(store: try Workload.store(path, sinks: []), name: "main")
            try context.perform {
                for selfie in try context.fetch(FetchRequest<ManagedObject>(entityName: "Selfie")) {
                    for person in try selfie.objects(forKey: "people") { _ = try person.value(forKey: "name") }
                }
            }
            DispatchQueue.global().sync {
                context.perform { _ = try? context.count(for: FetchRequest<ManagedObject>(entityName: "Selfie")) }
            }
        }
    }
}
