import Foundation
import Reporting
import ObjectGraph
import Probes
import Testing
@testable import Scenarios

/// Every scenario at a small scale (10 objects of each entity, 100 rows in
/// each join table), with its exact counters.
@Suite(.serialized) struct ScenarioCounterTests {
    static let cache = DataSetCache(
        directory: FileManager.default.temporaryDirectory.appendingPathComponent("faultline-test-datasets-\(getpid())"))

    static func options() -> RunOptions {
        var options = RunOptions()
        options.scale = 0.02
        options.iterations = 2
        options.warmup = 1
        return options
    }

    /// fetches, faultsFired, relationshipFaultsFired, cacheHits, cacheMisses,
    /// sqlStatements, rowsRead, rowsWritten, saves, batchRequests, fullScanSteps.
    static let expected: [String: [Int]] = [
        "FetchAll": [3, 0, 0, 0, 0, 3, 30, 0, 0, 0, 27],
        "DidFault": [1, 2, 1, 1, 2, 3, 12, 0, 0, 0, 9],
        "SingleFault": [1, 210, 20, 190, 40, 41, 230, 0, 0, 0, 9],
        "BatchFault": [21, 10, 0, 10, 0, 21, 210, 0, 0, 0, 9],  // ANY selfies == %@ reads the join table by key: 9 full-scan steps (the selfies), not 189
        "Prefetch": [1, 180, 0, 180, 0, 5, 230, 0, 0, 0, 9],
        "Cache": [2, 20, 10, 10, 20, 22, 130, 0, 0, 0, 18],
        "Uniquing": [1, 20, 10, 10, 20, 21, 120, 0, 0, 0, 9],
        "Predicate": [41, 0, 0, 0, 0, 41, 410, 0, 0, 0, 369],
        "Subquery": [2, 10, 10, 10, 10, 12, 120, 0, 0, 0, 18],
        "BatchUpdate": [2, 0, 0, 0, 0, 17, 21, 18, 1, 1, 27],
        "BatchInsert": [0, 0, 0, 0, 0, 103, 20, 40, 20, 1, 0],
        "HistoryMerge": [4, 207, 0, 207, 0, 35, 818, 16, 2, 0, 800],
        "DerivedCount": [2, 4, 2, 4, 2, 4, 204, 0, 0, 0, 2],
        "FetchBatchSize": [2, 200, 0, 200, 0, 4, 600, 0, 0, 0, 398],
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
            #expect(breakdown.sqliteSeconds + breakdown.rowCacheSeconds <= (report.samples.last?.wallSeconds ?? 0) + 1e-6)
            let counters = Self.names.map { report.counters[$0] ?? -1 }
            #expect(counters == Self.expected[report.name], "\(report.name)")
            #expect(report.advisoryCounters == ["objectsRegisteredPeak"], "\(report.name)")
        }
        let values = Dictionary(uniqueKeysWithValues: reports.map { ($0.name, $0.values) })
        #expect(values["DidFault"] == ["before": 1, "afterRead": 0, "afterRefresh": 1, "hookCalls": 2])
        #expect(values["Subquery"]?["manualPeople"] == 10)
        #expect(values["Subquery"]?["subqueryPeople"] == 10)
        #expect(values["Predicate"]?["repeats"] == 20)
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
        options.store = .memory
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
        options.iterations = 1
        options.warmup = 0
        options.timeoutSeconds = 0.3
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
        #expect(Date().timeIntervalSince(start) < 20)
        #expect(reports[0].status == .failed)
        #expect(reports[0].error == "stopped: timed out after 0.3 s")
        #expect(reports[1].status == .passed)
    }

    @Test func ctrlCWritesTheReportOfWhatRanAndExits130() throws {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("interrupted-\(UUID()).json").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PerfRunCommandTests.executable)
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
        options.scale = 0.02
        options.iterations = 1
        options.warmup = 0
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
