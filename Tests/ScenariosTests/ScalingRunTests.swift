import Foundation
import Insights
import ObjectGraph
import Probes
import Reporting
@testable import Scenarios
import Testing

/// An application's async scenario (`try await context.perform`), run by
/// the synchronous runner; `--scales`, which fits each count against the
/// data set's scale; and `--what-if`'s fixes measured against one "as it is".
@Suite(.serialized) struct ScalingRunTests {
    static let model = try! Model([Entity("Recipe", properties: [.attribute("title", .string)])])
    /// 100 recipes at scale 1.
    static let dataSet = DataSetKind(
        name: "scaling-recipes", model: model,
        spec: DataSetSpec(entities: [.init("Recipe", base: 100, attributes: [.init("title", .text("Recipe {n}"))])]))

    /// A list screen written as an app's are: async, its work inside the
    /// context's `perform`. The fetch loads no values, so each title read
    /// is a fault of its own: 1 + N statements for N recipes.
    static let titles = Scenario(name: "RecipeTitles", summary: "Each recipe's title, read one fault at a time.", dataSet: dataSet) {
        iteration in
        let context = iteration.context()
        let read = try await iteration.phase("list") {
            try await context.perform {
                var request = FetchRequest<ManagedObject>(entityName: "Recipe")
                request.includesPropertyValues = false
                var read = 0
                for recipe in try context.fetch(request) {
                    if case .string = try recipe.value(forKey: "title") { read += 1 }
                }
                return read
            }
        }
        iteration.record("titles", Double(read))
    }

    static func options(scale: Double = 0.5) -> RunOptions {
        var options = RunOptions()
        options.configuration.scale = scale
        options.configuration.iterations = 3
        options.configuration.warmup = 1
        options.configuration.store = .memory
        return options
    }

    @Test func anAsyncBodyRunsWithExactCounters() throws {
        let report = ScenarioRunner(options: Self.options()).run(Self.titles)
        #expect(report.status == .passed, "\(report.error ?? "")")
        #expect(Self.titles.asyncBody != nil)
        // 50 recipes at scale 0.5: the context's BEGIN, the fetch, then one SELECT per title.
        #expect(report.counters[.sqlStatements] == 52)
        #expect(report.counters[.faultsFired] == 50)
        #expect(report.counters[.cacheMisses] == 50)
        #expect(report.values["titles"] == 50)
        #expect(report.samples.count == 3)
        // The async phase measured what ran inside it.
        #expect(report.phases?.first?.counters[.sqlStatements] == 52)
        #expect(report.advisoryCounters == ["objectsRegisteredPeak"])
    }

    /// Bodies run by hand from more tasks than the cooperative pool has
    /// threads, each waiting for its own: none waits for a pool thread.
    @Test func asyncBodiesRunFromThePoolDoNotDeadlock() async throws {
        let results = try await withThrowingTaskGroup(of: Double.self) { group in
            for _ in 0..<(2 * ProcessInfo.processInfo.activeProcessorCount + 2) {
                group.addTask {
                    let store = try Store(model: Self.model, location: .memory)
                    try Self.dataSet.build(into: store, scale: 0.1, seed: 1)
                    let iteration = ScenarioIteration(store: store, scale: 0.1, seed: 1, scenario: "RecipeTitles")
                    try Self.titles.body(iteration)
                    return iteration.values["titles"] ?? -1
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(!results.isEmpty && results.allSatisfy { $0 == 10 })
    }

    @Test func anAsyncBodysErrorFailsTheScenario() {
        let failing = Scenario(name: "Failing", summary: "fails after an await", dataSet: Self.dataSet) { iteration in
            let context = iteration.context()
            let count = try await context.perform { try context.count(for: FetchRequest<ManagedObject>(entityName: "Recipe")) }
            try iteration.check(count == 0, "\(count) recipes, not 0")
        }
        let report = ScenarioRunner(options: Self.options()).run(failing)
        #expect(report.status == .failed)
        #expect(report.error == "50 recipes, not 0")
    }

    @Test func scalesFitEachCountAgainstTheScaleAsItIsAndWithTheFix() throws {
        var options = Self.options(scale: 1)
        options.configuration.scales = [0.5, 1]
        options.configuration.measuresFixes = true
        var progress: [RunProgress] = []
        let report = ScenarioRunner(options: options, progress: { progress.append($0) }).run(Self.titles)
        #expect(report.status == .passed, "\(report.error ?? "")")
        #expect(progress.contains(.scale(scenario: "RecipeTitles", scale: 0.5)))
        // The report's figures are those at the last scale: 100 recipes.
        #expect(report.counters[.sqlStatements] == 102)
        let scaling = try #require(report.scaling)
        #expect(scaling.scales == [0.5, 1])
        func fit(_ counter: CounterName, shape: Bool = false, fixed: Bool = false) -> ScalingFit? {
            scaling.fits.first { $0.counter == counter.rawValue && ($0.shape != nil) == shape && ($0.fix != nil) == fixed }
        }
        let statements = try #require(fit(.sqlStatements))
        #expect(statements.counts == [52, 102])
        #expect(statements.slope == 100 && statements.intercept == 2 && statements.residuals == nil)
        #expect(statements.growth == .linear && statements.equation == "2 + 100·N")
        let faults = try #require(fit(.faultsFired))
        #expect(faults.counts == [50, 100] && faults.equation == "100·N")
        // Per statement shape: the fault's SELECT grows, the BEGIN and the fetch do not.
        let shapes = scaling.fits.filter { $0.shape != nil && $0.fix == nil && $0.counter == "sqlStatements" }
        #expect(shapes.map(\.counts).sorted { $0[0] < $1[0] } == [[1, 1], [1, 1], [50, 100]])
        let growing = try #require(shapes.first { $0.growth == .linear })
        #expect(growing.equation == "100·N" && growing.callSite?.isEmpty == false)
        #expect(growing.description == "sqlStatements at \(growing.callSite!) = 100·N for \(growing.shape!.prefix(60))…"
            || growing.description == "sqlStatements at \(growing.callSite!) = 100·N for \(growing.shape!)")
        #expect(!scaling.shown.contains { $0.shape != nil && $0.growth == .constant })
        // The fix (values loaded at the fetch) at both scales: BEGIN and one fetch, whatever N.
        let insight = try #require(report.insights.first { $0.fix?.kind == .loadValues })
        let fixed = try #require(scaling.fits.first { $0.fix == insight.fix && $0.counter == "sqlStatements" && $0.shape == nil })
        #expect(fixed.counts == [2, 2] && fixed.growth == .constant && fixed.equation == "2")
        #expect(fixed.description == "sqlStatements (with \(insight.fix!.summary)) = 2")
        // The fix was measured against the run's own "as it is".
        let outcome = try #require(insight.whatIf)
        #expect(outcome.before == report.asItIs)
        #expect(outcome.before.samples == report.samples.map(\.wallSeconds))
        #expect(outcome.after?.counters[.sqlStatements] == 2)
    }

    @Test func aScaleThatFailsFailsTheScenarioNamingTheScale() {
        let picky = Scenario(name: "Picky", summary: "fails at scale 0.5", dataSet: Self.dataSet) { iteration in
            try iteration.check(iteration.scale == 1, "not at scale 1")
        }
        var options = Self.options(scale: 1)
        options.configuration.scales = [0.5, 1]
        let report = ScenarioRunner(options: options).run(picky)
        #expect(report.status == .failed)
        #expect(report.error == "at scale 0.5: not at scale 1")
        #expect(report.scaling == nil)
    }
}
