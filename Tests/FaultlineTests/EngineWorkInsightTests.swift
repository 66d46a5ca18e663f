@testable import Faultline
import Foundation
import Insights
import ObjectGraph
import Probes
import SQLLogViewer
import Testing

/// What the engine loads for its own bookkeeping (an inverse kept in step,
/// a delete rule applied) is counted, and is never taken for the
/// application's reads: no N+1, no repeated count, no repeated statement,
/// in a measurement as in the SQL debug log of the same work.
@Suite struct EngineWorkInsightTests {
    typealias Fixture = InsightRuleTests.Fixture

    /// The measurement of `body` on a context of the fixture's store, the
    /// insights of its SQL debug log (level 2), and the log's text.
    static func observe(_ fixture: Fixture, _ body: (ObjectContext) throws -> Void) throws -> (
        measurement: Faultline.Measurement, log: [Insight], text: String
    ) {
        fixture.log.text.withLock { $0 = "" }
        let measurement = try Faultline.measure(fixture.store) {
            let context = ObjectContext(store: fixture.store)
            try context.perform { try body(context) }
        }
        let text = fixture.log.text.withLock { $0 }
        var analyzer = SQLLogAnalyzer(sourceName: "test.log")
        for line in text.split(separator: "\n") { analyzer.consume(line: Data(line.utf8)) }
        return (measurement, analyzer.finish().insights, text)
    }

    /// The insights as the parts that must agree.
    static func described(_ insights: [Insight]) -> [String] {
        insights.map { "\($0.subject) ×\($0.count ?? -1)" }
    }

    @Test func settingAToOneInALoopLoadsTheInverseForTheEngineOnly() throws {
        let fixture = try Fixture()
        let moved = try Self.observe(fixture) { context in
            let writers = Array(try context.fetch(FetchRequest<Writer>(sortKeys: [SortKey("name")])))
            // Each essay moves to the next writer: the engine loads the old
            // and the new writer's essays to keep `essays` in step.
            for (index, essay) in try context.fetch(FetchRequest<Essay>()).enumerated() {
                essay.writer = writers[(index + 1) % writers.count]
            }
        }
        // Each writer's essays loaded once, by the engine: counted as work.
        #expect(moved.measurement.counters.relationshipFaultsFired == 3)
        #expect(moved.measurement.counters.cacheMisses == 3)
        // No insight of any rule, in the measurement or the log.
        #expect(Self.described(moved.measurement.insights) == [])
        #expect(Self.described(moved.log) == [])
        // The statements and the log lines say whose the loads are.
        let purposes = moved.measurement.statements.map(\.purpose)
        #expect(purposes.contains("engine inverse Writer.essays"))
        #expect(!purposes.contains("relationship fault Writer.essays"))
        #expect(moved.text.contains(", purpose: engine inverse Writer.essays\n"))
        #expect(moved.text.contains(": 2 Essay in "))
        #expect(moved.text.contains(" (absent; engine inverse; from fetch "))

        // The application reading each writer's essays is an N+1 still.
        let read = try Self.observe(fixture) { context in
            for writer in try context.fetch(FetchRequest<Writer>()) { _ = writer.essays.map(\.title) }
        }
        #expect(Self.described(read.measurement.insights.filter { $0.rule == .nPlusOne }) == ["n-plus-one/Writer/essays ×9"])
        #expect(Self.described(read.log.filter { $0.rule == .nPlusOne }) == ["n-plus-one/Writer/essays ×9"])
        #expect(read.measurement.statements.map(\.purpose).contains("relationship fault Writer.essays"))
    }

    @Test func theEnginesLoadsAreNoRepeatedStatement() throws {
        let fixture = try Fixture()
        // Three contexts, each moving an essay to writer 1: the engine
        // loads writer 1's essays three times with the same key.
        let moved = try Self.observe(fixture) { _ in
            for _ in 0..<3 {
                let context = ObjectContext(store: fixture.store)
                try context.perform {
                    let writer = try #require(try context.fetch(FetchRequest<Writer>(predicate: Key("name") == "Writer 1")).first)
                    let essay = try #require(try context.fetch(FetchRequest<Essay>(predicate: Key("title") == "Essay 2.1")).first)
                    essay.writer = writer
                    context.rollback()
                }
            }
        }
        // Writer 1's and writer 2's essays, from the database each time.
        #expect(moved.measurement.counters.relationshipFaultsFired == 6)
        // The application's own fetches ran three times with the same
        // values: those are repeated statements; the engine's loads are not.
        func purposes(_ insights: [Insight]) -> [String] {
            insights.filter { $0.rule == .repeatedStatement }.map { String($0.evidence.split(separator: "(").last ?? "") }.sorted()
        }
        #expect(purposes(moved.measurement.insights) == ["fetch Essay)", "fetch Writer)"])
        #expect(purposes(moved.log) == ["fetch Essay)", "fetch Writer)"])
    }

    @Test func deleteRulesLoadForTheEngine() throws {
        let fixture = try Fixture()
        let deleted = try Self.observe(fixture) { context in
            for essay in try context.fetch(FetchRequest<Essay>()) { try context.delete(essay) }
        }
        // Nullify: each writer's essays loaded once to remove the essays.
        #expect(deleted.measurement.counters.relationshipFaultsFired == 3)
        #expect(Self.described(deleted.measurement.insights) == [])
        #expect(Self.described(deleted.log) == [])
        #expect(deleted.measurement.statements.map(\.purpose).contains("engine delete rule Writer.essays"))
        #expect(deleted.text.contains(" (absent; engine delete rule; from fetch "))
    }

    @Test func aPurposeNamesTheEnginesWork() {
        #expect(EngineWork.inverse.purpose("Category.recipes") == "engine inverse Category.recipes")
        #expect(EngineWork(purpose: "engine delete rule Recipe") == .deleteRule)
        #expect(EngineWork(purpose: "engine inverse Recipe.tags") == .inverse)
        #expect(EngineWork(purpose: "relationship fault Category.recipes") == nil)
        #expect(EngineWork(purpose: "fetch Recipe") == nil)
        #expect(EngineWork(purpose: "engine") == nil)
    }
}
