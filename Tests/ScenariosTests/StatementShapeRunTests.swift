@testable import BuiltInScenarios
import Foundation
import Probes
import Reporting
@testable import Scenarios
import Testing

/// Each statement shape of a run has its query plan, asked once per shape
/// after the measured iterations, and the percentiles of its execution
/// times over them.
@Suite(.serialized) struct StatementShapeRunTests {
    @Test func eachShapeHasItsPlanAndPercentiles() throws {
        let options = ScenarioCounterTests.options()
        let iterations = options.configuration.iterations
        let reports = ScenarioRunner(options: options, cache: ScenarioCounterTests.cache).run([.fetchAll, .toOneList, .prefetch])
        for report in reports {
            #expect(report.status == .passed, "\(report.name): \(report.error ?? "")")
            // The shapes' counts are the iteration's statements, exactly.
            #expect(report.statements.reduce(0) { $0 + $1.count } == report.counters["sqlStatements"], "\(report.name)")
            for statement in report.statements {
                let durations = try #require(statement.durations, "\(report.name): \(statement.shape)")
                // Every iteration runs every shape as often (the engine is deterministic).
                #expect(durations.executions == statement.count * iterations, "\(report.name): \(statement.shape)")
                #expect(durations.iterationP90Seconds.count == iterations)
                #expect(durations.p50Seconds > 0)
                #expect(durations.p50Seconds <= durations.p90Seconds && durations.p90Seconds <= durations.p99Seconds)
                #expect(durations.p99Seconds <= durations.maxSeconds && statement.maxSeconds <= durations.maxSeconds)
                #expect(durations.iterationP90Seconds.allSatisfy { $0 <= durations.maxSeconds })
                if statement.shape.hasPrefix("SELECT") {
                    #expect(statement.queryPlan?.isEmpty == false, "\(report.name): \(statement.shape)")
                } else if statement.shape.hasPrefix("BEGIN") || statement.shape.hasPrefix("COMMIT") {
                    #expect(statement.queryPlan == nil)
                }
            }
        }
        // FetchAll: BEGIN and one SELECT of each entity, each run once an
        // iteration, each scanning its table (every row is asked for).
        let fetchAll = try #require(reports.first { $0.name == "FetchAll" })
        let selects = fetchAll.statements.filter { $0.shape.hasPrefix("SELECT") }
        #expect(selects.count == 3)
        #expect(selects.allSatisfy { $0.count == 1 && $0.durations?.executions == iterations })
        #expect(fetchAll.statements.first { $0.shape.hasPrefix("BEGIN") }?.count == 1)
        #expect(selects.allSatisfy { $0.queryPlan?.filter(QueryPlan.isFullScan).count == 1 && !$0.planHas(.temporaryBTree) })
        #expect(Set(selects.compactMap { StatementSummary($0.shape).table }) == ["Person", "Selfie", "SocialNetwork"])
        // ToOneList: the 50 most recent fireballs, a full scan and a sort
        // no index serves; each group's fault a lookup by key.
        let toOneList = try #require(reports.first { $0.name == "ToOneList" })
        let recent = try #require(toOneList.statements.first { $0.planHas(.temporaryBTree) })
        #expect(recent.planHas(.fullScan) && recent.count == 1)
        #expect(toOneList.statements.contains { statement in
            statement.count == 2 && (statement.queryPlan ?? []).contains { $0.contains("USING INTEGER PRIMARY KEY") }
        })
        // Prefetch: its four prefetch queries read by key (the list of keys
        // a bound value), no table scanned: only the selfies' fetch scans.
        let prefetch = try #require(reports.first { $0.name == "Prefetch" })
        let byKeys = prefetch.statements.filter { $0.shape.contains(" IN (SELECT value FROM json_each(?))") }
        #expect(byKeys.count == 4)
        #expect(byKeys.allSatisfy { $0.count == 1 && $0.queryPlan?.first?.hasPrefix("SEARCH ") == true && !$0.planHas(.fullScan) })
        #expect(prefetch.statements.filter { $0.planHas(.fullScan) }.map { StatementSummary($0.shape).table } == ["Selfie"])
    }
}
