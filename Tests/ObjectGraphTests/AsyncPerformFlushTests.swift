import Foundation
@_spi(FastPath) import Probes
import Synchronization
import Testing
@testable import ObjectGraph

/// `try await context.perform` resumes its caller only after the sinks have
/// sent on what they held back, as the synchronous `perform` returns.
@Suite struct AsyncPerformFlushTests {
    /// A sink whose flush takes a while and says when it ended.
    final class SlowFlushSink: FastPathEventSink, Sendable {
        let flushes = Mutex(0)
        func receive(_ event: Event) {}
        func flush() {
            Thread.sleep(forTimeInterval: 0.05)
            flushes.withLock { $0 += 1 }
        }
    }

    @Test func theCallerResumesAfterTheFlush() async throws {
        let sink = SlowFlushSink()
        let store = try Fixtures.store { $0.sinks = [sink] }
        try Fixtures.populate(store)
        let context = ObjectContext(store: store, name: "async")
        let before = sink.flushes.withLock { $0 }
        let count = try await context.perform { try context.count(for: FetchRequest<Person>()) }
        #expect(count == 3)
        #expect(sink.flushes.withLock { $0 } == before + 1)
    }
}
