import Foundation
import Insights
import Probes
import Reporting
import Testing
import ToolSupport

/// `--scales`: least-squares lines through exact counts, the fits a
/// report holds, and `compare` of two reports' slopes.
@Suite struct ScalingFitTests {
    static let site = "App/List.swift:41"
    static let faultShape = "SELECT t0.title FROM Recipe t0 WHERE t0.id = ?"
    static let fetchShape = "SELECT t0.id FROM Recipe t0"

    /// A scenario whose list fetches once and faults `perRecipe` times per
    /// recipe: `recipes` of them.
    static func run(recipes: Int, perRecipe: Int = 1, advisory: [String] = ["objectsRegisteredPeak"]) -> ScenarioReport {
        let faults = recipes * perRecipe
        func statement(_ shape: String, count: Int, rows: Int) -> StatementReport {
            StatementReport(
                shape: shape, purpose: "", count: count, totalSeconds: 0.001, maxSeconds: 0.0001, rowsReturned: rows, rowsChanged: 0,
                fullScanSteps: 0, firstCallSite: site, queryPlan: nil)
        }
        return ScenarioReport(
            name: "RecipeTitles", description: "", dataSet: "recipes", status: .passed,
            samples: [Sample(wallSeconds: 0.01, cpuSeconds: 0.01, peakResidentBytes: nil)],
            counters: ["sqlStatements": 1 + faults, "rowsRead": recipes + faults, "faultsFired": faults, "fetches": 1],
            advisoryCounters: advisory,
            statements: [statement(faultShape, count: faults, rows: faults), statement(fetchShape, count: 1, rows: recipes)])
    }

    @Test func twoScalesGiveTheLineThroughThem() throws {
        let fit = try #require(ScalingFit(counter: "sqlStatements", scales: [0.5, 1], counts: [51, 101]))
        #expect(fit.slope == 100 && fit.intercept == 1)
        #expect(fit.residuals == nil && fit.growth == .linear)
        #expect(fit.equation == "1 + 100·N" && fit.description == "sqlStatements = 1 + 100·N")
        let constant = try #require(ScalingFit(counter: "sqlStatements", scales: [0.5, 1], counts: [3, 3]))
        #expect(constant.slope == 0 && constant.intercept == 3 && constant.growth == .constant && constant.equation == "3")
        let falling = try #require(ScalingFit(counter: "rowsRead", scales: [1, 2], counts: [10, 8]))
        #expect(falling.equation == "12 − 2·N")
        // One scale, or the same scale twice, is no line.
        #expect(ScalingFit(counter: "sqlStatements", scales: [1], counts: [3]) == nil)
        #expect(ScalingFit(counter: "sqlStatements", scales: [1, 1], counts: [3, 4]) == nil)
    }

    @Test func threeScalesGiveResiduals() throws {
        // On a line: every residual is 0, decimal scales included.
        let line = try #require(ScalingFit(counter: "sqlStatements", scales: [0.1, 0.2, 0.3], counts: [12, 22, 32]))
        #expect(line.slope == 100 && line.intercept == 2 && line.residuals == [0, 0, 0] && line.growth == .linear)
        // N², through 1, 4, 16 at 1, 2, 4: the line 36/7·N − 5 leaves
        // 6/7, −9/7 and 3/7 over.
        let square = try #require(ScalingFit(counter: "rowsRead", scales: [1, 2, 4], counts: [1, 4, 16]))
        #expect(square.growth == .notLinear)
        #expect(abs(square.slope - 36.0 / 7) < 1e-12 && abs(square.intercept + 5) < 1e-12)
        let residuals = try #require(square.residuals)
        #expect(zip(residuals, [6.0 / 7, -9.0 / 7, 3.0 / 7]).allSatisfy { abs($0 - $1) < 1e-12 })
        #expect(square.description == "rowsRead = -5 + 5.143·N (not a line: residuals 0.8571, -1.286, 0.4286)")
    }

    @Test func aScenariosFitsComeFromItsRunsAtEachScale() throws {
        let fixed = InsightFix(kind: .loadValues, entity: "Recipe", keyPath: "", fetchSites: [CallSite(file: "App/List.swift", line: 41)])
        let fits = ScalingFits(
            scales: [0.5, 1], runs: [Self.run(recipes: 50), Self.run(recipes: 100)],
            fixes: [(fixed, [Self.run(recipes: 50, perRecipe: 0), Self.run(recipes: 100, perRecipe: 0)])])
        func fit(_ counter: String, shape: String? = nil, fix: InsightFix? = nil) -> ScalingFit? {
            fits.fits.first { $0.counter == counter && $0.shape == shape && $0.fix == fix }
        }
        #expect(fit("sqlStatements")?.equation == "1 + 100·N")
        #expect(fit("rowsRead")?.equation == "200·N")
        #expect(fit("faultsFired")?.equation == "100·N")
        // Fetches are no cost counter; counts that are 0 everywhere are not fitted.
        #expect(fit("fetches") == nil && fit("cacheMisses") == nil)
        #expect(fit("sqlStatements", shape: Self.faultShape)?.description == "sqlStatements at \(Self.site) = 100·N for \(Self.faultShape)")
        #expect(fit("sqlStatements", shape: Self.fetchShape)?.growth == .constant)
        #expect(fit("rowsRead", shape: Self.fetchShape)?.equation == "100·N")
        // The fixed arm's: one statement whatever N; its fault shape never ran.
        #expect(fit("sqlStatements", fix: fixed)?.equation == "1")
        #expect(fit("sqlStatements", shape: Self.faultShape, fix: fixed) == nil)
        // The formats show the counters and the statements that grow.
        #expect(!fits.shown.contains { $0.shape == Self.fetchShape && $0.counter == "sqlStatements" })
        #expect(fits.shown.contains { $0.shape == Self.faultShape })
        // A fix's line that is the run's own is not shown again; one that differs is.
        #expect(fits.shown.contains { $0.fix == fixed && $0.counter == "sqlStatements" && $0.shape == nil })
        #expect(!fits.shown.contains { $0.fix == fixed && $0.counter == "rowsRead" && $0.shape == Self.fetchShape })
        // A fix whose run failed at one scale has no fit.
        var failed = Self.run(recipes: 50, perRecipe: 0)
        failed.status = .failed
        let partial = ScalingFits(scales: [0.5, 1], runs: [Self.run(recipes: 50), Self.run(recipes: 100)], fixes: [(fixed, [failed, Self.run(recipes: 100)])])
        #expect(!partial.fits.contains { $0.fix != nil })
    }

    static func report(_ scenario: ScenarioReport, scale: Double = 1) -> Report {
        Report(
            tool: .init(name: "perf-run", version: "0.2.0", commandLine: []),
            environment: .init(operatingSystem: "Debian", cpuModel: "CPU", cores: 2, swiftVersion: "6.3", sqliteVersion: "3.46.1",
                               buildConfiguration: "release", gitCommit: nil, hostName: "ci"),
            configuration: .init(scale: scale, seed: 1, iterations: 1, warmup: 0, store: .file, timeoutSeconds: nil), scenarios: [scenario])
    }

    /// A report of runs at `scales` whose list faults `perRecipe` times per recipe.
    static func scaled(_ scales: [Double], perRecipe: Int, advisory: [String] = ["objectsRegisteredPeak"]) -> Report {
        let runs = scales.map { Self.run(recipes: Int(($0 * 100).rounded()), perRecipe: perRecipe, advisory: advisory) }
        var scenario = runs.last!
        scenario.scaling = ScalingFits(scales: scales, runs: runs)
        return Self.report(scenario, scale: scales.last!)
    }

    @Test func aSlopeThatGrowsIsARegressionWhateverTheScales() throws {
        // Base at 0.5 and 1, head at 0.25 and 2: counters do not compare,
        // slopes do; the same code's slopes are the same.
        let base = Self.scaled([0.5, 1], perRecipe: 1)
        let same = ReportComparer().compare(base, Self.scaled([0.25, 2], perRecipe: 1))
        #expect(same.countersNotComparable != nil && same.scalingNotComparable == nil)
        #expect(!same.hasRegression)
        #expect(same.scenarios[0].slopes.allSatisfy { $0.verdict == .same })
        // Two faults per recipe: the statements' slope doubles.
        let head = Self.scaled([0.25, 2], perRecipe: 2)
        let comparison = ReportComparer().compare(base, head, basePath: "base.json", headPath: "head.json")
        #expect(comparison.hasRegression && comparison.scenarios[0].regression)
        let statements = try #require(comparison.scenarios[0].slopes.first { $0.counter == "sqlStatements" && $0.shape == nil })
        #expect(statements.verdict == .grew && statements.isRegression)
        #expect(statements.baseSlope == 100 && statements.headSlope == 200)
        #expect(statements.baseLine == "1 + 100·N" && statements.headLine == "1 + 200·N")
        let text = try ComparisonFormat.text.render(comparison)
        #expect(text.contains("  slope grew: sqlStatements: 1 + 100·N → 1 + 200·N (a regression)"))
        #expect(text.contains("  slope grew: sqlStatements at \(Self.site): 100·N → 200·N (a regression)"))
        #expect(try ComparisonFormat.markdown.render(comparison).contains("- RecipeTitles: slope grew: sqlStatements: 1 + 100·N → 1 + 200·N (a regression)"))
        // The other way, the slope fell: an improvement, not a regression.
        let back = ReportComparer().compare(head, base)
        #expect(!back.hasRegression)
        #expect(back.scenarios[0].slopes.first { $0.counter == "sqlStatements" && $0.shape == nil }?.verdict == .fell)
        // The allowance is data: a slope that may double does not gate.
        var lenient = ReportComparer()
        lenient.thresholds.slopes = SlopeAllowance(relative: 1.5)
        #expect(!lenient.compare(base, head).hasRegression)
        // An advisory counter's slope is shown, never gating.
        let advisory = ReportComparer().compare(
            Self.scaled([0.5, 1], perRecipe: 1, advisory: ["sqlStatements"]), Self.scaled([0.5, 1], perRecipe: 2, advisory: ["sqlStatements"]))
        #expect(advisory.scenarios[0].slopes.first { $0.counter == "sqlStatements" && $0.shape == nil }?.verdict == .advisory)
    }

    @Test func aNewStatementThatGrowsIsARegressionAndOneThatGoesIsNot() throws {
        let base = Self.scaled([0.5, 1], perRecipe: 0)
        let head = Self.scaled([0.5, 1], perRecipe: 1)
        let comparison = ReportComparer().compare(base, head)
        let added = try #require(comparison.scenarios[0].slopes.first { $0.shape == Self.faultShape && $0.counter == "sqlStatements" })
        #expect(added.verdict == .added && added.isRegression && added.baseLine == nil && added.headLine == "100·N")
        #expect(comparison.hasRegression)
        let removed = ReportComparer().compare(head, base)
        #expect(removed.scenarios[0].slopes.first { $0.shape == Self.faultShape && $0.counter == "sqlStatements" }?.verdict == .removed)
        #expect(!removed.hasRegression)
    }

    @Test func aReportWithoutFitsAgainstOneWithFitsSaysSo() throws {
        let plain = Self.report(Self.run(recipes: 100))
        let scaled = Self.scaled([0.5, 1], perRecipe: 1)
        let comparison = ReportComparer().compare(plain, scaled, basePath: "base.json", headPath: "head.json")
        #expect(comparison.scalingNotComparable
            == "head.json has fits of how the work grows with the data and base.json has none (run both with --scales): slopes not compared")
        #expect(comparison.scenarios[0].slopes.isEmpty && !comparison.hasRegression)
        #expect(try ComparisonFormat.text.render(comparison).contains("fits: not comparable (head.json has fits"))
        #expect(ReportComparer().compare(scaled, plain, basePath: "a", headPath: "b").scalingNotComparable?.hasPrefix("a has fits") == true)
        #expect(ReportComparer().compare(plain, plain).scalingNotComparable == nil)
    }

    @Test func theThresholdsFileHoldsTheSlopesAllowance() throws {
        let directory = FileManager.default.temporaryDirectory
        func file(_ text: String) throws -> String {
            let path = directory.appendingPathComponent("slopes-\(UUID()).json").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        #expect(try Thresholds.read(try file("{\"slopes\": {\"relative\": 0.5}}")).slopes == SlopeAllowance(relative: 0.5, absolute: 1))
        let wrong = try file("{\"slopes\": {\"relativ\": 0.5}}")
        #expect(throws: ReportError("\(wrong): slopes.relativ: unknown key (relative, absolute)")) { try Thresholds.read(wrong) }
        let negative = try file("{\"slopes\": {\"absolute\": -1}}")
        #expect(throws: ReportError("\(negative): slopes.absolute: a number of 0 or more, not -1")) { try Thresholds.read(negative) }
    }

    @Test func fitsAndOneAsItIsSurviveTheReportFile() throws {
        var scenario = Self.run(recipes: 100)
        scenario.scaling = ScalingFits(scales: [0.5, 1], runs: [Self.run(recipes: 50), scenario])
        let fix = InsightFix(kind: .loadValues, entity: "Recipe", keyPath: "", fetchSites: [CallSite(file: "App/List.swift", line: 41)])
        var insight = Insight(rule: .nPlusOne, entity: "Recipe", keyPath: "", message: "m", evidence: "e", callSite: Self.site, fix: fix)
        insight.whatIf = WhatIfOutcome.judge(fix, before: scenario, after: Self.run(recipes: 100, perRecipe: 0))
        scenario.insights = [insight]
        let report = Self.report(scenario)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("scaling-\(UUID()).json").path
        try ReportFile.write(report, to: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"schemaVersion\" : \(Report.currentSchemaVersion)"))
        // "As it is" is written once: as the scenario's own figures.
        #expect(!text.contains("\"before\""))
        #expect(try ReportFile.read(path) == report)
        // A report of version 3, with its fix's own "before", reads as it was written.
        var object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        object["schemaVersion"] = 3
        var scenarios = try #require(object["scenarios"] as? [[String: Any]])
        var insights = try #require(scenarios[0]["insights"] as? [[String: Any]])
        var whatIf = try #require(insights[0]["whatIf"] as? [String: Any])
        whatIf["before"] = ["counters": ["sqlStatements": 7], "samples": [0.5, 0.5, 0.5], "medianSeconds": 0.5]
        insights[0]["whatIf"] = whatIf
        scenarios[0]["insights"] = insights
        scenarios[0]["scaling"] = nil
        object["scenarios"] = scenarios
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        let old = try ReportFile.read(path)
        #expect(old.schemaVersion == 3 && old.scenarios[0].scaling == nil)
        #expect(old.scenarios[0].insights[0].whatIf?.before == WhatIfOutcome.Side(counters: ["sqlStatements": 7], samples: [0.5, 0.5, 0.5]))
    }

    @Test func theFormatsShowAsItIsOnceAndTheFits() throws {
        var scenario = Self.run(recipes: 100)
        scenario.scaling = ScalingFits(scales: [0.5, 1], runs: [Self.run(recipes: 50), scenario])
        let fixes = [
            InsightFix(kind: .loadValues, entity: "Recipe", keyPath: "", fetchSites: [CallSite(file: "App/List.swift", line: 41)]),
            InsightFix(kind: .index, entity: "Recipe", keyPath: "title"),
        ]
        scenario.insights = fixes.map { fix in
            var insight = Insight(rule: .nPlusOne, entity: "Recipe", keyPath: fix.keyPath, message: "m", evidence: "e", callSite: Self.site, fix: fix)
            insight.whatIf = WhatIfOutcome.judge(fix, before: scenario, after: Self.run(recipes: 100, perRecipe: 0))
            return insight
        }
        let report = Self.report(scenario)
        let markdown = ReportMarkdown.render(report)
        #expect(markdown.components(separatedBy: "| as it is |").count == 2)
        #expect(markdown.contains("| RecipeTitles | as it is | 101 | 200 | 100 | 10.0 ms | |"))
        #expect(markdown.contains("| RecipeTitles | with load the values with the fetch | 1 | 100 | 0 | 10.0 ms (1.00x) | inconclusive: "))
        #expect(markdown.contains("| RecipeTitles | 0.5, 1 | sqlStatements | 1 + 100·N | 51, 101 |"))
        let html = HTMLReport.render(report)
        #expect(html.components(separatedBy: ">as it is</th>").count == 2)
        #expect(html.contains("<th>with load the values with the fetch</th><th>with index Recipe.title</th>"))
        #expect(html.contains("<td>sqlStatements at App/List.swift:41</td><td>100·N</td>"))
        let text = ReportText.console(report)
        #expect(text.components(separatedBy: "RecipeTitles as it is").count == 2)
        #expect(text.contains("  sqlStatements at App/List.swift:41 = 100·N for \(Self.faultShape)\n"))
        #expect(text.contains("  rowsRead at App/List.swift:41 = 100·N for \(Self.fetchShape)\n"))
        #expect(text.contains("RecipeTitles, at scales 0.5, 1\n  sqlStatements = 1 + 100·N"))
    }
}
