import Foundation
import ObjectGraph
@_spi(FastPath) import Probes
import Testing

@Suite struct RecorderTests {
    /// `vmSteps` is SQLite's VM step counter summed over the statements: the
    /// sum of the statements' own (the recorder that keeps events and the
    /// one that adds statements up from their figures agree), and the same
    /// work gives the same count again.
    @Test func vmStepsAreTheStatementsSum() throws {
        let path = try Workload.populate(people: 4, selfies: 6, networks: 3)
        func run() throws -> (counting: Recorder, keeping: Recorder) {
            let counting = Recorder()
            let keeping = Recorder(bufferCapacity: 50_000)
            let store = try Workload.store(path, sinks: [counting, keeping])
            let context = ObjectContext(store: store, name: "main")
            try context.perform {
                for selfie in try context.fetch(FetchRequest<ManagedObject>(entityName: "Selfie")) {
                    for person in try selfie.objects(forKey: "people") { _ = try person.value(forKey: "name") }
                }
            }
            return (counting, keeping)
        }
        let first = try run()
        let statements = first.keeping.snapshot().events.compactMap { event -> SQLEvent? in
            if case .sql(let e) = event { return e }
            return nil
        }
        #expect(statements.count > 10)
        #expect(first.keeping.counters.vmSteps == statements.reduce(0) { $0 + $1.vmSteps })
        #expect(first.counting.counters.vmSteps == first.keeping.counters.vmSteps)
        #expect(first.counting.counters.vmSteps > statements.count)
        #expect(try run().counting.counters.vmSteps == first.counting.counters.vmSteps)
    }

    /// A prefetching fetch with two key paths, then touching every object.
    @Test func countersOfAPrefetchingFetchAreExact() throws {
        let path = try Workload.populate(people: 4, selfies: 6, networks: 3)
        let recorder = Recorder(bufferCapacity: 50_000)
        let store = try Workload.store(path, sinks: [recorder])
        let context = ObjectContext(store: store, name: "main")
        try context.perform {
            var request = FetchRequest<ManagedObject>(entityName: "Selfie")
            request.relationshipKeyPathsForPrefetching = ["people", "networks"]
            for selfie in try context.fetch(request) {
                _ = try selfie.value(forKey: "name")
                for person in try selfie.objects(forKey: "people") { _ = try person.value(forKey: "name") }
                for network in try selfie.objects(forKey: "networks") { _ = try network.value(forKey: "name") }
            }
        }
        var expected = Counters()
        expected.fetches = 1
        expected.sqlStatements = 6  // BEGIN, selfies, 2 per many-to-many key path
        expected.rowsRead = 6 + (24 + 4) + (18 + 3)
        expected.fullScanSteps = 5  // the scan of 6 selfies steps 5 times
        expected.objectsRegisteredPeak = 0  // known from context events, and none came
        // SQLite's own figure (it changes with SQLite's version): the sum of
        // the statements' own, checked in vmStepsAreTheStatementsSum.
        #expect(recorder.counters.vmSteps > 0)
        expected.vmSteps = recorder.counters.vmSteps
        #expect(recorder.counters == expected)

        let snapshot = recorder.snapshot()
        #expect(snapshot.statements.map(\.purpose).sorted() == [
            "fetch Selfie", "prefetch Selfie.networks", "prefetch Selfie.networks", "prefetch Selfie.people",
            "prefetch Selfie.people", "transaction",
        ])
        #expect(snapshot.statements.allSatisfy { $0.count == 1 })
        #expect(snapshot.events.count == 7)
    }

    @Test func faultsHitsMissesAndSaves() throws {
        let path = try Workload.populate(people: 2, selfies: 3, networks: 1)
        let recorder = Recorder()
        let store = try Workload.store(path, sinks: [recorder])
        let context = ObjectContext(store: store, name: "main")
        try context.perform {
            let selfies = Array(try context.fetch(FetchRequest<ManagedObject>(entityName: "Selfie")))
            for selfie in selfies { _ = try selfie.value(forKey: "name") }  // 3 hits
            let people = try selfies[0].objects(forKey: "people")  // a relationship fault (miss)
            for person in people { _ = try person.value(forKey: "name") }  // 2 misses
            _ = try selfies[1].objects(forKey: "people")  // another relationship fault
            try selfies[0].setValue(.integer(9), forKey: "rating")
            try context.save()
            #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Person")) == 2)
        }
        let counters = recorder.counters
        #expect(counters.fetches == 2)
        #expect(counters.faultsFired == 5)
        #expect(counters.cacheHits == 3)
        #expect(counters.relationshipFaultsFired == 2)
        #expect(counters.cacheMisses == 4)
        #expect(counters.saves == 1)
        #expect(counters.rowsWritten == 1)
        // BEGIN, fetch, relationship, 2 faults, relationship, BEGIN IMMEDIATE,
        // UPDATE, COMMIT, then COMMIT + BEGIN of the reader, count.
        #expect(counters.sqlStatements == 12)
        #expect(counters.objectsRegisteredPeak == 5)
    }

    @Test func theBufferKeepsTheMostRecentEvents() {
        let recorder = Recorder(bufferCapacity: 3)
        for number in 0..<5 {
            recorder.receive(.scenario(ScenarioEvent(start: UInt64(number), thread: 1, scenario: "s", phase: .step, step: "\(number)", iteration: 0)))
        }
        let snapshot = recorder.snapshot()
        #expect(snapshot.events.map(\.start) == [2, 3, 4])
        #expect(snapshot.droppedEvents == 2)
        recorder.reset()
        #expect(recorder.snapshot().events.isEmpty)
    }
}

@Suite struct PrefetchUsageTests {
    /// A context reports, when it goes, which prefetched relationships were read.
    @Test func prefetchUsageIsReportedWhenTheContextGoes() throws {
        let path = try Workload.populate(people: 2, selfies: 3, networks: 1)
        let sink = InMemorySink()
        let store = try Workload.store(path, sinks: [sink])
        var fetchLine = 0
        do {
            let context = ObjectContext(store: store, name: "main")
            try context.perform {
                var request = FetchRequest<ManagedObject>(entityName: "Selfie")
                request.relationshipKeyPathsForPrefetching = ["people", "networks"]
                fetchLine = #line + 1
                let selfies = Array(try context.fetch(request))
                _ = try selfies[0].objects(forKey: "people")
                _ = try selfies[0].objects(forKey: "people")
            }
        }
        let usages = sink.events.compactMap { event -> PrefetchUsage? in
            if case .context(let e) = event, e.kind == .prefetchUsage { return e.prefetchUsage }
            return nil
        }
        let site = CallSite(file: "ProbesTests/RecorderTests.swift", line: fetchLine)
        #expect(usages == [
            PrefetchUsage(relationship: "Selfie.networks", prefetched: 3, read: 0, callSite: site),
            PrefetchUsage(relationship: "Selfie.people", prefetched: 3, read: 1, callSite: site),
        ])
        #expect(usages.map(\.description) == [
            "Selfie.networks prefetched=3 read=0 at ProbesTests/RecorderTests.swift:\(fetchLine)",
            "Selfie.people prefetched=3 read=1 at ProbesTests/RecorderTests.swift:\(fetchLine)",
        ])
    }
}

@Suite struct RefreshEventTests {
    /// Context events of one kind that reached a sink.
    func refreshes(_ events: [Event]) -> Int {
        events.filter { if case .context(let e) = $0 { return e.kind == .refresh } else { return false } }.count
    }

    /// Refreshes three objects with `sinks` on the store.
    func refreshThree(_ sinks: [any EventSink]) throws {
        let path = try Workload.populate(people: 3, selfies: 1, networks: 1)
        let store = try Workload.store(path, sinks: sinks)
        let context = ObjectContext(store: store, name: "main")
        try context.perform {
            for person in try context.fetch(FetchRequest<ManagedObject>(entityName: "Person")) {
                _ = try person.value(forKey: "name")
                context.refresh(person, mergeChanges: false)
            }
        }
    }

    /// An event per refreshed object goes only to sinks that ask for every
    /// context change, also when they share the store with one that cannot
    /// (which alone would make a refresh ask nothing).
    @Test func refreshEventsReachOnlyTheSinksThatAskForThem() throws {
        let asking = InMemorySink(details: [.contextChanges])
        let notAsking = InMemorySink(details: [])
        let buffered = Recorder(bufferCapacity: 100)
        let counting = Recorder(bufferCapacity: 0)
        try refreshThree([asking, notAsking, buffered, counting])
        #expect(refreshes(asking.events) == 3)
        #expect(refreshes(notAsking.events) == 0)
        #expect(refreshes(buffered.snapshot().events) == 3)

        let alone = InMemorySink(details: [])
        try refreshThree([Recorder(bufferCapacity: 0), alone])
        #expect(refreshes(alone.events) == 0)
        #expect(!MultiplexSink([Recorder(bufferCapacity: 0), alone]).possibleDetails.contains(.contextChanges))
        #expect(MultiplexSink([Recorder(bufferCapacity: 1), alone]).possibleDetails.contains(.contextChanges))
    }
}

/// A fault reaches the sinks as parts: the event is made only for a sink
/// that needs it whole, and at most once.
@Suite struct FaultPartsTests {
    final class Collector: EventSink, @unchecked Sendable {
        var faults: [FaultEvent] = []
        func receive(_ event: Event) {
            if case .fault(let e) = event { faults.append(e) }
        }
    }

    /// Keeps the context events it receives; asks for every context change
    /// if `everyChange`.
    final class ContextCollector: FastPathEventSink, @unchecked Sendable {
        let everyChange: Bool
        var events: [ContextEvent] = []
        init(everyChange: Bool) { self.everyChange = everyChange }
        var details: EventDetails { everyChange ? [.contextChanges] : [] }
        func receive(_ event: Event) {
            if case .context(let e) = event { events.append(e) }
        }
    }

    @Test func aRefreshGoesOnlyToTheSinksThatAskForEveryChangeAndIsMadeOnce() {
        let (a, b, c) = (ContextCollector(everyChange: true), ContextCollector(everyChange: false), ContextCollector(everyChange: true))
        let sinks = MultiplexSink([a, b, c])
        var made = 0
        sinks.receiveRefresh(context: "main", objectsRegistered: 4, objectsRegisteredPeak: 5) {
            made += 1
            return ContextEvent(start: 0, thread: 1, context: "main", kind: .refresh, objectsRegistered: 4, objectsRegisteredPeak: 5)
        }
        #expect(made == 1)
        #expect(a.events.map(\.objectsRegistered) == [4] && c.events.map(\.objectsRegistered) == [4])
        #expect(b.events.isEmpty)
    }

    static let fetchSite = CallSite(file: "App/List.swift", line: 12)

    /// A fault of a Person that came from run `execution` of the fetch at
    /// ``fetchSite`` through `keyPath`.
    static func event(_ source: FaultSource, keyPath: String = "author", execution: UInt64 = 1, reason: CacheMissReason? = .absent) -> FaultEvent {
        FaultEvent(
            start: 0, durationNanoseconds: 40, thread: 1, context: "main", entity: "Person", primaryKey: 7, source: source, callSite: .unknown,
            missReason: source == .database ? reason : nil,
            origin: FaultOrigin(fetchEntity: "Post", fetchSite: fetchSite, keyPath: keyPath, execution: execution))
    }

    @Test func theRecorderMakesAFaultsEventOnlyForALazyLoad() {
        let recorder = Recorder()
        var made = 0
        recorder.receiveFault(
            entity: "Person", primaryKey: 7, context: "main", source: .rowCache, durationNanoseconds: 40, callSite: { .unknown }
        ) {
            made += 1
            return Self.event(.rowCache)
        }
        #expect(made == 0)
        #expect(recorder.counters.faultsFired == 1 && recorder.counters.cacheHits == 1)
        #expect(recorder.snapshot().rowCacheNanoseconds == 40)
        #expect(recorder.snapshot().evidence.faultedEntities == ["Person"])
        #expect(recorder.snapshot().evidence.lazyLoads.isEmpty)
        // From the database: a lazy load, whose event says where its object came from.
        for _ in 0..<3 {
            recorder.receiveFault(
                entity: "Person", primaryKey: 7, context: "main", source: .database, durationNanoseconds: 40, callSite: { .unknown }
            ) {
                made += 1
                return Self.event(.database)
            }
        }
        #expect(made == 3)
        #expect(recorder.counters.cacheMisses == 3 && recorder.counters.faultsFired == 4)
        let loads = recorder.snapshot().evidence.lazyLoads[LazyLoadPath(fetchEntity: "Post", keyPath: "author", fetchSite: Self.fetchSite)]
        #expect(loads?.objectFaults == 3)
        #expect(loads?.objectFaultsPerExecution == [3: 1])
        // With a buffer of events, the event is made for every fault.
        let keeping = Recorder(bufferCapacity: 10)
        keeping.receiveFault(entity: "Person", primaryKey: 7, context: "main", source: .rowCache, durationNanoseconds: 40, callSite: { .unknown }) { Self.event(.rowCache) }
        #expect(keeping.snapshot().events.count == 1)
    }

    /// Lazy loads of two paths and several runs of their fetch,
    /// interleaved, with re-reads of stale rows: counted from parts (the
    /// recorder's way) and from events alike, execution by execution.
    @Test func lazyLoadsCountedFromPartsEqualLazyLoadsCountedFromEvents() {
        var (byParts, byEvents) = (InsightEvidence(), InsightEvidence())
        let steps: [(keyPath: String, execution: UInt64, reason: CacheMissReason)] = [
            ("author", 1, .absent), ("author", 1, .absent), ("comments", 1, .absent), ("author", 2, .absent), ("author", 1, .stale),
            ("comments", 1, .absent), ("author", 1, .absent), ("author", 3, .absent),
        ]
        for step in steps {
            let event = Self.event(.database, keyPath: step.keyPath, execution: step.execution, reason: step.reason)
            byParts.addFault(entity: "Person", source: .database) { event }
            byEvents.add(fault: event)
        }
        #expect(byParts.lazyLoads == byEvents.lazyLoads)
        let author = byParts.lazyLoads[LazyLoadPath(fetchEntity: "Post", keyPath: "author", fetchSite: Self.fetchSite)]
        // Run 1 read three authors, runs 2 and 3 one each; the stale re-read is apart.
        #expect(author?.objectFaultsPerExecution == [3: 1, 1: 2])
        #expect(author?.staleReReads == 1)
        #expect(author?.loads(inExecutionsWithAtLeast: 2).loads == 3)
        #expect(author?.loads(inExecutionsWithAtLeast: 4).loads == 0)
        let comments = byParts.lazyLoads[LazyLoadPath(fetchEntity: "Post", keyPath: "comments", fetchSite: Self.fetchSite)]
        #expect(comments?.objectFaultsPerExecution == [2: 1])
    }

    /// The engine's form: the fault's parts with its miss reason and origin.
    /// The recorder makes no event, asks for a path's read site once, and
    /// counts what the events would have counted.
    @Test func theRecorderCountsALazyLoadFromItsPartsWithoutAnEvent() {
        let recorder = Recorder()
        var (events, sites, origins) = (0, 0, 0)
        var byEvents = InsightEvidence()
        let steps: [(keyPath: String, execution: UInt64, reason: CacheMissReason)] = [
            ("author", 1, .absent), ("author", 1, .absent), ("comments", 1, .absent), ("author", 2, .stale), ("author", 2, .absent),
        ]
        for step in steps {
            let event = Self.event(.database, keyPath: step.keyPath, execution: step.execution, reason: step.reason)
            byEvents.add(fault: event)
            recorder.receiveFault(
                entity: "Person", primaryKey: 7, context: "main", source: .database, missReason: step.reason, durationNanoseconds: 40,
                origin: {
                    origins += 1
                    return event.origin
                },
                callSite: {
                    sites += 1
                    return .unknown
                }
            ) {
                events += 1
                return event
            }
        }
        #expect(events == 0)
        #expect(origins == steps.count)
        #expect(sites == 2)  // author's first load, comments' first load
        #expect(recorder.snapshot().evidence.lazyLoads == byEvents.lazyLoads)
        #expect(recorder.counters.cacheMisses == 5 && recorder.counters.faultsFired == 5)
        // Several sinks: the origin is made once per fault for all of them.
        let sinks = MultiplexSink([Recorder(), Recorder()])
        origins = 0
        sinks.receiveFault(
            entity: "Person", primaryKey: 7, context: "main", source: .database, missReason: .absent, durationNanoseconds: 40,
            origin: {
                origins += 1
                return Self.event(.database).origin
            },
            callSite: { .unknown }
        ) { Self.event(.database) }
        #expect(origins == 1)
    }

    @Test func severalSinksShareOneEvent() {
        let (a, b, recorder) = (Collector(), Collector(), Recorder())
        let sinks = MultiplexSink([a, recorder, b])
        var made = 0
        sinks.receiveFault(entity: "Person", primaryKey: 7, context: "main", source: .rowCache, durationNanoseconds: 40, callSite: { .unknown }) {
            made += 1
            return Self.event(.rowCache)
        }
        #expect(made == 1)
        #expect(a.faults.map(\.primaryKey) == [7] && b.faults.map(\.primaryKey) == [7])
        #expect(recorder.counters.cacheHits == 1)
    }

    /// Keeps the texts of the statements it receives, as the LTTng sink
    /// takes them.
    final class TextsCollector: FastPathEventSink, @unchecked Sendable {
        var texts: [StatementTexts] = []
        func receive(_ event: Event) {}
        func receiveStatement(_ parts: StatementParts, texts: () -> StatementTexts, event: () -> SQLEvent) {
            self.texts.append(texts())
        }
    }

    /// Behind a sink that made the event, the texts come from it: the
    /// bound values are rendered once.
    @Test func severalSinksShareOneStatementEventAndItsTexts() {
        let e = SQLEvent(
            start: 0, durationNanoseconds: 100, thread: 1, sql: "SELECT ? , ?", shape: "SELECT ? , ?", shapeID: 9_101,
            arguments: ["1", "'a'"], rowsReturned: 1, rowsChanged: 0, fullScanSteps: 0, sorts: 0, autoIndexes: 0, vmSteps: 5,
            purpose: "fetch", queryPlan: nil, callSite: CallSite(file: "App/Loop.swift", line: 3))
        var (madeEvents, madeTexts) = (0, 0)
        func send(to sinks: MultiplexSink) {
            sinks.receiveStatement(StatementParts(e), texts: {
                madeTexts += 1
                return StatementTexts(e)
            }) {
                madeEvents += 1
                return e
            }
        }
        let (before, after) = (TextsCollector(), TextsCollector())
        send(to: MultiplexSink([Collector(), after]))
        #expect(madeEvents == 1 && madeTexts == 0)
        #expect(after.texts.map(\.arguments) == ["1, 'a'"])
        send(to: MultiplexSink([before, Collector()]))
        #expect(madeEvents == 2 && madeTexts == 1)
        #expect(before.texts.map(\.sql) == ["SELECT ? , ?"])
    }

    /// A statement too: after the first execution of its shape and text,
    /// the recorder adds one up from its figures, with the same totals,
    /// aggregates and repetitions as from events.
    @Test func aStatementReachesTheRecorderAsItsFigures() {
        func event(_ sql: String, shapeID: Int, textID: Int, rows: Int, purpose: String = "fault", plan: [String]? = nil) -> SQLEvent {
            SQLEvent(
                start: 0, durationNanoseconds: UInt64(100 + rows), thread: 1, sql: sql, shape: sql, shapeID: shapeID, arguments: [],
                rowsReturned: rows, rowsChanged: 0, fullScanSteps: 0, sorts: 0, autoIndexes: 0, vmSteps: 10 * rows, purpose: purpose,
                queryPlan: plan, callSite: .unknown, textID: textID)
        }
        let select = "SELECT pk FROM \"Person\" WHERE pk = ?"
        let events = (0..<20).map { event(select, shapeID: 9_001, textID: 9_001, rows: $0 % 2) }
            + [event("BEGIN DEFERRED", shapeID: 9_002, textID: 9_002, rows: 0, purpose: SQLEvent.transactionPurpose)]
            + (0..<3).map { _ in event("BEGIN DEFERRED", shapeID: 9_002, textID: 9_002, rows: 0, purpose: SQLEvent.transactionPurpose) }
            + [event(select, shapeID: 9_001, textID: 9_001, rows: 1, plan: ["SEARCH Person USING INTEGER PRIMARY KEY (rowid=?)"])]
        let (byEvents, byFigures) = (Recorder(), Recorder())
        var made = 0
        for e in events {
            byEvents.receive(sql: e)
            byFigures.receiveStatement(StatementParts(e), texts: { StatementTexts(e) }) {
                made += 1
                return e
            }
        }
        // The first of each text, and the one with a plan.
        #expect(made == 3)
        let (a, b) = (byEvents.snapshot(), byFigures.snapshot())
        #expect(a.counters == b.counters)
        #expect(a.sqlNanoseconds == b.sqlNanoseconds)
        #expect(a.statements == b.statements)
        #expect(b.statements.map(\.count).sorted() == [4, 21])
        #expect(b.evidence.repetitions[select]?[[]]?.count == 21)
        #expect(a.evidence.repetitions[select]?[[]]?.count == 21)
        #expect(b.evidence.repetitions["BEGIN DEFERRED"] == nil)
        // An event without an interned text number is taken whole each time.
        var handMade = events[0]
        handMade.textID = nil
        made = 0
        for _ in 0..<2 {
            byFigures.receiveStatement(StatementParts(handMade), texts: { StatementTexts(handMade) }) {
                made += 1
                return handMade
            }
        }
        #expect(made == 2)
    }
}

/// A fault the row cache served, taken whole (a recorder that keeps
/// events): its call site, and where its object came from, as a fault
/// from the database has them.
@Suite struct RowCacheFaultEventTests {
    @Test func aRowCacheFaultsEventSaysWhereItsObjectCameFrom() throws {
        let path = try Workload.populate(people: 3, selfies: 1, networks: 1)
        let recorder = Recorder(bufferCapacity: 100)
        var configuration = StoreConfiguration()
        configuration.sinks = [recorder]
        let store = try Store(model: Workload.model, location: .file(path), configuration: configuration)
        let context = ObjectContext(store: store, name: "main")
        try context.perform {
            let people = try context.fetch(FetchRequest<ManagedObject>(entityName: "Person"))
            for person in people { context.refresh(person, mergeChanges: false) }
            for person in people { _ = try person.value(forKey: "name") }
        }
        let faults = recorder.snapshot().events.compactMap { event -> FaultEvent? in
            guard case .fault(let fault) = event else { return nil }
            return fault
        }
        #expect(faults.count == 3)
        #expect(faults.allSatisfy { $0.source == .rowCache && $0.missReason == nil })
        #expect(faults.allSatisfy { $0.origin?.fetchEntity == "Person" && $0.origin?.keyPath == "" })
        #expect(faults.allSatisfy { $0.callSite.file.hasSuffix("RecorderTests.swift") })
    }
}
