import Foundation
import ObjectGraph
import Reporting
@testable import Scenarios
import Testing

/// `compare` on this machine, as a CI job uses it: two runs of the same
/// code (an A/A pair) pass, 19 times in 20 at least; a real 2x slowdown of
/// one scenario's work fails, every time. The runs are the runner's own
/// (warm-up, machine probes, CPU times), each a report of its own, while
/// the rest of the suite runs beside them.
@Suite(.serialized) struct ComparisonStabilityTests {
    static let model = try! Model([Entity("Recipe", properties: [.attribute("title", .string), .attribute("minutes", .int64)])])
    /// 100 recipes.
    static let dataSet = DataSetKind(
        name: "stability-recipes", model: model,
        spec: DataSetSpec(entities: [
            .init("Recipe", base: 100, attributes: [.init("title", .text("Recipe {n}")), .init("minutes", .uniformInt(5...120))])
        ]))

    /// Every recipe's title, one fault at a time: SQL, faults, row cache.
    static let titles = Scenario(name: "Titles", summary: "Each title, read one fault at a time.", dataSet: dataSet) { iteration in
        let context = iteration.context()
        var request = FetchRequest<ManagedObject>(entityName: "Recipe")
        request.includesPropertyValues = false
        var read = 0
        for recipe in try context.fetch(request) {
            if case .string = try recipe.value(forKey: "title") { read += 1 }
        }
        iteration.record("titles", Double(read))
    }

    /// One fetch, then `rounds` passes over the objects in memory: the
    /// counters are the same whatever `rounds` is, the work is not.
    static func search(rounds: Int) -> Scenario {
        Scenario(name: "Search", summary: "Searches the titles in memory.", dataSet: dataSet) { iteration in
            let context = iteration.context()
            let recipes = try context.fetch(FetchRequest<ManagedObject>(entityName: "Recipe"))
            var found = 0
            for round in 0..<rounds {
                let digit = String(round % 10)
                for recipe in recipes {
                    if case .string(let title) = try recipe.value(forKey: "title"), title.hasSuffix(digit) { found += 1 }
                }
            }
            iteration.record("found", Double(found))
        }
    }

    /// Saves a change to every recipe: a scenario that writes (and syncs).
    static let saves = Scenario(name: "Saves", summary: "Changes every recipe and saves.", dataSet: dataSet, writes: true) { iteration in
        let context = iteration.context()
        for recipe in try context.fetch(FetchRequest<ManagedObject>(entityName: "Recipe")) {
            try recipe.setValue(.integer(1), forKey: "minutes")
        }
        try context.save()
    }

    static let rounds = 50

    /// One run of the three scenarios, as a report.
    static func run(rounds: Int, cache: DataSetCache) -> Report {
        var options = RunOptions()
        options.configuration.iterations = 10
        options.configuration.warmup = 1
        let runner = ScenarioRunner(options: options, cache: cache)
        let reports = runner.run([titles, search(rounds: rounds), saves])
        return RunReport.make(reports, options: options, commandLine: ["stability"])
    }

    @Test func twentyAAPairsPassAndATwofoldSlowdownFailsEveryTime() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-stability-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = DataSetCache(directory: directory)
        let comparer = ReportComparer()
        var failures: [String] = []
        for pair in 1...20 {
            let (base, head) = (Self.run(rounds: Self.rounds, cache: cache), Self.run(rounds: Self.rounds, cache: cache))
            let comparison = comparer.compare(base, head)
            #expect(comparison.nothingComparable == nil)
            #expect(comparison.scenarios.allSatisfy { $0.counters.allSatisfy { $0.verdict == .same || $0.verdict == .advisory } })
            if comparison.hasRegression {
                failures.append("pair \(pair): " + comparison.scenarios.filter(\.regression).map { scenario in
                    "\(scenario.name) ×\(scenario.timing?.machineAdjustedRatio ?? scenario.timing?.ratio ?? 0)"
                }.joined(separator: ", "))
            }
        }
        #expect(failures.count <= 1, "A/A pairs that failed: \(failures)")

        for attempt in 1...3 {
            let base = Self.run(rounds: Self.rounds, cache: cache)
            let head = Self.run(rounds: 2 * Self.rounds, cache: cache)
            let comparison = comparer.compare(base, head)
            let search = try #require(comparison.scenarios.first { $0.name == "Search" })
            // The same counters: only the time tells.
            #expect(search.counters.allSatisfy { $0.verdict == .same || $0.verdict == .advisory })
            #expect(
                search.timing?.verdict == .slower,
                "attempt \(attempt): \(String(describing: search.timing)), machine \(String(describing: search.machine))")
            #expect(comparison.hasRegression)
        }
    }
}
