@testable import BuiltInScenarios
import Foundation
import ObjectGraph
import Probes
import Reporting
@testable import Scenarios
import TestSupport
import Testing

/// Every scenario at a small scale (10 objects of each entity, 100 rows in
/// each join table), with its exact counters.
@Suite(.serialized) struct ScenarioCounterTests {
    static let cache = DataSetCache(
        directory: FileManager.default.temporaryDirectory.appendingPathComponent("faultline-test-datasets-\(getpid())"))

    static func options() -> RunOptions {
        var options = RunOptions()
        options.configuration.scale = 0.02
        options.configuration.iterations = 2
        options.configuration.warmup = 1
        return options
    }

    /// fetches, faultsFired, relationshipFaultsFired, cacheHits, cacheMisses,
    /// sqlStatements, rowsRead, rowsWritten, saves, batchRequests, fullScanSteps.
    static let expected: [String: [Int]] = [
        "FetchAll": [3, 0, 0, 0, 0, 4, 30, 0, 0, 0, 27],
        "DidFault": [1, 2, 1, 1, 2, 4, 12, 0, 0, 0, 9],
        "SingleFault": [1, 210, 20, 190, 40, 42, 230, 0, 0, 0, 9],
        // The book's code: every selfie's loop fetches all 10 networks and all
        // 10 people with their values (full scans: 9 steps each), so the
        // walk's reads and refaults find loaded objects and fire no fault.
        "BatchFault": [21, 0, 20, 0, 20, 42, 410, 0, 0, 0, 189],
        // ANY selfies == %@ reads the join table by key: 9 full-scan steps (the selfies), not 189
        "BatchFaultByPredicate": [21, 10, 0, 10, 0, 22, 210, 0, 0, 0, 9],
        // Staleness 0: every fault reads its row (210 objects + 20 relationships).
        "SingleFaultStaleness0": [1, 210, 20, 0, 230, 232, 420, 0, 0, 0, 9],
        // The prefetch loads the first reads (30 fewer faults); every refault still reads its row.
        "PrefetchStaleness0": [1, 180, 0, 0, 180, 186, 410, 0, 0, 0, 9],
        "Prefetch": [1, 180, 0, 180, 0, 6, 230, 0, 0, 0, 9],
        "Cache": [2, 20, 10, 10, 20, 23, 130, 0, 0, 0, 18],
        "Uniquing": [1, 20, 10, 10, 20, 22, 120, 0, 0, 0, 9],
        // 20 fetches of each order, one more of each to count pattern
        // matches, and the fetch for the in-memory passes.
        "Predicate": [43, 0, 0, 0, 0, 44, 430, 0, 0, 0, 387],
        "Subquery": [2, 10, 10, 10, 10, 13, 120, 0, 0, 0, 18],
        // The batch update asks for a count: it reads back no keys (11
        // rows read, not 21 with the 10 returned keys).
        "BatchUpdate": [2, 0, 0, 0, 0, 17, 11, 18, 1, 1, 27],
        // One save per object (80 statements), one save for 20 objects (BEGIN,
        // the group check, 20 INSERTs, COMMIT), one batch insert (23).
        "BatchInsert": [0, 0, 0, 0, 0, 126, 20, 60, 21, 1, 0],
        // The import and the other author fetch only the fireballs they
        // change (a LIMIT): the sorts still step through every row.
        "HistoryMerge": [4, 207, 0, 207, 0, 36, 419, 16, 2, 0, 800],
        "DerivedCount": [2, 4, 2, 4, 2, 5, 204, 0, 0, 0, 2],
        "FetchBatchSize": [2, 200, 0, 200, 0, 5, 600, 0, 0, 0, 398],
        // The 50 most recent of 200 fireballs (a full scan and a sort),
        // read from the row cache; each of their 2 groups a fault from
        // the database: the N+1, at this scale two queries.
        "ToOneList": [1, 52, 0, 50, 2, 4, 52, 0, 0, 0, 199],
        // 60 books, 20 audiobooks, 20 podcasts in one table: the parent's
        // fetch reads all 100 rows (a full scan, 99 steps), the podcasts'
        // only their 20 by the entity column's index (no scan step); each
        // title read is a fault the row cache fulfils.
        "InheritanceFetch": [2, 120, 0, 120, 0, 3, 120, 0, 0, 0, 99],
    ]
    static let names = [
        "fetches", "faultsFired", "relationshipFaultsFired", "cacheHits", "cacheMisses", "sqlStatements", "rowsRead", "rowsWritten",
        "saves", "batchRequests", "fullScanSteps",
    ]

    @Test func everyScenarioPassesWithItsExactCounters() throws {
        let runner = ScenarioRunner(options: Self.options(), cache: Self.cache)
        let reports = runner.run(ScenarioCatalog.all)
        #expect(reports.map(\.name) == ScenarioCatalog.all.map(\.name))
        for report in reports {
            #expect(report.status == .passed, "\(report.name): \(report.error ?? "")")
            #expect(report.samples.count == 2)
            if report.name == "MultiThread" {
                // Timing decides its counters: every one is advisory.
                #expect(Set(report.advisoryCounters) == Set(Counters.names))
                #expect(report.values["saved"] == 200)
                continue
            }
            let breakdown = try #require(report.timeBreakdown)
            #expect(breakdown.sqliteSeconds >= 0 && breakdown.rowCacheSeconds >= 0 && breakdown.otherSeconds >= 0)
            // The parts are the median iteration's: they add up to the median wall time.
            let wall = Statistics(report.samples.map(\.wallSeconds)).median
            #expect(breakdown.wallSeconds == wall && breakdown.summedOverThreads == nil, "\(report.name)")
            #expect(abs(breakdown.sqliteSeconds + breakdown.rowCacheSeconds + breakdown.otherSeconds - wall) <= wall * 1e-9, "\(report.name)")
            let counters = Self.names.map { report.counters[$0] ?? -1 }
            #expect(counters == Self.expected[report.name], "\(report.name)")
            #expect(report.advisoryCounters == ["objectsRegisteredPeak"], "\(report.name)")
        }
        let values = Dictionary(uniqueKeysWithValues: reports.map { ($0.name, $0.values) })
        #expect(values["DidFault"] == ["before": 1, "afterRead": 0, "afterRefresh": 1, "hookCalls": 2])
        #expect(values["Subquery"]?["manualPeople"] == 10)
        #expect(values["Subquery"]?["subqueryPeople"] == 10)
        #expect(values["Predicate"]?["repeats"] == 20)
        // Every name matches the pattern: the slow order runs it for all 10
        // selfies, the fast one only for the 9 rated 5 or more.
        #expect(values["Predicate"]?["likeCallsSlow"] == 10)
        #expect(values["Predicate"]?["likeCallsFast"] == 9)
        #expect(values["Predicate"]?["fastOrderSkips"] == 0.1)
        // Phases count what each did: the cold pass's fetch and relationship
        // faults against the warm pass's fetch alone.
        let cache = try #require(reports.first { $0.name == "Cache" })
        #expect(cache.phases?.map(\.name) == ["cold", "warm"])
        #expect(cache.phases?.map { $0.counters["sqlStatements"] } == [22, 1])
        #expect(cache.phases?.map { $0.counters["relationshipFaultsFired"] } == [10, 0])
        #expect(cache.phases?.allSatisfy { $0.samples.count == 2 && $0.sqliteSeconds.median <= $0.seconds.median } == true)
        // Every book experiment is judged, the behaviours reproduced.
        let experiments = ExperimentAnalysis.analyze(ScenarioCatalog.experiments, scenarios: reports)
        #expect(experiments.map(\.name) == ScenarioCatalog.experiments.map(\.name))
        for name in ["FetchAll", "DidFault", "Uniquing"] {
            #expect(experiments.first { $0.name == name }?.verdict == .reproduced, "\(name)")
        }
    }

    @Test func aDeclaredRepetitionIsNotAdvisedAgainst() throws {
        func repeating(_ reason: String?) -> Scenario {
            Scenario(name: "Repeating", summary: "counts ten times", dataSet: .selfies, repeatsStatements: reason) { run in
                let context = run.context()
                try context.perform {
                    for _ in 0..<10 { _ = try context.count(for: FetchRequest<Selfie>(predicate: Key("rating") < 5)) }
                }
            }
        }
        let runner = ScenarioRunner(options: Self.options(), cache: Self.cache)
        let advised = try #require(runner.run([repeating(nil)]).first).insights.filter { $0.rule == .repeatedStatement }
        #expect(advised.count == 1)
        #expect(advised.allSatisfy { $0.isActionable && $0.intended == nil })
        // Declared, the finding is reported as intended: never advice.
        let declared = try #require(runner.run([repeating("it counts on purpose")]).first).insights.filter { $0.rule == .repeatedStatement }
        #expect(declared.map(\.intended) == ["it counts on purpose"])
        #expect(!declared.contains { $0.isActionable })
    }

    @Test func anApplicationsOwnDataSetAndScenarioRunLikeTheBuiltIns() throws {
        let model = try Model([
            Entity("Shelf", properties: [.attribute("label", .string), .toMany("books", "Book", inverse: "shelf")]),
            Entity("Book", properties: [.attribute("title", .string), .attribute("pages", .int32), .toOne("shelf", "Shelf", inverse: "books")]),
        ])
        let library = DataSetKind(
            name: "library-test", model: model,
            expectedRows: { scale in ["Shelf": ModelDataSet.count(scale: scale), "Book": ModelDataSet.count(scale: scale)] },
            build: { store, scale, _, _ in try ModelDataSet.build(into: store, scale: scale) })
        let shelves = Scenario(name: "Shelves", summary: "every shelf's books", dataSet: library) { run in
            let context = run.context()
            let titles = try context.perform {
                try context.fetch(FetchRequest<ManagedObject>(entityName: "Shelf")).reduce(0) { total, shelf in
                    total + (try shelf.objects(forKey: "books")).count
                }
            }
            run.record("books", Double(titles))
        }
        let report = try #require(ScenarioRunner(options: Self.options(), cache: Self.cache).run([shelves]).first)
        #expect(report.status == .passed, "\(report.error ?? "")")
        #expect(report.dataSet == "library-test")
        // Two objects of each at scale 0.02; book N on shelf N.
        #expect(report.values["books"] == 2)
        #expect(report.counters["fetches"] == 1)
        #expect(report.counters["relationshipFaultsFired"] == 2)
    }

    @Test func figuresAreMediansOverTheIterations() throws {
        final class Count: @unchecked Sendable { var value = 0 }
        let count = Count()
        let counting = Scenario(name: "Counting", summary: "records its iteration", dataSet: .selfies) { run in
            count.value += 1
            run.record("iteration", Double(count.value))
            try run.phase("step") { _ = try run.context().perform { try run.context().count(for: FetchRequest<Selfie>()) } }
        }
        var options = Self.options()
        options.configuration.iterations = 3
        let report = try #require(ScenarioRunner(options: options, cache: Self.cache).run([counting]).first)
        // The warm-up is iteration 1; the measured ones record 2, 3 and 4.
        #expect(report.values["iteration"] == 3)
        #expect(report.valueStatistics?["iteration"]?.min == 2)
        #expect(report.valueStatistics?["iteration"]?.max == 4)
        let step = try #require(report.phases?.first)
        #expect(step.samples.count == 3)
        #expect(report.valueStatistics?["stepSeconds"]?.median == step.seconds.median)
    }

    @Test func theBuildListsEveryScenarioFile() {
        // ScenarioCatalogPlugin found every `public static let … = Scenario(` in Scenarios/.
        #expect(Set(ScenarioCatalog.declared.map(\.name)) == Set(ScenarioCatalog.builtIn.map(\.name)))
        #expect(ScenarioCatalog.all.map(\.name) == ScenarioCatalog.builtIn.map(\.name))
    }

    @Test func theOrderOfScenariosChangesNothing() throws {
        let names = ["BatchUpdate", "Prefetch", "SingleFault"]
        let forward = ScenarioRunner(options: Self.options(), cache: Self.cache).run(names.compactMap(ScenarioCatalog.named))
        let backward = ScenarioRunner(options: Self.options(), cache: Self.cache).run(names.reversed().compactMap(ScenarioCatalog.named))
        let byName = Dictionary(uniqueKeysWithValues: backward.map { ($0.name, $0.counters) })
        for report in forward {
            var a = report.counters
            var b = byName[report.name] ?? [:]
            a["objectsRegisteredPeak"] = nil
            b["objectsRegisteredPeak"] = nil
            #expect(a == b, "\(report.name)")
        }
    }

    @Test func aFailingScenarioIsReportedAndTheOthersRun() throws {
        let failing = Scenario(name: "Broken", summary: "fails on purpose", dataSet: .selfies) { run in
            try run.check(false, "the numbers do not add up")
        }
        let reports = ScenarioRunner(options: Self.options(), cache: Self.cache).run([failing, .fetchAll])
        #expect(reports[0].status == .failed)
        #expect(reports[0].error == "the numbers do not add up")
        #expect(reports[1].status == .passed)
    }

    @Test func aMemoryStoreRunsTheSameCounters() throws {
        var options = Self.options()
        options.configuration.store = .memory
        let reports = ScenarioRunner(options: options, cache: Self.cache).run([.prefetch, .fetchAll])
        #expect(reports.allSatisfy { $0.status == .passed })
        #expect(Self.names.map { reports[0].counters[$0] ?? -1 } == Self.expected["Prefetch"])
    }

    @Test func theDataSetIsBuiltOnceAndVerified() throws {
        let cache = DataSetCache(directory: FileManager.default.temporaryDirectory.appendingPathComponent("faultline-cache-\(UUID())"))
        var messages: [String] = []
        let path = try cache.file(for: .selfies, scale: 0.01, seed: 3) { messages.append($0) }
        #expect(messages == ["building data set selfies at scale 0.01, seed 3", "built data set selfies-scale0.01-seed3-g1"])
        #expect(try cache.file(for: .selfies, scale: 0.01, seed: 3) { messages.append($0) } == path)
        #expect(messages.count == 2)
        // A damaged file is rebuilt.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 4096)
        try handle.close()
        _ = try cache.file(for: .selfies, scale: 0.01, seed: 3) { messages.append($0) }
        #expect(messages.suffix(2) == ["building data set selfies at scale 0.01, seed 3", "built data set selfies-scale0.01-seed3-g1"])
        #expect(messages.count == 5)
    }
}

@Suite struct TimeLimitTests {
    @Test func aScenarioOverItsTimeLimitFailsAndTheNextRuns() throws {
        var options = ScenarioCounterTests.options()
        options.configuration.iterations = 1
        options.configuration.warmup = 0
        options.configuration.timeoutSeconds = 0.3
        let endless = Scenario(name: "Endless", summary: "never ends on its own", dataSet: .selfies) { run in
            let context = run.context()
            try context.perform {
                while true {
                    for selfie in try context.fetch(FetchRequest<Selfie>()) { _ = selfie.name }
                    context.reset()
                }
            }
        }
        let start = Date()
        let reports = ScenarioRunner(options: options, cache: ScenarioCounterTests.cache).run([endless, .fetchAll])
        // A bound on liveness only (the endless scenario must stop at all),
        // not a timing: it includes the data set's build, and make test
        // runs the suite beside other builds.
        #expect(Date().timeIntervalSince(start) < 120)
        #expect(reports[0].status == .failed)
        #expect(reports[0].error == "stopped: timed out after 0.3 s")
        #expect(reports[1].status == .passed)
    }

    @Test func ctrlCWritesTheReportOfWhatRanAndExits130() throws {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("interrupted-\(UUID()).json").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PerfRunProcess.executable)
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        process.arguments = ["run", "FetchAll", "Predicate", "DidFault", "--scale", "0.02", "--iterations", "100000", "--warmup", "0",
                             "--json", report, "--quiet"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 2)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        let written = try ReportFile.read(report)
        #expect(written.scenarios.count == 3)
        #expect(written.scenarios.contains { $0.error == "stopped: interrupted (Ctrl-C)" })
        #expect(written.scenarios.last?.status == .skipped)
        #expect(written.scenarios.last?.error == "not run: interrupted (Ctrl-C)")
    }
}

@Suite struct KeptEventsTests {
    /// A buffer too small for the iteration: the report says how many
    /// events it dropped, and the counters and insights are still whole.
    @Test func droppedEventsAreReported() throws {
        var options = RunOptions()
        options.configuration.scale = 0.02
        options.configuration.iterations = 1
        options.configuration.warmup = 0
        options.keptEvents = 5
        let runner = ScenarioRunner(options: options, cache: ScenarioCounterTests.cache)
        let report = runner.run(.singleFault)
        #expect(report.status == .passed)
        #expect(runner.events.count == 5)
        let dropped = try #require(report.droppedEvents)
        #expect(dropped > 100)
        #expect(report.counters["faultsFired"] == 210)
        var whole = options
        whole.keptEvents = 0
        #expect(ScenarioRunner(options: whole, cache: ScenarioCounterTests.cache).run(.singleFault).droppedEvents == nil)
    }
}
