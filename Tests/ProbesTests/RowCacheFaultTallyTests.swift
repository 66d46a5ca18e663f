import Foundation
import ObjectGraph
@_spi(FastPath) import Probes
import Synchronization
import Testing

/// Row-cache faults counted in each context's cell and read by the
/// recorder as totals: exact, once each, for every reader.
@Suite struct RowCacheFaultTallyTests {
    /// Reads every selfie's name, refreshes them all and reads them again:
    /// `2 × selfies` row-cache faults after the fetch.
    static func faultLoop(_ context: ObjectContext) throws {
        try context.perform {
            let selfies = Array(try context.fetch(FetchRequest<ManagedObject>(entityName: "Selfie")))
            for selfie in selfies { _ = try selfie.value(forKey: "name") }
            for selfie in selfies { context.refresh(selfie, mergeChanges: false) }
            for selfie in selfies { _ = try selfie.value(forKey: "name") }
        }
    }

    /// The file opened with `sinks` and a measurement slot.
    static func measurableStore(_ path: String, sinks: [any EventSink]) throws -> (Store, MeasurementSlot) {
        var configuration = StoreConfiguration()
        configuration.sinks = sinks
        configuration.allowsMeasurement = true
        let store = try Store(model: Workload.model, location: .file(path), configuration: configuration)
        return (store, try #require(store.measurementSlot))
    }

    static func rowCacheFaults(_ sink: InMemorySink) -> Int {
        sink.events.filter { event in
            if case .fault(let e) = event { return e.source == .rowCache }
            return false
        }.count
    }

    @Test func aCellCountsByEntityAndTheTallyKeepsARetiredCell() {
        let tally = RowCacheFaultTally(entityNames: ["Person", "Selfie"])
        let first = tally.makeCell()
        let second = tally.makeCell()
        first.count(entity: 1, nanoseconds: 10)
        first.count(entity: 1, nanoseconds: 5)
        second.count(entity: 0, nanoseconds: 7)
        var expected = RowCacheFaultCounts(entities: 2)
        expected.faults = [1, 2]
        expected.nanoseconds = 22
        #expect(tally.counts() == expected)
        let baseline = tally.counts()
        tally.retire(first)
        // Retiring moves the counts, it does not lose or double them.
        #expect(tally.counts() == expected)
        tally.retire(first)
        #expect(tally.counts() == expected)
        second.count(entity: 0, nanoseconds: 3)
        var since = RowCacheFaultCounts(entities: 2)
        since.faults = [1, 0]
        since.nanoseconds = 3
        #expect(tally.counts().since(baseline) == since)
        #expect(!tally.isClosed)
        tally.close()
        #expect(tally.isClosed)
    }

    @Test func theRecorderReadsRowCacheFaultsFromTheTally() throws {
        let path = try Workload.populate(people: 2, selfies: 5, networks: 1)
        let recorder = Recorder()
        #expect(recorder.rowCacheFaultDelivery == .tally)
        let store = try Workload.store(path, sinks: [recorder])
        try Self.faultLoop(ObjectContext(store: store, name: "main"))
        let counters = recorder.counters
        #expect(counters.faultsFired == 10)
        #expect(counters.cacheHits == 10)
        #expect(counters.cacheMisses == 0)
        #expect(recorder.totals.counters == counters)
        let snapshot = recorder.snapshot()
        #expect(snapshot.counters == counters)
        #expect(snapshot.rowCacheNanoseconds > 0)
        #expect(snapshot.evidence.faultedEntities == ["Selfie"])
    }

    @Test func aSinkTakingEachFaultGetsEveryOneAndTheRecorderCountsEachOnce() throws {
        let path = try Workload.populate(people: 2, selfies: 5, networks: 1)
        let recorder = Recorder()
        let each = InMemorySink()
        let store = try Workload.store(path, sinks: [recorder, each])
        try Self.faultLoop(ObjectContext(store: store, name: "main"))
        #expect(Self.rowCacheFaults(each) == 10)
        #expect(recorder.counters.cacheHits == 10)
        #expect(recorder.counters.faultsFired == 10)
    }

    @Test func aRecorderWithABufferKeepsEachRowCacheFault() throws {
        let path = try Workload.populate(people: 2, selfies: 5, networks: 1)
        let recorder = Recorder(bufferCapacity: 1_000)
        #expect(recorder.rowCacheFaultDelivery == .eachFault)
        let store = try Workload.store(path, sinks: [recorder])
        try Self.faultLoop(ObjectContext(store: store, name: "main"))
        let snapshot = recorder.snapshot()
        #expect(snapshot.counters.cacheHits == 10)
        let kept = snapshot.events.filter { event in
            if case .fault(let e) = event { return e.source == .rowCache }
            return false
        }
        #expect(kept.count == 10)
    }

    @Test func countsOutliveTheirContextAndStartAgainAtAReset() throws {
        let path = try Workload.populate(people: 2, selfies: 4, networks: 1)
        let recorder = Recorder()
        let store = try Workload.store(path, sinks: [recorder])
        do {
            let context = ObjectContext(store: store, name: "gone")
            try Self.faultLoop(context)
        }
        #expect(recorder.counters.cacheHits == 8)
        recorder.reset()
        #expect(recorder.counters.cacheHits == 0)
        #expect(recorder.snapshot().evidence.faultedEntities.isEmpty)
        let context = ObjectContext(store: store, name: "next")
        try context.perform {
            let selfies = Array(try context.fetch(FetchRequest<ManagedObject>(entityName: "Selfie")))
            for selfie in selfies.prefix(3) { _ = try selfie.value(forKey: "name") }
        }
        #expect(recorder.counters.cacheHits == 3)
        #expect(recorder.counters.faultsFired == 3)
    }

    /// A recorder in the measurement slot counts from the moment it is
    /// attached until it is detached, while the store's own recorder
    /// counts throughout.
    @Test func aMeasurementSlotsRecorderCountsWhileAttached() throws {
        let path = try Workload.populate(people: 1, selfies: 6, networks: 1)
        let throughout = Recorder()
        let (store, slot) = try Self.measurableStore(path, sinks: [throughout])
        let measured = Recorder()
        let context = ObjectContext(store: store, name: "main")
        try context.perform {
            let selfies = Array(try context.fetch(FetchRequest<ManagedObject>(entityName: "Selfie")))
            for selfie in selfies.prefix(2) { _ = try selfie.value(forKey: "name") }
            #expect(slot.attach(measured))
            for selfie in selfies.dropFirst(2) { _ = try selfie.value(forKey: "name") }
            slot.detach()
            for selfie in selfies { context.refresh(selfie, mergeChanges: false) }
            for selfie in selfies { _ = try selfie.value(forKey: "name") }
        }
        #expect(measured.counters.cacheHits == 4)
        #expect(measured.counters.faultsFired == 4)
        #expect(throughout.counters.cacheHits == 12)
    }

    /// A recorder that is a sink of the store and is attached to its
    /// measurement slot too reads on as a sink once detached.
    @Test func aStoresOwnRecorderDetachedFromItsSlotCountsOn() throws {
        let path = try Workload.populate(people: 1, selfies: 5, networks: 1)
        let recorder = Recorder()
        let (store, slot) = try Self.measurableStore(path, sinks: [recorder])
        #expect(slot.attach(recorder))
        slot.detach()
        try Self.faultLoop(ObjectContext(store: store, name: "main"))
        #expect(recorder.counters.cacheHits == 10)
    }

    /// A recorder with an event buffer in the slot takes each fault (and
    /// keeps it); the same recorder attached again starts a new window.
    @Test func theSlotGivesEachFaultToABufferAndStartsAgainAtEachAttach() throws {
        let path = try Workload.populate(people: 1, selfies: 4, networks: 1)
        let (store, slot) = try Self.measurableStore(path, sinks: [])
        let keeping = Recorder(bufferCapacity: 100)
        let counting = Recorder()
        let context = ObjectContext(store: store, name: "main")
        try context.perform {
            let selfies = Array(try context.fetch(FetchRequest<ManagedObject>(entityName: "Selfie")))
            #expect(slot.attach(keeping))
            for selfie in selfies { _ = try selfie.value(forKey: "name") }
            slot.detach()
            for selfie in selfies { context.refresh(selfie, mergeChanges: false) }
            #expect(slot.attach(counting))
            for selfie in selfies.prefix(3) { _ = try selfie.value(forKey: "name") }
            slot.detach()
            for selfie in selfies { context.refresh(selfie, mergeChanges: false) }
            #expect(slot.attach(counting))
            for selfie in selfies.prefix(1) { _ = try selfie.value(forKey: "name") }
            slot.detach()
        }
        let kept = keeping.snapshot()
        #expect(kept.counters.cacheHits == 4)
        #expect(kept.events.filter { if case .fault = $0 { true } else { false } }.count == 4)
        // Three faults in the first window, one in the second.
        #expect(counting.counters.cacheHits == 4)
        #expect(counting.counters.faultsFired == 4)
    }

    /// A row-cache fault sent with a tally the recorder does not read is
    /// counted; one of a tally it reads is not (the tally has it).
    @Test func aFaultOfAnotherStoresTallyIsCounted() {
        let read = RowCacheFaultTally(entityNames: ["Selfie"])
        let other = RowCacheFaultTally(entityNames: ["Selfie"])
        let recorder = Recorder()
        recorder.countRowCacheFaults(from: read)
        func send(_ tally: RowCacheFaultTally) {
            recorder.receiveRowCacheFault(
                entity: "Selfie", primaryKey: 1, context: "main", durationNanoseconds: 5, tally: tally,
                callSite: { CallSite(file: "F.swift", line: 1) }
            ) {
                FaultEvent(
                    start: 0, durationNanoseconds: 5, thread: 1, context: "main", entity: "Selfie", primaryKey: 1, source: .rowCache,
                    callSite: CallSite(file: "F.swift", line: 1), values: nil, missReason: nil, origin: nil)
            }
        }
        send(read)
        #expect(recorder.counters.cacheHits == 0)
        send(other)
        #expect(recorder.counters.cacheHits == 1)
        #expect(recorder.counters.faultsFired == 1)
    }

    /// One recorder in two stores adds them up, and keeps the counts of a
    /// store that is gone.
    @Test func oneRecorderAddsUpTwoStores() throws {
        let recorder = Recorder()
        let second = try Workload.store(try Workload.populate(people: 1, selfies: 4, networks: 1), sinks: [recorder])
        do {
            let first = try Workload.store(try Workload.populate(people: 1, selfies: 3, networks: 1), sinks: [recorder])
            try Self.faultLoop(ObjectContext(store: first, name: "first"))
        }
        try Self.faultLoop(ObjectContext(store: second, name: "second"))
        #expect(recorder.counters.cacheHits == 14)
        #expect(recorder.snapshot().counters.cacheHits == 14)
        #expect(recorder.counters.cacheHits == 14)
    }

    /// Contexts on their own threads at once, each with its own cell: the
    /// totals once they are done are exact.
    @Test func contextsOnManyThreadsAddUpExactly() throws {
        let path = try Workload.populate(people: 2, selfies: 20, networks: 1)
        let recorder = Recorder()
        let store = try Workload.store(path, sinks: [recorder])
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 4) { number in
            do {
                let context = ObjectContext(store: store, name: "worker \(number)")
                for _ in 0..<25 { try Self.faultLoop(context) }
            } catch {
                failures.add(1, ordering: .relaxed)
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        // 4 contexts × 25 loops × 2 passes over 20 selfies.
        #expect(recorder.counters.cacheHits == 4_000)
        #expect(recorder.counters.faultsFired == 4_000)
    }
}
