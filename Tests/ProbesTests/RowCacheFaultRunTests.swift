import Foundation
import ObjectGraph
@_spi(FastPath) @testable import Probes
import Testing

/// A context's run of row-cache faults, extended in place: what continues
/// it, what its end carries, and that a run closed by another thread while
/// it grows loses no fault and counts none twice.
@Suite struct RowCacheFaultRunTests {
    private final class Entity {}
    private let person = Entity()
    private let selfie = Entity()
    private let loop = CallSite(file: "App/Loop.swift", line: 10)

    private func first(_ key: Int64) -> FaultEvent {
        FaultEvent(
            start: 0, durationNanoseconds: 5, thread: 1, context: "main", entity: "Person", primaryKey: key,
            source: .rowCache, callSite: loop)
    }

    @Test func faultsOfTheEntityAndCallSiteItExpectsGrowTheRun() throws {
        let run = RowCacheFaultRun()
        let entity = ObjectIdentifier(person)
        // Closed until the sink opens it.
        #expect(!run.extend(entity: entity, callSite: loop, durationNanoseconds: 1))
        run.expect(entity: entity, callSite: loop)
        #expect(!run.extend(entity: entity, callSite: loop, durationNanoseconds: 1))
        run.open(first: first(1), durationNanoseconds: 5)
        #expect(run.extend(entity: entity, callSite: loop, durationNanoseconds: 7))
        // The same file and line from another string are the same site.
        let sameSite = CallSite(file: String("App/Loop.swift".reversed().reversed()), line: 10)
        #expect(run.extend(entity: entity, callSite: sameSite, durationNanoseconds: 11))
        // Another entity, line or file does not continue it, and changes nothing.
        #expect(!run.extend(entity: ObjectIdentifier(selfie), callSite: loop, durationNanoseconds: 100))
        #expect(!run.extend(entity: entity, callSite: CallSite(file: "App/Loop.swift", line: 11), durationNanoseconds: 100))
        #expect(!run.extend(entity: entity, callSite: CallSite(file: "App/Other.swift", line: 10), durationNanoseconds: 100))
        let pending = try #require(run.pending)
        #expect(pending.count == 3 && pending.durationNanoseconds == 23)
        let closed = try #require(run.close())
        #expect(closed.first.primaryKey == 1)
        #expect(closed.count == 3)
        #expect(closed.durationNanoseconds == 23)
        // Closed: nothing more is counted, and a second close has nothing.
        #expect(!run.extend(entity: entity, callSite: loop, durationNanoseconds: 1))
        #expect(run.close() == nil)
        #expect(run.pending == nil)
    }

    /// A run whose time would pass what its word holds (about 18 minutes)
    /// ends instead: the fault starts the next run.
    @Test func aRunThatWouldOverflowItsTimeRefusesTheFault() throws {
        let run = RowCacheFaultRun()
        let entity = ObjectIdentifier(person)
        run.expect(entity: entity, callSite: loop)
        run.open(first: first(1), durationNanoseconds: (1 << 40) - 10)
        #expect(run.extend(entity: entity, callSite: loop, durationNanoseconds: 9))
        #expect(!run.extend(entity: entity, callSite: loop, durationNanoseconds: 2))
        let closed = try #require(run.close())
        #expect(closed.count == 2 && closed.durationNanoseconds == (1 << 40) - 1)
    }

    /// One thread faults, another closes the run whenever it likes (as the
    /// sink does when it traces another thread's event). Every fault is in
    /// exactly one closed run: the runs' counts and times add up to the
    /// faults'.
    @Test func aRunClosedByAnotherThreadWhileItGrowsLosesNoFault() throws {
        let run = RowCacheFaultRun()
        let race = RunRace { run.close().map { ($0.count, $0.durationNanoseconds) } }
        let entity = ObjectIdentifier(person)
        let site = loop
        var nanoseconds: UInt64 = 0
        var fault = 0
        while race.goesOn(made: fault, atLeast: 200_000) {
            let duration = UInt64(fault % 7 + 1)
            nanoseconds += duration
            defer { fault += 1 }
            if run.extend(entity: entity, callSite: site, durationNanoseconds: duration) { continue }
            // What the sink does to start a run: end the pending one, open this.
            run.expect(entity: entity, callSite: site)
            let event = first(Int64(fault))
            race.lock.withLock {
                race.closeLocked()
                run.open(first: event, durationNanoseconds: duration)
            }
        }
        let closedByOther = race.finish()
        #expect(race.count == UInt64(fault))
        #expect(race.nanoseconds == nanoseconds)
        #expect(closedByOther >= 10, "the other thread closed no run midway in 30 s")
    }

    /// A sink that keeps runs, switched on and off like a tracepoint.
    private final class RunKeepingSink: FastPathEventSink, @unchecked Sendable {
        let lock = PlainLock()
        var enabled = true
        var open: RowCacheFaultRun?
        var runs: [UInt64] = []

        func isEnabled(_ kind: EventKind) -> Bool { kind == .fault && lock.withLock { enabled } }
        func receive(_ event: Event) {}
        var keepsRowCacheFaultRuns: Bool { true }
        func startRowCacheFaultRun(_ run: RowCacheFaultRun, durationNanoseconds: UInt64, event: () -> FaultEvent) {
            let first = event()
            lock.withLock {
                closeOpen()
                run.open(first: first, durationNanoseconds: durationNanoseconds)
                open = run
            }
        }
        func flush() { lock.withLock { closeOpen() } }
        private func closeOpen() {
            if let closed = open?.close() { runs.append(closed.count) }
            open = nil
        }
    }

    /// Beside a sink that counts every fault (the recorder), the keeper's
    /// run grows only while the keeper wants faults: those made while it
    /// is off are the recorder's alone, and do not join a run left open.
    @Test func aKeeperSwitchedOffGetsNoFaultInItsOpenRun() throws {
        let keeper = RunKeepingSink()
        let recorder = Recorder(bufferCapacity: 0)
        #expect(MultiplexSink([keeper, recorder]).rowCacheFaultRunKeeper === keeper)
        let path = try Workload.populate(people: 10, selfies: 1, networks: 1)
        let store = try Workload.store(path, sinks: [keeper, recorder])
        let context = ObjectContext(store: store, name: "loop")
        try context.perform {
            let people = Array(try context.fetch(FetchRequest<ManagedObject>(entityName: "Person")))
            for person in people { _ = try person.value(forKey: "name") }
        }
        #expect(keeper.runs == [10])
        try context.perform {
            let people = Array(try context.fetch(FetchRequest<ManagedObject>(entityName: "Person")))
            for person in people { context.refresh(person, mergeChanges: false) }
            for person in people.prefix(4) { _ = try person.value(forKey: "name") }
            keeper.lock.withLock { keeper.enabled = false }
            for person in people.dropFirst(4) { _ = try person.value(forKey: "name") }
            keeper.lock.withLock { keeper.enabled = true }
        }
        #expect(keeper.runs == [10, 4])
        #expect(recorder.counters[.cacheHits] == 20)
    }
}
