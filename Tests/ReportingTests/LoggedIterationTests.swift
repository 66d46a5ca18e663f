import Foundation
@testable import Insights
import Probes
@testable import SQLLogViewer
import Testing

/// Faultline's log marks a run's iterations (`iteration <n> begins:
/// <scenario>`, `… ends: …`), and the reader judges one iteration of each
/// scenario, as the run's report does; and level 1 names bound values by a
/// digest, so repeats are told from loops over keys at every level.
@Suite struct LoggedIterationTests {
    static func analyze(_ lines: [String]) -> SQLLogAnalysis {
        var analyzer = SQLLogAnalyzer(sourceName: "run.log")
        for line in lines { analyzer.consume(line: Data(line.utf8)) }
        return analyzer.finish()
    }

    /// One statement at a site, with `value` bound (at level 2).
    static func lookup(_ value: Int, site: String = "App/List.swift:9") -> [String] {
        [
            "faultline: sql: SELECT t0.pk FROM \"Recipe\" t0 WHERE t0.\"key\" = ?",
            "faultline: details: bind[0] = \(value)",
            "faultline: annotation: sql execution time: 0.000010s, rows: 1, changed: 0, purpose: fetch Recipe",
            "faultline: annotation: fetch of Recipe where key == \(value): 1 objects in 0.000020s at \(site)",
        ]
    }

    static func iteration(_ number: Int, of scenario: String, _ body: [String]) -> [String] {
        ["faultline: annotation: iteration \(number) begins: \(scenario)"] + body + ["faultline: annotation: iteration \(number) ends: \(scenario)"]
    }

    @Test func eachScenarioIsJudgedAtItsLastMeasuredIteration() throws {
        // The same lookup once per iteration: a repeat of the whole log, no pattern in one iteration.
        let once = (-1...2).flatMap { Self.iteration($0, of: "Recipe list", Self.lookup(1)) }
        let judged = Self.analyze(once)
        #expect(judged.scenarios?.map(\.name) == ["Recipe list"])
        #expect(judged.scenarios?.first?.iterations == 4)
        #expect(judged.scenarios?.first?.iteration == 2)
        #expect(judged.insights.isEmpty, "\(judged.insights.map(\.identity))")
        // Read whole (no marks), the four lookups with one value are a repeated statement.
        #expect(Self.analyze((-1...2).flatMap { _ in Self.lookup(1) }).insights.map(\.rule) == [.repeatedStatement])

        // A loop in the measured iteration, none in the warm-up: the loop is found, with one iteration's count.
        let loop = Self.iteration(0, of: "S", Self.lookup(1)) + Self.iteration(1, of: "S", (1...6).flatMap { Self.lookup($0) })
        let found = try #require(Self.analyze(loop).insights.first)
        #expect(found.identity == "query-in-loop/Recipe/SELECT t0.pk FROM \"Recipe\" t0 WHERE t0.\"key\" = ?@App/List.swift:9")
        #expect(found.count == 6)
        // Two scenarios: each its own insights, in the order they ran.
        let two = Self.analyze(Self.iteration(1, of: "A", (1...5).flatMap { Self.lookup($0) }) + Self.iteration(1, of: "B", Self.lookup(1)))
        #expect(two.scenarios?.map { "\($0.name): \($0.insights.map(\.rule))" } == ["A: [query-in-loop]", "B: []"])
    }

    @Test func workOutsideIterationsIsNotJudged() {
        // Set-up before the first iteration, and an iteration whose end the log lacks.
        let lines = (1...6).flatMap { Self.lookup($0) } + Self.iteration(1, of: "S", Self.lookup(1))
            + ["faultline: annotation: iteration 2 begins: S"] + (1...6).flatMap { Self.lookup($0) }
        let analysis = Self.analyze(lines)
        #expect(analysis.scenarios?.map(\.iteration) == [1])
        #expect(analysis.insights.isEmpty)
        // Its statements are still in the log's tables.
        #expect(analysis.statements.first?.count == 13)
        // An end without its begin judges nothing.
        #expect(Self.analyze(Self.lookup(1) + ["faultline: annotation: iteration 3 ends: S"]).scenarios == [])
    }

    @Test func theWriterMarksIterationsAndTheReaderReadsThem() throws {
        let begin = ScenarioEvent(start: 0, thread: 0, scenario: "Lists: 100 rows", phase: .iterationBegin, step: "", iteration: -2)
        let lines = SQLDebugLogFormat.lines(for: .scenario(begin), level: 1)
        #expect(lines == ["faultline: annotation: iteration -2 begins: Lists: 100 rows"])
        var end = begin
        end.phase = .iterationEnd
        let step = ScenarioEvent(start: 0, thread: 0, scenario: "S", phase: .step, step: "load", iteration: 0)
        #expect(SQLDebugLogFormat.lines(for: .scenario(step), level: 4).isEmpty)
        let analysis = Self.analyze(lines + SQLDebugLogFormat.lines(for: .scenario(end), level: 1))
        #expect(analysis.scenarios == [SQLLogAnalysis.JudgedScenario(name: "Lists: 100 rows", iterations: 1, iteration: -2, insights: [])])
    }

    /// Level 1 writes a digest of a statement's values: the same values,
    /// the same digest; a repeat is found, a loop over keys too.
    @Test func levelOneTellsRepeatsByTheirValuesDigest() throws {
        func statement(_ value: String) -> SQLEvent {
            SQLEvent(
                start: 0, durationNanoseconds: 10_000, thread: 0, sql: "SELECT t0.pk FROM \"Recipe\" t0 WHERE t0.\"key\" = ?",
                shape: "SELECT t0.pk FROM \"Recipe\" t0 WHERE t0.\"key\" = ?", shapeID: 1, arguments: [value], rowsReturned: 1, rowsChanged: 0,
                fullScanSteps: 0, sorts: 0, autoIndexes: 0, vmSteps: 0, purpose: "fetch Recipe", queryPlan: nil,
                callSite: CallSite(file: "App/List.swift", line: 9))
        }
        let one = SQLDebugLogFormat.lines(for: .sql(statement("1")), level: 1)
        #expect(one.count == 2)
        #expect(one[1] == "faultline: annotation: sql execution time: 0.000010s, rows: 1, changed: 0, values: "
            + "\(SQLDebugLogValuesDigest.digest(["1"])), purpose: fetch Recipe")
        #expect(!one.joined().contains("= 1"))
        #expect(SQLDebugLogValuesDigest.digest(["1"]) != SQLDebugLogValuesDigest.digest(["2"]))
        #expect(SQLDebugLogValuesDigest.digest(["a", "b"]) != SQLDebugLogValuesDigest.digest(["ab"]))
        // Level 2 shows the values instead.
        #expect(!SQLDebugLogFormat.lines(for: .sql(statement("1")), level: 2).joined().contains("values: "))
        let fetch = "faultline: annotation: fetch of Recipe: 1 objects in 0.000020s at App/List.swift:9"
        let repeated = Self.analyze((0..<3).flatMap { _ in SQLDebugLogFormat.lines(for: .sql(statement("1")), level: 1) + [fetch] })
        #expect(repeated.insights.map(\.rule) == [.repeatedStatement])
        #expect(repeated.statements.first?.duplicates == 2)
        let loop = Self.analyze((1...5).flatMap { SQLDebugLogFormat.lines(for: .sql(statement("\($0)")), level: 1) + [fetch] })
        #expect(loop.insights.map(\.rule) == [.queryInLoop])
        #expect(loop.statements.first?.duplicates == 0)
    }
}
