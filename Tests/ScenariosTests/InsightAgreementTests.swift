@testable import BuiltInScenarios
import Faultline
import Foundation
import Insights
import ObjectGraph
import Probes
import SQLLogViewer
@testable import Scenarios
import Testing

/// One rule engine, three sources of evidence: every built-in scenario's
/// insights are the same (rule, identity, count and words) in its run
/// report, in `Faultline.measure` of its body, and in `perf-run log` of
/// the SQL debug log its run wrote at levels 1 to 3 (level 1: rule,
/// identity and count), over a warm-up and two measured iterations.
@Suite(.serialized) struct InsightAgreementTests {
    static let scale = 0.02

    /// An insight as the three sources must agree on it.
    static func described(_ insights: [Insight]) -> [String] {
        insights.map { "\($0.identity) ×\($0.count ?? -1)\($0.intended == nil ? "" : " (intended)"): \($0.message)" }.sorted()
    }

    /// The SQL debug log's levels the log's insights must agree at: level 1
    /// names bound values by a digest, 2 shows them, 3 adds objects' values.
    static let levels = [1, 2, 3]

    /// The scenario's insights from a run of a warm-up and two measured
    /// iterations (its SQL debug log written at each of ``levels``), and
    /// from each log: the log marks the iterations, and its insights are
    /// the last measured one's, as the run's are.
    static func runAndLogs(_ scenario: Scenario) throws -> (run: [Insight], logs: [Int: [Insight]]) {
        let paths = levels.map { level in
            FileManager.default.temporaryDirectory.appendingPathComponent("agreement-\(scenario.name)-\(level)-\(UUID()).log").path
        }
        defer { for path in paths { try? FileManager.default.removeItem(atPath: path) } }
        var options = RunOptions()
        options.configuration.scale = scale
        options.configuration.iterations = 2
        options.configuration.warmup = 1
        options.sinks = try zip(levels, paths).map { try SQLDebugLogSink(level: $0, destination: .file($1)) }
        let runner = ScenarioRunner(options: options, cache: ScenarioCounterTests.cache)
        try runner.prepare()
        let report = try #require(runner.run([scenario]).first)
        try #require(report.status == .passed, "\(scenario.name): \(report.error ?? "")")
        var logs: [Int: [Insight]] = [:]
        for (level, path) in zip(levels, paths) {
            var analyzer = SQLLogAnalyzer(sourceName: "agreement.log", settings: scenario.insights)
            try analyzer.consume(try LogFile.open(path), path: path)
            let analysis = analyzer.finish()
            // One scenario, judged at its last measured iteration.
            #expect(analysis.scenarios?.map(\.name) == [scenario.name], "level \(level)")
            #expect(analysis.scenarios?.first?.iteration == 2, "level \(level)")
            #expect(analysis.scenarios?.first?.iterations == 3, "level \(level)")
            logs[level] = analysis.insights
        }
        return (report.insights, logs)
    }

    /// The scenario's insights from its run and from its log at level 2.
    static func runAndLog(_ scenario: Scenario) throws -> (run: [Insight], log: [Insight]) {
        let (run, logs) = try runAndLogs(scenario)
        return (run, logs[2] ?? [])
    }

    /// An insight as level 1's log must agree on it: its identity and
    /// count (its words may name bound values, which level 1 shows by
    /// their digest).
    static func identified(_ insights: [Insight]) -> [String] {
        insights.map { "\($0.identity) ×\($0.count ?? -1)" }.sorted()
    }

    /// The scenario's insights from `Faultline.measure` of its body, on a
    /// copy of its data set.
    static func measured(_ scenario: Scenario) throws -> [Insight] {
        let source = try ScenarioCounterTests.cache.file(for: scenario.dataSet, scale: scale, seed: 1)
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("agreement-\(UUID()).sqlite").path
        defer { DataSetCache.remove(copy) }
        try DataSetCache.copy(source, to: copy)
        var configuration = StoreConfiguration()
        configuration.sinks = []
        configuration.allowsMeasurement = true
        configuration.persistentHistoryTracking = scenario.persistentHistory
        let store = try Store(model: scenario.dataSet.model, location: .file(copy), configuration: configuration)
        let measurement = try Faultline.measure(store, insights: scenario.insights) {
            try scenario.body(ScenarioIteration(store: store, scale: scale, seed: 1, scenario: scenario.name))
        }
        return measurement.insights
    }

    @Test(arguments: ScenarioCatalog.all.map(\.name))
    func theRunTheMeasurementAndTheLogAgree(scenario name: String) throws {
        let scenario = try #require(ScenarioCatalog.named(name))
        let (run, logs) = try Self.runAndLogs(scenario)
        let measured = try Self.measured(scenario)
        if scenario.timingDependent {
            // Threads decide the counts: the findings must still be the same,
            // but for those a count's threshold decides (how often a reader
            // loops while the writer works decides whether its statement is
            // repeated enough), which the same run and its own log still
            // agree on.
            let byThreshold: Set<InsightRuleID> = [.repeatedStatement, .queryInLoop]
            func steady(_ insights: [Insight]) -> Set<String> { Set(insights.filter { !byThreshold.contains($0.rule) }.map(\.identity)) }
            for (level, log) in logs.sorted(by: { $0.key < $1.key }) {
                #expect(Set(run.map(\.identity)) == Set(log.map(\.identity)), "run against log at level \(level)")
            }
            #expect(steady(run) == steady(measured), "run against measurement")
            return
        }
        for (level, log) in logs.sorted(by: { $0.key < $1.key }) {
            if level == 1 {
                #expect(Self.identified(run) == Self.identified(log), "run against log at level 1")
            } else {
                #expect(Self.described(run) == Self.described(log), "run against log at level \(level)")
            }
        }
        #expect(Self.described(run) == Self.described(measured), "run against measurement")
    }

    /// The scenario that shows the N+1 a list reading a to-one hides gets
    /// it, with the fetch's call site and the fix, from all three.
    @Test func theToOneListsNPlusOneIsFoundByEachSource() throws {
        let (run, log) = try Self.runAndLog(.toOneList)
        let measured = try Self.measured(.toOneList)
        for insights in [run, log, measured] {
            let nPlusOne = try #require(insights.first { $0.rule == .nPlusOne })
            #expect(nPlusOne.identity == "n-plus-one/Fireball/group@BuiltInScenarios/ToOneList.swift:40")
            // At this scale the list's 50 fireballs belong to 2 groups.
            #expect(nPlusOne.count == 2)
            #expect(nPlusOne.message == "N+1: `group` loaded one object at a time for the Fireball objects of one fetch (2 queries); "
                + "prefetch it with the fetch: request.relationshipKeyPathsForPrefetching = [\"group\"]")
            #expect(nPlusOne.callSite.hasPrefix("BuiltInScenarios/ToOneList.swift:"))
            #expect(nPlusOne.fix?.kind == .prefetch)
        }
    }
}
