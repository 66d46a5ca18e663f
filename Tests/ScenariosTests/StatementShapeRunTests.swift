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
                } else if ["BEGIN", "COMMIT"].contains(statement.shape) {
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
        #expect(fetchAll.statements.first { $0.shape == "BEGIN" }?.count == 1)
        #expect(selects.allSatisfy { $0.planHas(.fullScan) && !$0.planHas(.temporaryBTree) })
        let scanned = Set(selects.flatMap { $0.queryPlan ?? [] }.filter(QueryPlan.isFullScan).compactMap(QueryPlan.table(of:)))
        #expect(scanned.count == 3)
        // ToOneList: the 50 most recent fireballs, a full scan and a sort
        // no index serves; each group's fault a lookup by key.
        let toOneList = try #require(reports.first { $0.name == "ToOneList" })
        let recent = try #require(toOneList.statements.first { $0.planHas(.temporaryBTree) })
        #expect(recent.planHas(.fullScan) && recent.count == 1)
        #expect(toOneList.statements.contains { statement in
            statement.count == 2 && (statement.queryPlan ?? []).contains { $0.contains("USING INTEGER PRIMARY KEY") }
        })
        // Prefetch: a shape whose IN list folds still has its plan (asked of
        // its first statement's text), which scans nothing.
        let prefetch = try #require(reports.first { $0.name == "Prefetch" })
        let folded = prefetch.statements.filter { $0.shape.contains("IN (…)") }
        #expect(!folded.isEmpty)
        #expect(folded.allSatisfy { $0.queryPlan?.isEmpty == false && !$0.planHas(.fullScan) })
    }
}
