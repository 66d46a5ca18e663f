import Foundation
import Insights
import Probes
import Reporting
import Testing

/// Verdicts on constructed reports.
@Suite struct ReportComparisonTests {
    static func report(
        _ scenarios: [ScenarioReport], scale: Double = 0.1, cpu: String = "CPU A", build: String = "release", sqlite: String = "3.40.1"
    ) -> Report {
        Report(
            tool: .init(name: "perf-run", version: "0.1.0", commandLine: []),
            environment: .init(operatingSystem: "Debian", cpuModel: cpu, cores: 2, swiftVersion: "6.3", sqliteVersion: sqlite,
                               buildConfiguration: build, gitCommit: nil, hostName: "ci"),
            configuration: .init(scale: scale, seed: 1, iterations: 10, warmup: 1, store: .file, timeoutSeconds: nil),
            scenarios: scenarios)
    }

    static func scenario(_ name: String = "Prefetch", times: [Double], counters: [String: Int] = ["sqlStatements": 5, "rowsRead": 100],
                         insights: [Insight] = [], advisory: [String] = ["objectsRegisteredPeak"]) -> ScenarioReport {
        ScenarioReport(
            name: name, description: "", dataSet: "selfies", status: .passed,
            samples: times.map { Sample(wallSeconds: $0, cpuSeconds: $0, peakResidentBytes: nil) }, counters: counters,
            advisoryCounters: advisory, insights: insights)
    }

    static let steady = [0.100, 0.101, 0.099, 0.102, 0.100, 0.098, 0.101, 0.100, 0.103, 0.099]

    @Test func aCounterIncreaseIsARegressionUnlessAllowed() {
        let base = Self.report([Self.scenario(times: Self.steady)])
        let head = Self.report([Self.scenario(times: Self.steady, counters: ["sqlStatements": 7, "rowsRead": 100])])
        let comparison = ReportComparer().compare(base, head)
        #expect(comparison.hasRegression)
        #expect(comparison.scenarios[0].counters.first { $0.name == "sqlStatements" }?.verdict == .regression)
        var lenient = ReportComparer()
        lenient.thresholds = Thresholds(scenarios: ["Prefetch": ["sqlStatements": CounterAllowance(absolute: 2)]])
        #expect(!lenient.compare(base, head).hasRegression)
        #expect(lenient.compare(base, head).scenarios[0].counters.first { $0.name == "sqlStatements" }?.verdict == .allowed)
    }

    /// More fetches or cache hits is not slower by itself: a change, not a
    /// regression (unless every change is, with --exact-counters).
    @Test func aCounterThatIsNoCostChangesWithoutARegression() throws {
        let base = Self.report([Self.scenario(times: Self.steady, counters: ["sqlStatements": 5, "rowsRead": 100, "cacheHits": 10, "fetches": 2])])
        let head = Self.report([Self.scenario(times: Self.steady, counters: ["sqlStatements": 5, "rowsRead": 100, "cacheHits": 30, "fetches": 1])])
        let comparison = ReportComparer().compare(base, head)
        #expect(!comparison.hasRegression)
        #expect(comparison.scenarios[0].counters.filter { $0.verdict == .changed }.map(\.name) == ["fetches", "cacheHits"])
        #expect(try ComparisonFormat.text.render(comparison).contains("fetches 2 → 1 (−1, changed), cacheHits 10 → 30 (+20, changed)"))
        var exact = ReportComparer()
        exact.exactCounters = true
        #expect(exact.compare(base, head).hasRegression)
        // Every cost counter's increase is a regression.
        for counter in CounterName.allCases where counter.direction == .cost {
            var less = ["sqlStatements": 5, "rowsRead": 100]
            less[counter.rawValue] = less[counter.rawValue] ?? 0
            var more = less
            more[counter.rawValue]! += 1
            let before = Self.report([Self.scenario(times: Self.steady, counters: less)])
            #expect(ReportComparer().compare(before, Self.report([Self.scenario(times: Self.steady, counters: more)])).hasRegression, "\(counter)")
        }
    }

    /// A new insight is a regression unless it is accepted or done on purpose.
    @Test func onlyANewInsightToActOnIsARegression() {
        let base = Self.report([Self.scenario(times: Self.steady)])
        var found = Insight(rule: .nPlusOne, entity: "Post", keyPath: "author", message: "N+1", evidence: "", callSite: "App/List.swift:3")
        #expect(ReportComparer().compare(base, Self.report([Self.scenario(times: Self.steady, insights: [found])])).hasRegression)
        found.intended = "the scenario measures it"
        #expect(!ReportComparer().compare(base, Self.report([Self.scenario(times: Self.steady, insights: [found])])).hasRegression)
        found.intended = nil
        found.accepted = true
        #expect(!ReportComparer().compare(base, Self.report([Self.scenario(times: Self.steady, insights: [found])])).hasRegression)
    }

    /// An added statement shape says where head runs it first.
    @Test func addedStatementsCarryTheirCallSite() throws {
        let base = Self.report([Self.scenario(times: Self.steady)])
        var scenario = Self.scenario(times: Self.steady)
        scenario.statements = [StatementReport(
            shape: "SELECT t0.pk FROM \"Author\" t0 WHERE t0.pk = ?", purpose: "fault", count: 20, totalSeconds: 0.001, maxSeconds: 0.0001,
            rowsReturned: 20, rowsChanged: 0, fullScanSteps: 0, firstCallSite: "App/List.swift:14", queryPlan: nil)]
        let comparison = ReportComparer().compare(base, Self.report([scenario]))
        #expect(comparison.scenarios[0].statements.map(\.callSite) == ["App/List.swift:14"])
        #expect(try ComparisonFormat.markdown.render(comparison).contains("- Prefetch: added (0 → 20) at App/List.swift:14 `SELECT t0.pk FROM \"Author\" t0 WHERE t0.pk = ?`"))
        #expect(try ComparisonFormat.text.render(comparison).contains("  statement added (0 → 20) at App/List.swift:14: SELECT t0.pk"))
    }

    @Test func improvementsDoNotFailButExactCountersDo() {
        let base = Self.report([Self.scenario(times: Self.steady)])
        let head = Self.report([Self.scenario(times: Self.steady, counters: ["sqlStatements": 3, "rowsRead": 100])])
        #expect(!ReportComparer().compare(base, head).hasRegression)
        #expect(ReportComparer().compare(base, head).scenarios[0].counters.first { $0.name == "sqlStatements" }?.verdict == .improvement)
        var exact = ReportComparer()
        exact.exactCounters = true
        #expect(exact.compare(base, head).hasRegression)
    }

    @Test func advisoryCountersNeverGate() {
        let base = Self.report([Self.scenario(times: Self.steady, counters: ["objectsRegisteredPeak": 10])])
        let head = Self.report([Self.scenario(times: Self.steady, counters: ["objectsRegisteredPeak": 900])])
        var exact = ReportComparer()
        exact.exactCounters = true
        #expect(!exact.compare(base, head).hasRegression)
        #expect(exact.compare(base, head).scenarios[0].counters[0].verdict == .advisory)
    }

    @Test func aSlowerTimingIsARegression() {
        let base = Self.report([Self.scenario(times: Self.steady)])
        let head = Self.report([Self.scenario(times: Self.steady.map { $0 * 1.3 })])
        let comparison = ReportComparer().compare(base, head)
        #expect(comparison.scenarios[0].timing?.verdict == .slower)
        #expect(comparison.hasRegression)
        let faster = ReportComparer().compare(head, base)
        #expect(faster.scenarios[0].timing?.verdict == .faster)
        #expect(!faster.hasRegression)
    }

    /// A phase is part of the scenario's time, often a few hundred
    /// microseconds: its verdict is shown, never gating (the scenario's own
    /// time gates).
    @Test func aSlowerPhaseIsShownWithoutGating() throws {
        func withPhases(_ cold: [Double]) -> ScenarioReport {
            var scenario = Self.scenario("Cache", times: Self.steady)
            scenario.phases = [
                PhaseReport(name: "cold", samples: cold, sqliteSeconds: cold.map { $0 / 2 }, counters: [:]),
                PhaseReport(name: "warm", samples: Self.steady.map { $0 / 10 }, sqliteSeconds: Self.steady.map { _ in 0 }, counters: [:]),
            ]
            return scenario
        }
        let base = Self.report([withPhases(Self.steady.map { $0 / 4 })])
        let head = Self.report([withPhases(Self.steady.map { $0 / 2 })])
        let comparison = ReportComparer().compare(base, head)
        let scenario = try #require(comparison.scenarios.first)
        #expect(scenario.timing?.verdict == .unchanged)
        #expect(scenario.phases.map(\.name) == ["cold", "warm"])
        #expect(scenario.phases.map(\.timing.verdict) == [.slower, .unchanged])
        #expect(abs((scenario.phases[0].timing.ratio ?? 0) - 2) < 1e-9)
        #expect(!comparison.hasRegression)
        #expect(scenario.outcome == .unchanged)
        let text = try ComparisonFormat.text.render(comparison)
        #expect(text.contains("  phase cold: 24.8 ms → 49.6 ms ×2.00 ["), "\(text)")
        #expect(!text.contains("phase warm"), "\(text)")
        #expect(try ComparisonFormat.markdown.render(comparison).contains("| Cache · cold | 24.8 ms → 49.6 ms ×2.00"))
        let json = try ComparisonFormat.json.render(comparison)
        #expect(try JSONDecoder().decode(ReportComparison.self, from: Data(json.utf8)) == comparison)
        // A phase only one report has is not compared.
        let unphased = Self.report([Self.scenario("Cache", times: Self.steady)])
        #expect(ReportComparer().compare(unphased, head).scenarios[0].phases.isEmpty)
    }

    @Test func aChangeUnderTheNoiseFloorIsNoise() {
        let base = Self.report([Self.scenario(times: Self.steady)])
        let head = Self.report([Self.scenario(times: Self.steady.map { $0 * 1.03 })])
        let comparison = ReportComparer().compare(base, head)  // floor: 5%
        #expect(comparison.scenarios[0].timing?.verdict == .unchanged)
        #expect(!comparison.hasRegression)
    }

    @Test func tooFewSamplesAreInconclusive() {
        let base = Self.report([Self.scenario(times: Array(Self.steady.prefix(5)))])
        let head = Self.report([Self.scenario(times: Self.steady.prefix(5).map { $0 * 2 })])
        let timing = ReportComparer().compare(base, head).scenarios[0].timing
        #expect(timing?.verdict == .inconclusive)
        #expect(timing?.reason == "fewer than 9 samples a side (5 and 5)")
    }

    @Test func otherMachinesAndScalesAreNotComparable() {
        let base = Self.report([Self.scenario(times: Self.steady)])
        let elsewhere = Self.report([Self.scenario(times: Self.steady.map { $0 * 3 }, counters: ["sqlStatements": 9, "rowsRead": 100])], cpu: "CPU B")
        let comparison = ReportComparer().compare(base, elsewhere)
        #expect(comparison.timingsNotComparable == "CPU CPU A against CPU B")
        #expect(comparison.scenarios[0].timing?.verdict == .notComparable)
        #expect(comparison.countersNotComparable == nil)
        #expect(comparison.hasRegression)  // the counters still gate
        let otherScale = Self.report([Self.scenario(times: Self.steady, counters: ["sqlStatements": 9])], scale: 0.2)
        let scaled = ReportComparer().compare(base, otherScale)
        #expect(scaled.countersNotComparable == "scale 0.1 against 0.2")
        #expect(scaled.scenarios[0].counters.isEmpty)
        #expect(!scaled.hasRegression)
    }

    /// Times taken by different clocks do not compare (each reading costs
    /// what its clock costs); a report from before the clock was recorded
    /// compares with any.
    @Test func runsTimedByDifferentClocksAreNotComparable() {
        var base = Self.report([Self.scenario(times: Self.steady)])
        var head = Self.report([Self.scenario(times: Self.steady)])
        base.environment.clock = "the time-stamp counter"
        head.environment.clock = "clock_gettime"
        #expect(ReportComparer().compare(base, head).timingsNotComparable == "timed by the time-stamp counter against clock_gettime")
        head.environment.clock = nil
        #expect(ReportComparer().compare(base, head).timingsNotComparable == nil)
    }

    @Test func newInsightsFailUnlessAccepted() {
        let storm = Insight(rule: .faultStorm, entity: "Person", keyPath: "people", message: "m", evidence: "e", callSite: "c")
        let base = Self.report([Self.scenario(times: Self.steady)])
        let head = Self.report([Self.scenario(times: Self.steady, insights: [storm])])
        #expect(ReportComparer().compare(base, head).hasRegression)
        var accepting = ReportComparer()
        accepting.accepted = AcceptedInsights(identities: ["fault-storm/Person/people"])
        #expect(!accepting.compare(base, head).hasRegression)
        #expect(!ReportComparer().compare(head, head).hasRegression)
    }

    @Test func formatsSayTheVerdict() throws {
        let base = Self.report([Self.scenario(times: Self.steady)])
        let head = Self.report([Self.scenario(times: Self.steady, counters: ["sqlStatements": 7, "rowsRead": 100])])
        let comparison = ReportComparer().compare(base, head)
        let text = try ComparisonFormat.text.render(comparison)
        #expect(text.hasPrefix("1 regression · 0 improvements · 0 unchanged · 0 not comparable\n"), "\(text)")
        #expect(text.contains("\nregression  Prefetch: sqlStatements 5 → 7 (+2, regression); time "), "\(text)")
        #expect(text.hasSuffix("verdict: regression\n"))
        let markdown = try ComparisonFormat.markdown.render(comparison)
        #expect(markdown.hasPrefix("## Faultline: ❌ 1 regression · 0 improvements · 0 unchanged · 0 not comparable\n"), "\(markdown)")
        #expect(markdown.contains("| ❌ | Prefetch | sqlStatements 5 → 7 (+2, regression) | ×1.00 |"), "\(markdown)")
        #expect(markdown.contains("<details><summary>How to read this</summary>"))
        let json = try ComparisonFormat.json.render(comparison)
        #expect(try JSONDecoder().decode(ReportComparison.self, from: Data(json.utf8)) == comparison)
    }

    @Test func anAAComparisonGivesANoiseFloor() throws {
        let a = Self.report([Self.scenario(times: Self.steady)])
        let aa = ReportComparer().compare(a, Self.report([Self.scenario(times: Self.steady.reversed())]))
        let path = NSTemporaryDirectory() + "aa-\(UUID()).json"
        try ComparisonFormat.json.render(aa).write(toFile: path, atomically: true, encoding: .utf8)
        let floor = try NoiseFloor.read(path)
        #expect(floor.scenarios["Prefetch"] != nil)
        #expect((floor.scenarios["Prefetch"] ?? 1) < 0.05)
    }

    /// A timing verdict without a measured floor says so: two A/A runs can
    /// disagree at p < 0.05.
    @Test func theTextSaysWhenNoNoiseFloorWasGiven() throws {
        let base = Self.report([Self.scenario(times: Self.steady)])
        let head = Self.report([Self.scenario(times: Self.steady.reversed())])
        let note = "timings: CPU time on the machine's speed, beyond the samples' spread and a 25% floor"
        let without = ReportComparer().compare(base, head)
        #expect(without.noiseFloorGiven == false)
        #expect(try ComparisonFormat.text.render(without).contains(note))
        var comparer = ReportComparer()
        comparer.noiseFloor = NoiseFloor(relative: 0.02)
        let with = comparer.compare(base, head)
        #expect(with.noiseFloorGiven == true)
        #expect(try ComparisonFormat.text.render(with).contains("and the noise floor given"))
        // Timings of other machines are not compared at all: no note.
        let elsewhere = ReportComparer().compare(base, Self.report([Self.scenario(times: Self.steady)], cpu: "CPU B"))
        #expect(try !ComparisonFormat.text.render(elsewhere).contains("25% floor"))
    }
}
