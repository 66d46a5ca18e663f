import EventSamples
import Foundation
import ObjectGraph
@_spi(FastPath) import Probes
@testable import Scenarios
import Synchronization
import Testing

/// LTTng-UST end to end: a session on a blocking channel traces
/// faultline-bench, babeltrace2 reads the trace back, and the event counts
/// must equal the recorder's counters exactly, with nothing discarded.
@Suite(.serialized) struct LTTngTests {
    @Test func traceCountsEqualTheRecorderCounters() throws {
        let (report, lines, _) = try traceBench(sinks: "lttng,recorder", objects: 1000, rounds: 20)
        let counters = try #require(report["counters"] as? [String: Int])
        let tally = TraceTally(lines)
        #expect(tally.total >= 100_000)
        // Runs of row-cache faults and refreshes are one event each; a
        // cache miss is no event.
        #expect(tally.events >= 40_000)
        tally.expectAgreement(with: counters)
        let shapes = TracedShapeCheck(lines)
        shapes.expectEachShapeOnceBeforeItsUse()
        // faultline-bench's statements are their own shapes (values bound):
        // no sql event repeats its text.
        #expect(shapes.sqlEvents == counters["sqlStatements"])
        #expect(shapes.sqlEventsWithText == 0)
    }

    /// The LTTng sink alone, as `make bench-probes` runs it: faults, cache
    /// misses, statements and context changes reach the tracepoints as
    /// fields, without event values. The trace must count what the recorder
    /// counts for the same (deterministic) workload.
    @Test func theLTTngSinkAloneTracesWhatTheRecorderCounts() throws {
        let bench = LTTngHarness.buildDirectory.appendingPathComponent("faultline-bench").path
        let recorded = try LTTngHarness.require(bench, ["--sinks", "recorder", "--objects", "200", "--rounds", "3"])
        let counters = try #require(
            (try JSONSerialization.jsonObject(with: Data(recorded.stdout.utf8)) as? [String: Any])?["counters"] as? [String: Int])
        let (_, lines, trace) = try traceBench(sinks: "lttng", objects: 200, rounds: 3)
        let tally = TraceTally(lines)
        tally.expectAgreement(with: counters)
        #expect(tally.missReasons == ["absent": counters["cacheMisses"] ?? -1])
        let shapes = TracedShapeCheck(lines)
        shapes.expectEachShapeOnceBeforeItsUse()
        // BEGIN DEFERRED, BEGIN IMMEDIATE, COMMIT, two fetches, the key
        // lookup, the relationship, the UPDATE.
        #expect(shapes.shapes.count == 8)
        #expect(shapes.sqlEventsWithText == 0)
        #expect(tally.refreshes == 200 * 3)  // every item refreshed once a round
        // Runs: each round reads every item twice from the row cache, from
        // two lines (two runs of 200), and one group (a run of 1); it
        // refreshes every item in one run.
        #expect(tally.rowCacheFaultEvents == 3 * 3)
        #expect(tally.refreshEvents == 3)
        #expect(tally.rowCacheFaults == 3 * (200 + 200 + 1))
        // Call sites are interned: each is told once, in a call_site
        // event before its first use (the bench's file is in the data
        // once per site), and every event's number resolves to its site.
        let sites = CallSiteCheck(lines)
        sites.expectEachSiteOnceBeforeItsUse()
        #expect(trace.occurrences(of: "FaultlineBench/ProbeWorkload.swift") == sites.sites.count)
        #expect(Set(sites.sites.values.map(\.file)) == ["FaultlineBench/ProbeWorkload.swift"])
        #expect(Set(sites.sites.values.map(\.module)) == ["FaultlineBench"])
        // The two fetches, the three loops of reads, the relationship,
        // the change and the save: one number each.
        #expect(sites.sites.count == 8)
        var reader = TraceCounters()
        var resolved: Set<String> = []
        var withSite = 0
        for line in lines {
            reader.consume(line)
            guard let site = reader.callSite(of: line) else { continue }
            withSite += 1
            resolved.insert(site)
        }
        #expect(withSite == sites.eventsWithSite)
        #expect(withSite > tally.events / 2)
        #expect(resolved == Set(sites.sites.values.map(\.description)))
        #expect(reader.callSites == sites.sites)
        // The sites' texts are in their call_site events only (a context
        // event's usage `detail` names the fetch's line in its own words).
        #expect(!lines.contains {
            !$0.contains(" faultline:call_site: ") && !$0.contains(" faultline:context: ") && $0.contains("ProbeWorkload.swift")
        })
    }

    /// Waits until this process's faultline tracepoints are on: the
    /// process registered with the session daemon by itself.
    private func waitUntilOn(_ sink: LTTngSink) throws {
        let deadline = Date().addingTimeInterval(30)
        while !(sink.isEnabled(.sql) && sink.isEnabled(.fault)), Date() < deadline { usleep(20_000) }
        try #require(sink.isEnabled(.sql) && sink.isEnabled(.fault), "this process's faultline tracepoints were not enabled within 30 s")
    }

    /// Runs `body` on two threads started together (numbered 0 and 1),
    /// each in a `perform` of a context of its own on `store` (named
    /// "thread 0" and "thread 1"), and waits for both; expects neither to
    /// throw. Returns their thread IDs.
    private func inContextsOnTwoThreads(
        of store: Store, _ body: @escaping @Sendable (Int, ObjectContext) throws -> Void
    ) throws -> Set<Int32> {
        let start = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let failures = Mutex<[String]>([])
        let ids = Mutex<Set<Int32>>([])
        for number in 0..<2 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                ids.withLock { _ = $0.insert(ProbeClock.threadID()) }
                start.wait()
                do {
                    let context = ObjectContext(store: store, name: "thread \(number)")
                    try context.perform { try body(number, context) }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        while ids.withLock({ $0.count }) < 2 { usleep(1_000) }
        start.signal()
        start.signal()
        group.wait()
        #expect(failures.withLock { $0 }.isEmpty)
        return ids.withLock { $0 }
    }

    /// Runs faultline-bench with `sinks` under a session of its own that
    /// records only the bench's process, on a blocking channel; returns
    /// the bench's output and the trace's lines. Fails when LTTng discarded
    /// anything.
    private func traceBench(sinks: String, objects: Int, rounds: Int) throws -> (report: [String: Any], lines: [Substring], trace: Trace) {
        var output = ""
        let trace = try traced { track in
            let bench = LTTngHarness.buildDirectory.appendingPathComponent("faultline-bench").path
            let run = try Self.runTracked(
                bench, ["--sinks", sinks, "--objects", "\(objects)", "--rounds", "\(rounds)"],
                environment: ["LTTNG_UST_ALLOW_BLOCKING": "1"], track: track)
            output = run.stdout
            return run.pid
        }
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(report["lttng"] as? String == "loaded")
        return (report, trace.lines, trace)
    }

    /// What a session recorded: babeltrace2's lines and the raw data of
    /// its streams.
    private struct Trace {
        var lines: [Substring]
        var streams: [Data]

        /// How many times `text` is in the streams as a whole string field.
        func occurrences(of text: String) -> Int {
            let needle = Data(text.utf8) + [0]
            return streams.reduce(0) { total, data in
                var count = 0
                var from = data.startIndex
                while let range = data.range(of: needle, in: from..<data.endIndex) {
                    count += 1
                    from = range.upperBound
                }
                return total + count
            }
        }
    }

    /// Runs `body` under a session of its own, on a blocking channel with
    /// each event tagged with its process and thread, recording only the
    /// process that `body` tracks (with the function it is given) and whose
    /// ID it returns: no other test's events, and none of their strings
    /// in the data. Fails when LTTng discarded anything.
    private func traced(events: String = "faultline:*", _ body: (_ track: (Int32) throws -> Void) throws -> Int32) throws -> Trace {
        let daemon = try LTTngHarness.startSessionDaemonIfNeeded()
        defer { LTTngHarness.stopSessionDaemon(daemon) }
        let session = "faultline-test-\(UUID().uuidString.prefix(8))"
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(session)
        try LTTngHarness.require("lttng", ["create", session, "--output=\(output.path)"])
        defer {
            _ = try? LTTngHarness.run("lttng", ["destroy", session])
            try? FileManager.default.removeItem(at: output)
        }
        try LTTngHarness.require("lttng", [
            "enable-channel", "--session=\(session)", "--userspace", "--blocking-timeout=inf",
            "--subbuf-size=1M", "--num-subbuf=8", "blocking",
        ])
        try LTTngHarness.require("lttng", ["enable-event", "--session=\(session)", "--userspace", "--channel=blocking", events])
        try LTTngHarness.require("lttng", [
            "add-context", "--session=\(session)", "--userspace", "--channel=blocking", "--type=vpid", "--type=vtid",
        ])
        var tracked: Int32?
        let pid = try body { pid in
            try LTTngHarness.require("lttng", ["track", "--session=\(session)", "--userspace", "--vpid=\(pid)"])
            tracked = pid
            try LTTngHarness.require("lttng", ["start", session])
        }
        #expect(tracked == pid)
        let stop = try LTTngHarness.require("lttng", ["stop", session])
        #expect(!stop.stdout.contains("discarded") && !stop.stderr.contains("discarded"), "lttng stop: \(stop.stdout) \(stop.stderr)")
        let trace = try LTTngHarness.require("babeltrace2", [output.path])
        #expect(!trace.stderr.contains("discarded"), "babeltrace2: \(trace.stderr)")
        let lines = trace.stdout.split(separator: "\n")
        #expect(lines.allSatisfy { $0.contains("vpid = \(pid),") }, "events of another process were recorded")
        var streams: [Data] = []
        if let files = FileManager.default.enumerator(at: output, includingPropertiesForKeys: nil) {
            for case let file as URL in files where file.lastPathComponent.hasPrefix("blocking_") {
                streams.append(try Data(contentsOf: file))
            }
        }
        #expect(!streams.isEmpty)
        return Trace(lines: lines, streams: streams)
    }

    /// Starts `program` held before it runs anything (a shell that waits for
    /// a line, then replaces itself with the program, keeping its process
    /// ID), calls `track` with that ID, lets it run and waits for it.
    private static func runTracked(
        _ program: String, _ arguments: [String], environment: [String: String], track: (Int32) throws -> Void
    ) throws -> (status: Int32, stdout: String, pid: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"read go && exec "$0" "$@""#, program] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let (input, out) = (Pipe(), Pipe())
        process.standardInput = input
        process.standardOutput = out
        process.standardError = FileHandle.standardError
        try process.run()
        let pid = process.processIdentifier
        do {
            try track(pid)
        } catch {
            process.terminate()
            process.waitUntilExit()
            throw error
        }
        input.fileHandleForWriting.write(Data("go\n".utf8))
        try input.fileHandleForWriting.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(program) exited \(process.terminationStatus)")
        return (process.terminationStatus, String(decoding: data, as: UTF8.self), pid)
    }

    /// Two contexts on two threads of this process run the same statements
    /// at once, each shape for the first time: each shape is traced once,
    /// before either thread's first statement of it; a statement that is
    /// its shape's text is not traced again, one that is not is traced
    /// whole each time; a fault from the database carries its miss's
    /// reason, a row-cache fault an empty one. The texts are counted in the
    /// session's raw data: babeltrace2 2.0.4 prints an empty string field
    /// as an earlier event's value of it (the source and the reason are
    /// enumerations, which it prints right).
    @Test func twoThreadsRunningTheSameShapesTraceEachShapeOnce() throws {
        // The provider must load in the test build (the error says why not).
        let sink = try LTTngSink.load().get()
        let path = try Workload.populate(people: 4, selfies: 6, networks: 2)
        let recorded = InMemorySink(details: [.sqlArguments])
        let store = try Workload.store(path, sinks: [sink, recorded])
        var threads: Set<Int32> = []
        let trace = try traced { track in
            try track(getpid())
            try waitUntilOn(sink)
            threads = try inContextsOnTwoThreads(of: store) { _, context in
                for _ in 0..<20 {
                    // A LIKE with inner wildcards compiles to a
                    // call with literals: a text not its shape's.
                    let selfies = Array(try context.fetch(FetchRequest<ManagedObject>(
                        entityName: "Selfie", predicate: Key("name").like("*e*ie*") || Key("rating") < 5)))
                    for selfie in selfies { _ = try selfie.value(forKey: "name") }
                    for person in try selfies[0].objects(forKey: "people") { _ = try person.value(forKey: "name") }
                    context.reset()
                }
            }
            return getpid()
        }
        let shapes = TracedShapeCheck(trace.lines)
        shapes.expectEachShapeOnceBeforeItsUse()
        // The call sites the two threads share, each told once, before
        // either thread's first event of it.
        let sites = CallSiteCheck(trace.lines)
        sites.expectEachSiteOnceBeforeItsUse()
        #expect(Set(sites.sites.values.filter(\.isKnown).map(\.file)) == ["ProbesTests/LTTngTests.swift"])
        let events = recorded.events
        let statements = recorded.statements
        // Both threads ran the shapes each runs every time (the fetch;
        // which thread reads a row or a relationship from the database,
        // and which from the row cache they share, is timing).
        #expect(threads.count == 2)
        let fetch = try #require(statements.first { $0.sql.contains("faultline_like") })
        #expect(shapes.threadsByShape[fetch.shapeID] == threads)
        #expect(shapes.threadsByShape.values.filter { $0 == threads }.count >= 2)
        #expect(shapes.sqlEvents == statements.count)
        #expect(shapes.shapes == Dictionary(statements.map { ($0.shapeID, $0.shape) }) { first, _ in first })
        // Each text in the data: a statement that is its shape's text once
        // (its sql_shape event), one that is not as often as it ran.
        let runs = Dictionary(grouping: statements, by: \.sql)
        #expect(runs.keys.contains { sql in runs[sql]![0].shape == sql })
        #expect(runs.keys.contains { sql in runs[sql]![0].shape != sql })
        for (sql, executions) in runs {
            let expected = executions[0].shape == sql ? 1 : executions.count
            #expect(trace.occurrences(of: sql) == expected, "\(sql)")
        }
        // A miss's reason beside its source, and an empty one beside a row
        // cache's, in faults and relationship faults alike.
        let sources = events.compactMap { event -> FaultSource? in
            switch event {
            case .fault(let e): e.source
            case .relationshipFault(let e): e.source
            default: nil
            }
        }
        // (Both are enumerations: their labels are in the metadata, not
        // in the events' data.)
        let faultLines = trace.lines.filter { $0.contains(" faultline:fault: ") || $0.contains(" faultline:relationship_fault: ") }
        let rowCacheEvents = faultLines.filter { TraceCounters.field($0, "source") == "row cache" }
        let missLines = faultLines.filter { TraceCounters.field($0, "source") == "database" }
        let misses = sources.filter { $0 == .database }.count
        #expect(sources.contains(.rowCache) && !rowCacheEvents.isEmpty && misses > 0)
        #expect(rowCacheEvents.allSatisfy { TraceCounters.field($0, "miss_reason") == "" })
        #expect(missLines.count == misses)
        #expect(missLines.allSatisfy { TraceCounters.field($0, "miss_reason") == "absent" })
        #expect(trace.occurrences(of: "absent") == 0)
    }

    /// Two threads fault from the row cache at once, each context extending
    /// its runs in place (``RowCacheFaultRun``: the LTTng sink is the only
    /// sink taking each row-cache fault, the recorder counts them from its
    /// tally), while the other thread's events may end those runs at any
    /// moment (as often as the threads overlap, which the machine's load
    /// decides; `RowCacheFaultRunTests` closes runs midway for certain):
    /// the trace counts every fault exactly once, as the recorder does.
    @Test func runsExtendedInPlaceByTwoThreadsCountEveryFaultOnce() throws {
        // The provider must load in the test build (the error says why not).
        let sink = try LTTngSink.load().get()
        let path = try Workload.populate(people: 3, selfies: 300, networks: 2)
        let recorder = Recorder(bufferCapacity: 0)
        let store = try Workload.store(path, sinks: [sink, recorder])
        #expect(MultiplexSink([sink, recorder]).keepsRowCacheFaultRuns)
        let trace = try traced { track in
            try track(getpid())
            try waitUntilOn(sink)
            _ = try inContextsOnTwoThreads(of: store) { number, context in
                let selfies = Array(try context.fetch(FetchRequest<ManagedObject>(entityName: "Selfie")))
                for pass in 0..<30 {
                    for selfie in selfies { context.refresh(selfie, mergeChanges: false) }
                    for selfie in selfies { _ = try selfie.value(forKey: "name") }
                    if pass % 3 == number { _ = try context.count(for: FetchRequest<ManagedObject>(entityName: "Person")) }
                }
                _ = try selfies[number].objects(forKey: "people")
                try selfies[number].setValue(.integer(Int64(number)), forKey: "rating")
                try context.save()
            }
            return getpid()
        }
        let counters = Dictionary(uniqueKeysWithValues: recorder.counters.all.map { ($0.name, $0.value) })
        let tally = TraceTally(trace.lines)
        tally.expectAgreement(with: counters)
        // Each thread reads its 300 selfies 30 times, each read a fault the
        // row cache serves (the rows stay cached while the contexts hold
        // the objects), then one relationship's destinations.
        #expect(tally.rowCacheFaults == 2 * 30 * 300)
    }

    /// Shapes and files are told once per session: a second session of
    /// this process, which is still running, gets each shape's `sql_shape`
    /// event before its first statement and each call site's file's text
    /// again. (Before each, the process ran statements while no session
    /// recorded it, and so knew any earlier one had ended.)
    @Test func aLaterSessionIsToldTheShapesAndFilesAgain() throws {
        // The provider must load in the test build (the error says why not).
        let sink = try LTTngSink.load().get()
        let path = try Workload.populate(people: 2, selfies: 3, networks: 1)
        let store = try Workload.store(path, sinks: [sink])
        func work() throws {
            let context = ObjectContext(store: store, name: "sessions")
            try context.perform {
                for selfie in try context.fetch(FetchRequest<ManagedObject>(entityName: "Selfie")) { _ = try selfie.value(forKey: "name") }
            }
        }
        // Asked of the `scenario` tracepoint: asking about `sql` is one
        // of the ways the sink notices a session's end, which the
        // statements between the sessions are to do here.
        func waitUntil(enabled: Bool) -> Bool {
            let deadline = Date().addingTimeInterval(30)
            while sink.isEnabled(.scenario) != enabled, Date() < deadline { usleep(20_000) }
            return sink.isEnabled(.scenario) == enabled
        }
        var traces: [Trace] = []
        for _ in 0..<2 {
            // No session now (whatever an earlier test's left told): the
            // statements run untraced, and the sink notices.
            try #require(waitUntil(enabled: false), "this process's faultline tracepoints were on with no session of this test")
            try work()
            traces.append(try traced { track in
                try track(getpid())
                try #require(waitUntil(enabled: true), "this process's faultline tracepoints were not enabled within 30 s")
                try work()
                return getpid()
            })
        }
        for trace in traces {
            let shapes = TracedShapeCheck(trace.lines)
            shapes.expectEachShapeOnceBeforeItsUse()
            let sites = CallSiteCheck(trace.lines)
            sites.expectEachSiteOnceBeforeItsUse()
            #expect(trace.occurrences(of: "ProbesTests/LTTngTests.swift") == sites.sites.count, "each call site, once in each session")
        }
        // A site keeps its number from one session to the next.
        #expect(CallSiteCheck(traces[0].lines).sites == CallSiteCheck(traces[1].lines).sites)
    }

    /// Every field of every event is in its tracepoint, or in
    /// `LTTngSink.fieldsLeftOut` (the in-process writers are walked by
    /// BridgesTests' EventFieldCoverageTests): each kind's sample event and
    /// the sample with each field changed in turn are traced from one
    /// thread, and a field is carried when its event's fields as
    /// babeltrace2 reads them differ from the sample's.
    @Test func everyEventFieldIsTracedOrListed() throws {
        // The provider must load in the test build (the error says why not).
        let sink = try LTTngSink.load().get()
        var emitted: [(kind: EventKind, field: String?)] = []
        let thread = Mutex<Int32>(0)
        let trace = try traced { track in
            try track(getpid())
            let deadline = Date().addingTimeInterval(30)
            while !EventKind.allCases.allSatisfy(sink.isEnabled), Date() < deadline { usleep(20_000) }
            try #require(EventKind.allCases.allSatisfy(sink.isEnabled), "this process's faultline tracepoints were not enabled within 30 s")
            thread.withLock { $0 = ProbeClock.threadID() }
            for kind in EventSamples.kinds {
                let sample = try #require(EventSamples.sample(kind))
                for (field, event) in [(String?.none, sample.event)] + sample.changed.map({ (Optional($0.field), $0.event) }) {
                    sink.receive(event)
                    sink.flush()
                    emitted.append((kind, field))
                }
            }
            return getpid()
        }
        let tid = thread.withLock { $0 }
        // This thread's events, in order, without the shapes' and call
        // sites' texts told once (a call site's number decides).
        let payloads = trace.lines.filter {
            $0.contains("vtid = \(tid) }") && !$0.contains(" faultline:sql_shape: ") && !$0.contains(" faultline:call_site: ")
        }.map { line in line[(line.range(of: "}, { ", options: .backwards)?.upperBound ?? line.startIndex)...] }
        try #require(payloads.count == emitted.count, "\(emitted.count) events traced as \(payloads.count) lines")
        var base = ""
        for (payload, event) in zip(payloads, emitted) {
            guard let field = event.field else {
                base = String(payload)
                continue
            }
            let id = EventField(event.kind, field)
            let traced = payload != base
            let listed = LTTngSink.fieldsLeftOut[id] != nil
            #expect(traced || listed, "the \(event.kind.rawValue) tracepoint neither carries \(id) nor does LTTngSink.fieldsLeftOut list it")
            #expect(!(traced && listed), "the \(event.kind.rawValue) tracepoint carries \(id), which LTTngSink.fieldsLeftOut lists")
        }
    }

    /// A session that records `faultline:sql` without `faultline:sql_shape`
    /// has every statement's text in its `statement` field: no event of
    /// the trace names the shapes. (This test's statements are of a model
    /// no other test uses: no earlier session told their shapes.)
    @Test func withoutShapeEventsEachStatementCarriesItsText() throws {
        // The provider must load in the test build (the error says why not).
        let sink = try LTTngSink.load().get()
        let model = try Model([Entity("Postcard", properties: [.attribute("caption", .string)])])
        let path = Workload.storePath()
        let setup = try Store(model: model, location: .file(path), configuration: { var c = StoreConfiguration(); c.sinks = []; return c }())
        let context = ObjectContext(store: setup, name: "setup")
        try context.perform {
            for number in 0..<3 { try context.insert(entityName: "Postcard").setValue(.string("Card \(number)"), forKey: "caption") }
            try context.save()
        }
        let recorded = InMemorySink(details: [.sqlArguments])
        var configuration = StoreConfiguration()
        configuration.sinks = [sink, recorded]
        let store = try Store(model: model, location: .file(path), configuration: configuration)
        let trace = try traced(events: "faultline:sql") { track in
            try track(getpid())
            let deadline = Date().addingTimeInterval(30)
            while !sink.isEnabled(.sql), Date() < deadline { usleep(20_000) }
            try #require(sink.isEnabled(.sql), "this process's faultline:sql tracepoint was not enabled within 30 s")
            #expect(!sink.isEnabled(.fault))
            // The question asked per statement: bound values, and no
            // refreshes (the context tracepoint is not enabled).
            #expect(sink.statementDetails == .sqlArguments)
            let reader = ObjectContext(store: store, name: "reader")
            try reader.perform {
                // Keys only: each card's fault is a miss, one key lookup.
                var request = FetchRequest<ManagedObject>(entityName: "Postcard")
                request.includesPropertyValues = false
                for card in try reader.fetch(request) { _ = try card.value(forKey: "caption") }
            }
            return getpid()
        }
        let statements = recorded.statements
        #expect(trace.lines.filter { $0.contains(" faultline:sql: ") }.count == statements.count)
        let runs = Dictionary(grouping: statements, by: \.sql)
        // The key lookup, its shape's text, ran for each card: its text is
        // in the data each time.
        let lookup = try #require(runs.first { $0.key.contains("Postcard") && $0.value.count == 3 && $0.value[0].shape == $0.key })
        #expect(trace.occurrences(of: lookup.key) == 3)
        // Every statement of this test's model (BEGIN and COMMIT may have
        // had their shapes traced by an earlier test's session: once per
        // process, docs/tracepoints.md).
        for (sql, executions) in runs where sql.contains("Postcard") {
            #expect(trace.occurrences(of: sql) == executions.count, "\(sql)")
        }
    }

    /// `perf-run run --lttng`: its own session daemon when none runs (and
    /// stopped after), a blocking channel, and counters rebuilt from the
    /// trace equal to the recorder's.
    @Test func perfRunRecordsATraceThatAgreesWithTheRecorder() throws {
        // A daemon that answers this user's lttng (not any on the machine:
        // another test's may run as another user, or on a private home).
        let daemonBefore = try LTTngHarness.run("lttng", ["list"]).status == 0
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-lttng-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("report.json").path
        let perfRun = LTTngHarness.buildDirectory.appendingPathComponent("perf-run").path
        let result = try LTTngHarness.run(perfRun, [
            "run", "FetchAll", "SingleFault", "Prefetch", "BatchUpdate", "Predicate", "--scale", "0.02", "--iterations", "2", "--lttng",
            "--lttng-output", directory.appendingPathComponent("trace").path, "--json", report,
            "--html", directory.appendingPathComponent("report.html").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("LTTng trace: \(directory.appendingPathComponent("trace").path)"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let scenarios = try #require(json["scenarios"] as? [[String: Any]])
        #expect(scenarios.count == 5)
        for scenario in scenarios {
            var counters = try #require(scenario["counters"] as? [String: Int])
            counters["objectsRegisteredPeak"] = nil
            let traced = try #require(scenario["traceCounters"] as? [String: Int], "\(scenario["name"] ?? "")")
            #expect(traced == counters, "\(scenario["name"] ?? "")")
        }
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("trace").path))
        // The trace itself: no cache-miss events, each shape once before its
        // use, and the Predicate scenario's statements, whose literals are
        // not their shape's, with their text.
        let trace = try LTTngHarness.require("babeltrace2", [directory.appendingPathComponent("trace").path])
        let pid = try #require(result.pid)
        let lines = trace.stdout.split(separator: "\n").filter { $0.contains("vpid = \(pid) }") }
        #expect(!lines.isEmpty)
        #expect(!lines.contains { $0.contains("faultline:cache_miss") })
        let shapes = TracedShapeCheck(lines)
        shapes.expectEachShapeOnceBeforeItsUse()
        #expect(shapes.sqlEventsWithText > 0)
        if !daemonBefore {
            // The daemon perf-run started wrote its PID where this user's goes.
            var left = LTTngRecording.daemonNamed(by: LTTngRecording.daemonPIDFile)
            for _ in 0..<100 where left != nil {
                usleep(50_000)
                left = LTTngRecording.daemonNamed(by: LTTngRecording.daemonPIDFile)
            }
            #expect(left == nil, "perf-run left the session daemon it started (process \(left ?? 0))")
        }
    }

    @Test func runsWithTheProviderLibraryAbsent() throws {
        let bench = LTTngHarness.buildDirectory.appendingPathComponent("faultline-bench").path
        let run = try LTTngHarness.require(
            bench, ["--sinks", "lttng,recorder", "--objects", "10", "--rounds", "1"],
            environment: ["FAULTLINE_TRACEPOINT_PROVIDER": "/nonexistent/libFaultlineTracepointProvider.so"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(report["lttng"] as? String == "off: the tracepoint provider /nonexistent/libFaultlineTracepointProvider.so does not exist")
        let counters = try #require(report["counters"] as? [String: Int])
        #expect(counters["faultsFired"] == 32)  // 3 per item, the group, the changed item
    }

    /// A provider of another version defines other fields (version 4
    /// interned call sites): the program refuses it and says why, and runs
    /// untraced.
    @Test func refusesAProviderOfAnOlderVersion() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-provider-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = try LTTngHarness.buildProviderOfVersion2(in: directory)
        let bench = LTTngHarness.buildDirectory.appendingPathComponent("faultline-bench").path
        let run = try LTTngHarness.require(
            bench, ["--sinks", "lttng,recorder", "--objects", "10", "--rounds", "1"],
            environment: ["FAULTLINE_TRACEPOINT_PROVIDER": library.path])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(report["lttng"] as? String == """
            off: cannot load the tracepoint provider \(library.path): \
            it defines the tracepoints of version 2, this program those of version 4
            """)
        #expect((report["counters"] as? [String: Int])?["faultsFired"] == 32)
    }

    @Test func aSinkForAnIdleSessionBuildsNothing() throws {
        switch LTTngSink.load() {
        case .success(let sink):
            // No session enables the events in this process.
            #expect(EventKind.allCases.allSatisfy { !sink.isEnabled($0) })
            #expect(sink.details.isEmpty)
            #expect(sink.statementDetails == nil)
        case .failure(let reason):
            Issue.record("the provider should load in the test build: \(reason)")
        }
    }
}

/// The events of a trace (babeltrace2's text lines), counted as the
/// recorder counts them: an event with a `count` (a run of row-cache faults
/// or of refreshes) stands for that many.
private struct TraceTally {
    var counts: [String: Int] = [:]
    var total = 0
    var events = 0
    var rowCacheFaults = 0
    var rowCacheFaultEvents = 0
    var databaseFaults = 0
    var databaseRelationshipFaults = 0
    var refreshes = 0
    var refreshEvents = 0
    /// The `miss_reason` of the faults and relationship faults from the
    /// database, each counted as many times as its event stands for.
    var missReasons: [String: Int] = [:]

    init(_ lines: [Substring]) {
        for line in lines {
            guard let range = line.range(of: " faultline:") else { continue }
            let name = line[range.upperBound...].prefix { $0 != ":" }
            let count = line.range(of: " count = ").map { Int(line[$0.upperBound...].prefix { $0.isNumber })! } ?? 1
            counts[String(name), default: 0] += count
            total += count
            events += 1
            // (A row-cache fault's empty reason may read as an earlier
            // event's: babeltrace2 2.0.4 prints empty strings so.)
            let source = TraceCounters.field(line, "source")
            if name == "fault" || name == "relationship_fault", source == "database" {
                let reason = TraceCounters.field(line, "miss_reason") ?? ""
                #expect(reason == "absent" || reason == "stale", "a fault from the database without a miss reason: \(line)")
                missReasons[reason, default: 0] += count
            }
            switch name {
            case "fault":
                if source == "row cache" {
                    rowCacheFaults += count
                    rowCacheFaultEvents += 1
                }
                if source == "database" {
                    #expect(count == 1, "a fault that reads the database is traced alone: \(line)")
                    databaseFaults += count
                }
            case "relationship_fault":
                if source == "database" { databaseRelationshipFaults += 1 }
            case "context":
                if line.contains("kind = \"refresh\"") {
                    refreshes += count
                    refreshEvents += 1
                }
            default:
                break
            }
        }
    }

    /// Every count the trace and the recorder share is equal.
    func expectAgreement(with counters: [String: Int]) {
        #expect(counts["fetch"] == counters["fetches"])
        #expect(counts["fault"] == counters["faultsFired"])
        #expect(counts["relationship_fault"] == counters["relationshipFaultsFired"])
        #expect(counts["sql"] == counters["sqlStatements"])
        #expect(counts["save"] == counters["saves"])
        #expect(rowCacheFaults == counters["cacheHits"])
        #expect(databaseFaults + databaseRelationshipFaults == counters["cacheMisses"])
        // A miss is a field of its fault, not an event.
        #expect(counts["cache_miss"] == nil)
        #expect(missReasons.values.reduce(0, +) == counters["cacheMisses"])
    }
}

/// The call sites of a trace (babeltrace2's text lines): each
/// `call_site` event, and the numbers the other events carry.
private struct CallSiteCheck {
    /// Sites by number.
    var sites: [Int: CallSite] = [:]
    /// Numbers told more than once, numbers used before (or without) their
    /// `call_site` event.
    var repeated: [Int] = []
    var usedFirst: [Int] = []
    var eventsWithSite = 0

    init(_ lines: [Substring]) {
        for line in lines {
            if line.contains(" faultline:call_site: ") {
                let site = TraceCounters.callSite(definedBy: line)
                #expect(site != nil, "a call_site event without its fields: \(line)")
                guard let (number, named) = site else { continue }
                if sites[number] != nil { repeated.append(number) }
                sites[number] = named
                let module = TraceCounters.field(line, "module") ?? "?"
                #expect(named.absence != nil || module == named.module, "\(line)")
                #expect(TraceCounters.field(line, "function") == "")
            } else if let number = TraceCounters.field(line, "call_site").flatMap({ Int($0) }) {
                eventsWithSite += 1
                if sites[number] == nil { usedFirst.append(number) }
            }
        }
    }

    func expectEachSiteOnceBeforeItsUse() {
        #expect(!sites.isEmpty)
        #expect(repeated.isEmpty, "call sites told more than once: \(repeated)")
        #expect(usedFirst.isEmpty, "call sites used before their call_site event: \(usedFirst)")
        #expect(eventsWithSite > 0)
    }
}

/// The statement shapes of a trace (babeltrace2's text lines): each
/// `sql_shape` event, and what the `sql` events say of theirs.
private struct TracedShapeCheck {
    /// Shape texts by number.
    var shapes: [Int: String] = [:]
    /// Numbers traced more than once, numbers used before (or without)
    /// their `sql_shape` event.
    var repeated: [Int] = []
    var usedFirst: [Int] = []
    var sqlEvents = 0
    /// `sql` events that carry a text (not their shape's).
    var sqlEventsWithText = 0
    /// `sql` events whose text is their shape's, which they should not repeat.
    var sqlEventsRepeatingTheirShape = 0
    /// The texts the `sql` events of each shape carry ("" for none).
    var statementTexts: [Int: Set<String>] = [:]
    /// The threads (`vtid`) that ran each shape, when the trace has them.
    var threadsByShape: [Int: Set<Int32>] = [:]

    init(_ lines: [Substring]) {
        for line in lines {
            if line.contains(" faultline:sql_shape: ") {
                let number = Int(TraceCounters.field(line, "shape") ?? "") ?? -1
                if shapes[number] != nil { repeated.append(number) }
                shapes[number] = TraceCounters.field(line, "text") ?? ""
            } else if line.contains(" faultline:sql: ") {
                sqlEvents += 1
                let number = Int(TraceCounters.field(line, "shape") ?? "") ?? -1
                if shapes[number] == nil { usedFirst.append(number) }
                let text = TraceCounters.field(line, "statement") ?? "?"
                if !text.isEmpty { sqlEventsWithText += 1 }
                if text == shapes[number] { sqlEventsRepeatingTheirShape += 1 }
                statementTexts[number, default: []].insert(text)
                if let thread = TraceCounters.field(line, "vtid").flatMap({ Int32($0) }) { threadsByShape[number, default: []].insert(thread) }
            }
        }
    }

    func expectEachShapeOnceBeforeItsUse() {
        #expect(!shapes.isEmpty)
        #expect(repeated.isEmpty, "shapes traced more than once: \(repeated)")
        #expect(usedFirst.isEmpty, "shapes used before their sql_shape event: \(usedFirst)")
        #expect(sqlEvents > 0)
        #expect(sqlEventsRepeatingTheirShape == 0)
    }
}
