import Foundation
import ObjectGraph
import Testing
@testable import Faultline

/// Async code measured as it is written: `try await context.perform` inside
/// `try await Faultline.measure`, with the same counters as the
/// synchronous list screen of ``MeasureTests``.
@Suite struct AsyncMeasureTests {
    /// The list screen of ``MeasureTests/listScreen(_:prefetching:)``,
    /// written for async code: the titles counted on the context's queue,
    /// only a number coming out.
    static func listScreen(_ context: ObjectContext, prefetching: Bool) async throws -> Int {
        try await context.perform {
            var request = FetchRequest<Author>()
            if prefetching { request.relationshipKeyPathsForPrefetching = ["posts"] }
            var titles = 0
            for author in try context.fetch(request) {
                _ = author.name
                for post in author.posts { titles += post.title.isEmpty ? 0 : 1 }
            }
            return titles
        }
    }

    @Test func anAsyncBodyIsMeasuredWithTheSameCountersAsASynchronousOne() async throws {
        let store = try MeasureTests.store()
        let (titles, slow) = try await Faultline.measure(store) {
            try await Self.listScreen(ObjectContext(store: store), prefetching: false)
        }
        #expect(titles == 60)
        #expect(slow.counters.fetches == 1)
        #expect(slow.counters.relationshipFaultsFired == 20)
        #expect(slow.counters.faultsFired == 80)
        #expect(slow.counters.sqlStatements == 82)
        #expect(slow.insights.map(\.rule) == [.nPlusOne])
        let fast = try await Faultline.measure(store) {
            _ = try await Self.listScreen(ObjectContext(store: store), prefetching: true)
        }
        // BEGIN, the fetch and the prefetch, as the synchronous fix.
        #expect(fast.counters.sqlStatements == 3)
        #expect(fast.insights.isEmpty)
    }

    @Test func asyncPerformRunsOnTheContextsQueueAndNests() async throws {
        let store = try MeasureTests.store()
        let context = ObjectContext(store: store, name: "async")
        // Work inside runs on the context's queue (the threading guard
        // stops a use from another thread in a debug build), and a perform
        // inside a perform runs at once rather than waiting for itself.
        let (count, nested) = try await context.perform {
            (try context.count(for: FetchRequest<Author>()), try context.perform { try context.count(for: FetchRequest<Post>()) })
        }
        #expect(count == 20)
        #expect(nested == 60)
        // An error inside comes out of the await.
        await #expect(throws: ObjectGraphError.unknownEntity("Nope")) {
            try await context.perform { try context.count(for: FetchRequest<ManagedObject>(entityName: "Nope")) }
        }
        // One measurement at a time on a store, async or not.
        _ = try await Faultline.measure(store) { () async throws -> Void in
            await Task.yield()
            #expect(throws: MeasurementFailure.self) { try Faultline.measure(store) {} }
        }
    }
}
