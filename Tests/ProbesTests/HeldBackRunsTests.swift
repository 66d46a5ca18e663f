@testable import Probes
import Testing

/// The LTTng sink's runs: which faults and refreshes continue a run, what
/// an ended run carries, and the order in which pending runs end.
@Suite struct HeldBackRunsTests {
    static func fault(_ key: Int64, context: String = "main", entity: String = "Person", line: Int = 10, duration: UInt64 = 5)
        -> FaultEvent
    {
        FaultEvent(
            start: 0, durationNanoseconds: duration, thread: 1, context: context, entity: entity, primaryKey: key,
            source: .rowCache, callSite: CallSite(file: "App/Loop.swift", line: line))
    }

    static func refresh(_ context: String, registered: Int) -> ContextEvent {
        ContextEvent(start: 0, thread: 1, context: context, kind: .refresh, objectsRegistered: registered, objectsRegisteredPeak: 9)
    }

    @Test func faultsOfOneContextEntityAndCallSiteMakeOneRun() throws {
        var runs = HeldBackRuns()
        var ends: [Bool] = []
        for (key, duration) in [(1, 5), (2, 7), (3, 11)] as [(Int64, UInt64)] {
            ends.append(runs.add(rowCacheFault: Self.fault(key, duration: duration)) != nil)
        }
        #expect(ends == [false, false, false])
        // Another call site ends the run: its first key, count and total time.
        let next = runs.add(rowCacheFault: Self.fault(4, line: 11))
        let ended = try #require(next)
        #expect(ended.first.primaryKey == 1)
        #expect(ended.count == 3)
        #expect(ended.durationNanoseconds == 23)
        #expect(runs.faults?.first.primaryKey == 4)
        #expect(runs.faults?.count == 1)
    }

    @Test func anotherContextOrEntityEndsAFaultRun() {
        var runs = HeldBackRuns()
        _ = runs.add(rowCacheFault: Self.fault(1))
        #expect(runs.add(rowCacheFault: Self.fault(2, entity: "Selfie"))?.count == 1)
        #expect(runs.add(rowCacheFault: Self.fault(3, context: "background", entity: "Selfie"))?.count == 1)
    }

    /// The sink's path without an event: a fault that continues the run
    /// adds to it from its parts; any other changes nothing, and asks for
    /// the call site only once context and entity match.
    @Test func aFaultExtendsTheRunFromItsPartsOnlyIfItContinuesIt() {
        var runs = HeldBackRuns()
        var asked = 0
        func extend(context: String = "main", entity: String = "Person", line: Int = 10, duration: UInt64 = 3) -> Bool {
            runs.extendFaults(entity: entity, context: context, callSite: {
                asked += 1
                return CallSite(file: "App/Loop.swift", line: line)
            }, durationNanoseconds: duration)
        }
        #expect(!extend())
        #expect(asked == 0 && runs.isEmpty)
        _ = runs.add(rowCacheFault: Self.fault(1, duration: 5))
        #expect(extend(duration: 7))
        #expect(!extend(entity: "Selfie"))
        #expect(!extend(context: "background"))
        #expect(asked == 1)
        #expect(!extend(line: 11))
        #expect(asked == 2)
        #expect(runs.faults?.count == 2)
        #expect(runs.faults?.durationNanoseconds == 12)
        #expect(runs.faults?.first.primaryKey == 1)
    }

    @Test func refreshesOfOneContextMakeOneRunWithTheLastCounts() throws {
        var runs = HeldBackRuns()
        let first = runs.add(refresh: Self.refresh("main", registered: 3))
        let second = runs.add(refresh: Self.refresh("main", registered: 2))
        #expect(first == nil && second == nil)
        let next = runs.add(refresh: Self.refresh("background", registered: 1))
        let ended = try #require(next)
        #expect(ended.count == 2)
        #expect(ended.last.objectsRegistered == 2)
    }

    @Test func aRefreshExtendsTheRunFromItsPartsOnlyIfOfTheSameContext() throws {
        var runs = HeldBackRuns()
        func extend(_ context: String, registered: Int, peak: Int) -> Bool {
            runs.extendRefreshes(context: context, objectsRegistered: registered, objectsRegisteredPeak: peak)
        }
        #expect(!extend("main", registered: 3, peak: 9))
        #expect(runs.isEmpty)
        _ = runs.add(refresh: Self.refresh("main", registered: 3))
        #expect(extend("main", registered: 2, peak: 10))
        #expect(!extend("background", registered: 1, peak: 10))
        let run = try #require(runs.refreshes)
        #expect(run.count == 2)
        #expect(run.last.objectsRegistered == 2 && run.last.objectsRegisteredPeak == 10)
        #expect(run.last.context == "main")
    }

    @Test func pendingRunsEndInTheOrderTheyStarted() {
        var runs = HeldBackRuns()
        _ = runs.add(refresh: Self.refresh("main", registered: 1))
        _ = runs.add(rowCacheFault: Self.fault(1))
        _ = runs.add(refresh: Self.refresh("main", registered: 1))
        _ = runs.add(rowCacheFault: Self.fault(2))
        let ended = runs.endAll()
        #expect(ended.count == 2)
        guard case .refreshes(let refreshes) = ended.first, case .faults(let faults) = ended.last else {
            Issue.record("the refresh run started first: \(ended)")
            return
        }
        #expect(refreshes.count == 2 && faults.count == 2)
        #expect(runs.isEmpty)
        #expect(runs.endAll().isEmpty)
    }

    /// A context's run (``RowCacheFaultRun``) is the pending fault run like
    /// a held one: a held fault ends it, it ends a held one, it continues
    /// in place (no held fault continues it) and it is closed when it ends.
    @Test func aContextsRunTakesThePlaceOfTheHeldFaultRun() throws {
        final class Entity {}
        let entity = Entity()
        let site = CallSite(file: "App/Loop.swift", line: 10)
        var runs = HeldBackRuns()
        _ = runs.add(rowCacheFault: Self.fault(1))
        let run = RowCacheFaultRun()
        run.expect(entity: ObjectIdentifier(entity), callSite: site)
        let heldEnded = runs.add(run: run, first: Self.fault(2), durationNanoseconds: 5)
        let held = try #require(heldEnded)
        #expect(held.first.primaryKey == 1 && held.count == 1)
        #expect(run.extend(entity: ObjectIdentifier(entity), callSite: site, durationNanoseconds: 7))
        // The same context, entity and call site sent one by one: not the context's run.
        let extendedOneByOne = runs.extendFaults(entity: "Person", context: "main", callSite: { site }, durationNanoseconds: 1)
        #expect(!extendedOneByOne)
        #expect(runs.faults?.count == 2)
        let endedByHeld = runs.add(rowCacheFault: Self.fault(3))
        let ended = try #require(endedByHeld)
        #expect(ended.first.primaryKey == 2 && ended.count == 2 && ended.durationNanoseconds == 12)
        #expect(!run.extend(entity: ObjectIdentifier(entity), callSite: site, durationNanoseconds: 7))
        // Ended with the others, in the order the runs started.
        _ = runs.add(refresh: Self.refresh("main", registered: 1))
        let endedByRun = runs.add(run: run, first: Self.fault(4), durationNanoseconds: 5)
        #expect(endedByRun?.first.primaryKey == 3)
        #expect(run.extend(entity: ObjectIdentifier(entity), callSite: site, durationNanoseconds: 1))
        let all = runs.endAll()
        guard all.count == 2, case .refreshes = all[0], case .faults(let faults) = all[1] else {
            Issue.record("the refresh run started first: \(all)")
            return
        }
        #expect(faults.first.primaryKey == 4 && faults.count == 2 && faults.durationNanoseconds == 6)
        #expect(runs.isEmpty && run.pending == nil)
    }

    /// A context's refresh run (``RefreshRun``) is the pending refresh run
    /// like a held one: a held refresh ends it and it ends a held one.
    @Test func aContextsRefreshRunTakesThePlaceOfTheHeldOne() throws {
        var runs = HeldBackRuns()
        _ = runs.add(refresh: Self.refresh("main", registered: 1))
        let run = RefreshRun()
        let endedByRun = runs.add(run: run, first: Self.refresh("background", registered: 2))
        #expect(endedByRun?.count == 1 && endedByRun?.last.context == "main")
        #expect(run.extend(objectsRegistered: 3, objectsRegisteredPeak: 9))
        // The context's refreshes sent one by one do not continue its run.
        let extendedOneByOne = runs.extendRefreshes(context: "background", objectsRegistered: 4, objectsRegisteredPeak: 9)
        #expect(!extendedOneByOne)
        #expect(runs.refreshes?.count == 2)
        let endedByHeld = runs.add(refresh: Self.refresh("main", registered: 5))
        let ended = try #require(endedByHeld)
        #expect(ended.count == 2 && ended.last.context == "background" && ended.last.objectsRegistered == 3)
        #expect(!run.extend(objectsRegistered: 6, objectsRegisteredPeak: 9))
        _ = runs.add(run: run, first: Self.refresh("background", registered: 7))
        #expect(runs.endAll().count == 1)
        #expect(runs.isEmpty && run.pending == nil)
    }
}
