import Foundation
@testable import Probes
import Synchronization
import Testing

/// A context's run of refreshes, extended in place: its count, the last
/// refresh's registration counts, and a run closed by another thread while
/// it grows losing no refresh.
@Suite struct RefreshRunTests {
    private func refresh(registered: Int, peak: Int) -> ContextEvent {
        ContextEvent(start: 0, thread: 1, context: "main", kind: .refresh, objectsRegistered: registered, objectsRegisteredPeak: peak)
    }

    @Test func refreshesGrowTheRunWithTheLastCounts() throws {
        let run = RefreshRun()
        #expect(!run.extend(objectsRegistered: 1, objectsRegisteredPeak: 1))
        run.open(first: refresh(registered: 5, peak: 9))
        #expect(run.extend(objectsRegistered: 4, objectsRegisteredPeak: 9))
        #expect(run.extend(objectsRegistered: 3, objectsRegisteredPeak: 10))
        let pending = try #require(run.pending)
        #expect(pending.count == 3 && pending.last.objectsRegistered == 3)
        let closed = try #require(run.close())
        #expect(closed.count == 3)
        #expect(closed.last.objectsRegistered == 3 && closed.last.objectsRegisteredPeak == 10)
        #expect(closed.last.context == "main" && closed.last.kind == .refresh)
        #expect(!run.extend(objectsRegistered: 2, objectsRegisteredPeak: 10))
        #expect(run.close() == nil && run.pending == nil)
    }

    private final class ClosedRuns: @unchecked Sendable {
        let lock = PlainLock()
        var count: UInt64 = 0
        var runs = 0
        let done = Atomic<Bool>(false)
        /// Runs the other thread closed.
        let closedByOther = Atomic<Int>(0)

        @discardableResult
        func close(_ run: RefreshRun) -> Bool {
            guard let closed = run.close() else { return false }
            count += closed.count
            runs += 1
            return true
        }
    }

    /// One thread refreshes, another closes the run whenever it likes: the
    /// closed runs' counts add up to the refreshes.
    @Test func aRunClosedByAnotherThreadWhileItGrowsLosesNoRefresh() {
        let run = RefreshRun()
        let sink = ClosedRuns()
        let refreshes = 200_000
        let deadline = ProbeClock.kernelNow() + 30_000_000_000
        let closer = Thread {
            while !sink.done.load(ordering: .acquiring) {
                let closed = sink.lock.withLock { sink.close(run) }
                if closed { sink.closedByOther.add(1, ordering: .relaxed) }
            }
        }
        closer.start()
        var number = 0
        while number < refreshes || (sink.closedByOther.load(ordering: .relaxed) < 10 && ProbeClock.kernelNow() < deadline) {
            defer { number += 1 }
            if run.extend(objectsRegistered: number, objectsRegisteredPeak: number) { continue }
            let event = refresh(registered: number, peak: number)
            sink.lock.withLock {
                sink.close(run)
                run.open(first: event)
            }
        }
        sink.done.store(true, ordering: .releasing)
        while !closer.isFinished { usleep(1_000) }
        _ = sink.lock.withLock { sink.close(run) }
        #expect(sink.count == UInt64(number))
        #expect(sink.closedByOther.load(ordering: .relaxed) >= 10, "the other thread closed no run midway in 30 s")
    }
}
