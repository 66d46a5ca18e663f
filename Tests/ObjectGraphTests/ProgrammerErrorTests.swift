import Foundation
import Testing
@testable import ObjectGraph

/// A typed accessor cannot throw: using an object after its context was
/// reset stops the program, with a message naming the object, the key and
/// the cause. Checked in a child process (an exit test).
@Suite struct ProgrammerErrorTests {
    @Test func readingAnObjectAfterResetStopsWithAMessage() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let store = try Fixtures.store()
            try Fixtures.populate(store, people: 1, selfies: 1, networks: 1)
            let context = ObjectContext(store: store, name: "main")
            try context.perform {
                let person = try context.fetch(FetchRequest<Person>())[0]
                context.reset()
                _ = person.name
            }
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Faultline: Person.name of Person/p1: Person/p1 can no longer be used: its context main was reset"))
    }
}
