import Foundation
@testable import Probes
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

    /// One thread refreshes, another closes the run whenever it likes: the
    /// closed runs' counts add up to the refreshes.
    @Test func aRunClosedByAnotherThreadWhileItGrowsLosesNoRefresh() {
        let run = RefreshRun()
        let race = RunRace { run.close().map { ($0.count, 0) } }
        var number = 0
        while race.goesOn(made: number, atLeast: 200_000) {
            defer { number += 1 }
            if run.extend(objectsRegistered: number, objectsRegisteredPeak: number) { continue }
            let event = refresh(registered: number, peak: number)
            race.lock.withLock {
                race.closeLocked()
                run.open(first: event)
            }
        }
        let closedByOther = race.finish()
        #expect(race.count == UInt64(number))
        #expect(closedByOther >= 10, "the other thread closed no run midway in 30 s")
    }
}
