@testable import BuiltInScenarios
import Foundation
import Insights
import ObjectGraph
import Probes
import Reporting
@testable import Scenarios
import Testing

/// `--what-if`: each prefetch and index advice measured by running its
/// scenario again with the fix applied.
@Suite(.serialized) struct WhatIfTests {
    @Test func theToOneListsAdviceIsMeasured() throws {
        var options = RunOptions()
        options.configuration.scale = 0.02
        options.configuration.iterations = 3
        options.configuration.warmup = 1
        options.configuration.measuresFixes = true
        let runner = ScenarioRunner(options: options, cache: ScenarioCounterTests.cache)
        let report = try #require(runner.run([.toOneList]).first)
        #expect(report.status == .passed)
        // The prefetch of the fetch's key path, at its call site: no fault
        // from the database is left, and one statement fewer runs.
        let prefetch = try #require(report.insights.first { $0.rule == .nPlusOne }?.whatIf)
        #expect(prefetch.fix.kind == .prefetch && prefetch.fix.keyPath == "group")
        #expect(prefetch.before.counters[.cacheMisses] == 2 && prefetch.before.counters[.sqlStatements] == 4)
        #expect(prefetch.after?.counters[.cacheMisses] == 0 && prefetch.after?.counters[.sqlStatements] == 3)
        #expect(prefetch.before.samples.count == 3 && prefetch.after?.samples.count == 3)
        // Less work: time decides only beyond the noise.
        #expect([.faster, .lessWork, .slower].contains(prefetch.verdict), "\(prefetch.reason)")
        #expect(prefetch.reason.hasPrefix("prefetch `group`: sqlStatements 4 → 3, faultsFired 52 → 0, cacheMisses 2 → 0, vmSteps "))
        // The index, on a copy of the data set: the sort reads 50 rows in
        // order instead of scanning all 200.
        let index = try #require(report.insights.first { $0.rule == .sortWithoutIndex }?.whatIf)
        #expect(index.fix == InsightFix(kind: .index, entity: "Fireball", keyPath: "timestamp"))
        #expect(index.before.counters[.fullScanSteps] == 199 && index.after?.counters[.fullScanSteps] == 49)
        // Both fixes were measured in one stretch against one "as it is":
        // the run's own figures.
        #expect(prefetch.before == index.before && prefetch.before == report.asItIs)
        #expect(prefetch.before.samples == report.samples.map(\.wallSeconds))
        // The report writes that side once: as the scenario's own figures.
        let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        #expect(!json.contains("\"before\""))
        #expect(try JSONDecoder().decode(ScenarioReport.self, from: Data(json.utf8)) == report)
        // The data set itself has no such index: the next run scans again.
        var plain = options
        plain.configuration.measuresFixes = false
        let again = try #require(ScenarioRunner(options: plain, cache: ScenarioCounterTests.cache).run([.toOneList]).first)
        #expect(again.counters[.fullScanSteps] == 199)
        #expect(again.insights.allSatisfy { $0.whatIf == nil })
    }

    @Test func aFixIsAppliedOnlyWhereItsFetchIsAskedFor() throws {
        let fix = InsightFix(kind: .prefetch, entity: "Fireball", keyPath: "group", fetchSites: [CallSite(file: "App/List.swift", line: 3)])
        let whatIf = ScenarioRunner.whatIf(for: fix)
        #expect(whatIf.fetchAmendments == [FetchAmendment(entity: "Fireball", site: CallSite(file: "App/List.swift", line: 3), prefetching: ["group"])])
        #expect(ScenarioRunner.whatIf(for: InsightFix(kind: .index, entity: "Selfie", keyPath: "name")).indexes
            == [WhatIf.Index(entity: "Selfie", attribute: "name")])
        #expect(ScenarioRunner.whatIf(for: InsightFix(kind: .loadValues, entity: "Post", keyPath: "", fetchSites: [.unknown])).fetchAmendments
            .map(\.loadsValues) == [true])
    }
}
