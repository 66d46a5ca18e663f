import Foundation
import ObjectGraph
import Testing
@testable import Faultline

/// Identical `measure` blocks count the same statements whichever pooled
/// reader their context gets: one whose read transaction a context that
/// went before left open (at an older generation), or a new one. Tests run
/// in parallel release their contexts at different moments; the count of
/// an exact statement check must not depend on it.
@Suite struct ParallelMeasureTests {
    /// A context that read, then saved: its reader's read transaction is
    /// at the generation before the save.
    static func readThenSave(_ store: Store) throws -> ObjectContext {
        let context = ObjectContext(store: store)
        try context.perform {
            let authors = try context.fetch(FetchRequest<Author>())
            authors.first?.name = "Renamed"
            try context.save()
        }
        return context
    }

    static func measuredStatements(_ store: Store) throws -> Int {
        try Faultline.measure(store) { _ = try MeasureTests.listScreen(ObjectContext(store: store), prefetching: true) }.counters.sqlStatements
    }

    @Test func aReaderAContextLeftBehindCountsAsANewOne() throws {
        // The earlier context still alive: the measured one gets a new reader.
        let held = try MeasureTests.store()
        let alive = try Self.readThenSave(held)
        let withNewReader = try Self.measuredStatements(held)
        withExtendedLifetime(alive) {}
        // The earlier context gone: its reader, back in the pool, is the one the measured context gets.
        let released = try MeasureTests.store()
        do { _ = try Self.readThenSave(released) }
        let withReusedReader = try Self.measuredStatements(released)
        // BEGIN, the fetch, the prefetch: whichever reader.
        #expect(withNewReader == 3)
        #expect(withReusedReader == withNewReader)
    }

    @Test func identicalBlocksInParallelCountTheSame() async throws {
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let store = try MeasureTests.store()
                    // Half keep the context that read before, half let it go.
                    let earlier: ObjectContext? = index % 2 == 0 ? try Self.readThenSave(store) : nil
                    if index % 2 == 1 { _ = try Self.readThenSave(store) }
                    let count = try Self.measuredStatements(store)
                    withExtendedLifetime(earlier) {}
                    return count
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(counts).count == 1, "\(counts)")
    }
}
