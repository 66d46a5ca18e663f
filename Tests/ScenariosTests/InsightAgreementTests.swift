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
/// the SQL debug log its run wrote.
@Suite(.serialized) struct InsightAgreementTests {
    static let scale = 0.02

    /// An insight as the three sources must agree on it.
    static func described(_ insights: [Insight]) -> [String] {
        insights.map { "\($0.identity) ×\($0.count ?? -1)\($0.intended == nil ? "" : " (intended)"): \($0.message)" }.sorted()
    }

    /// The scenario's insights from a run (with its SQL debug log) and
    /// from that log.
    static func runAndLog(_ scenario: Scenario) throws -> (run: [Insight], log: [Insight]) {
        let logPath = FileManager.default.temporaryDirectory.appendingPathComponent("agreement-\(scenario.name)-\(UUID()).log").path
        defer { try? FileManager.default.removeItem(atPath: logPath) }
        var options = RunOptions()
        options.configuration.scale = scale
        options.configuration.iterations = 1
        options.configuration.warmup = 0
        options.sinks = [try SQLDebugLogSink(level: 2, destination: .file(logPath))]
        let runner = ScenarioRunner(options: options, cache: ScenarioCounterTests.cache)
        try runner.prepare()
        let report = try #require(runner.run([scenario]).first)
        try #require(report.status == .passed, "\(scenario.name): \(report.error ?? "")")
        var analyzer = SQLLogAnalyzer(sourceName: "agreement.log", settings: scenario.insights)
        try analyzer.consume(try LogFile.open(logPath), path: logPath)
        return (report.insights, analyzer.finish().insights)
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
        let (run, log) = try Self.runAndLog(scenario)
        let measured = try Self.measured(scenario)
        if scenario.timingDependent {
            // Threads decide the counts: the findings must still be the same.
            #expect(Set(run.map(\.identity)) == Set(log.map(\.identity)), "run against log")
            #expect(Set(run.map(\.identity)) == Set(measured.map(\.identity)), "run against measurement")
            return
        }
        #expect(Self.described(run) == Self.described(log), "run against log")
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
