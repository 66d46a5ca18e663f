import Foundation
import Insights
import Probes
@testable import Reporting
import Testing

/// A measured fix's verdict, and what to fix first.
@Suite struct WhatIfJudgementTests {
    static let fix = InsightFix(kind: .prefetch, entity: "Post", keyPath: "author", fetchSites: [CallSite(file: "App/List.swift", line: 3)])

    static func scenario(_ times: [Double], statements: Int, status: ScenarioReport.Status = .passed) -> ScenarioReport {
        ScenarioReport(
            name: "List", description: "", dataSet: "blog", status: status, error: status == .passed ? nil : "boom",
            samples: times.map { Sample(wallSeconds: $0, cpuSeconds: $0, peakResidentBytes: nil) },
            counters: ["sqlStatements": statements, "rowsRead": 10, "faultsFired": 4, "cacheMisses": 4, "fullScanSteps": 0])
    }

    static let slow = [0.010, 0.0101, 0.0099, 0.0102, 0.0100, 0.0098, 0.0101]
    static let fast = [0.005, 0.0051, 0.0049, 0.0052, 0.0050, 0.0048, 0.0051]

    @Test func verdicts() {
        let before = Self.scenario(Self.slow, statements: 12)
        let faster = WhatIfOutcome.judge(Self.fix, before: before, after: Self.scenario(Self.fast, statements: 3))
        #expect(faster.verdict == .faster)
        #expect(faster.reason.hasPrefix("prefetch `author`: sqlStatements 12 → 3; median with the fix 5.00 ms (0.50x the time as it is, 95% interval "))
        #expect(faster.gainSeconds.map { abs($0 - 0.005) < 1e-9 } == true)
        let same = WhatIfOutcome.judge(Self.fix, before: before, after: Self.scenario(Self.slow.reversed(), statements: 12))
        #expect(same.verdict == .noGain)
        #expect(same.reason.contains("no counter changed") && same.reason.hasSuffix("no gain the measurement can tell from noise"))
        #expect(same.gainSeconds == nil)
        // 99 fewer statements and no time change this machine can tell:
        // the work decides, and the advice stands.
        let lessWork = WhatIfOutcome.judge(
            Self.fix, before: Self.scenario(Self.slow, statements: 104), after: Self.scenario(Self.slow.reversed(), statements: 5))
        #expect(lessWork.verdict == .lessWork && !lessWork.withdrawsTheAdvice && lessWork.gainSeconds == nil)
        #expect(lessWork.reason.hasPrefix("prefetch `author`: sqlStatements 104 → 5; median with the fix 10.0 ms"))
        #expect(lessWork.reason.hasSuffix("99 fewer statements; no time gain measurable here"))
        // With the run's time in SQLite, what a statement costs on this machine.
        var measured = Self.scenario(Self.slow, statements: 104)
        measured.timeBreakdown = TimeBreakdown(sqliteSeconds: 0.000208, rowCacheSeconds: 0, otherSeconds: 0.0098)
        var fewer = Self.scenario(Self.slow.reversed(), statements: 5)
        fewer.counters["faultsFired"] = 1
        let plain = WhatIfOutcome.judge(Self.fix, before: measured, after: fewer)
        #expect(plain.verdict == .lessWork)
        #expect(plain.reason.hasSuffix(
            "99 fewer statements, 3 fewer faults; no time gain measurable here (a statement costs about 2.00 µs on this machine)"))
        var advice = Insight(rule: .nPlusOne, entity: "Post", keyPath: "author", message: "", evidence: "", callSite: "", fix: Self.fix)
        advice.whatIf = lessWork
        #expect(advice.isActionable)
        // Fewer statements for a tenth more rows is still less work; for
        // more than that, it is not.
        var mixed = Self.scenario(Self.slow.reversed(), statements: 5)
        mixed.counters["rowsRead"] = 11
        #expect(WhatIfOutcome.judge(Self.fix, before: Self.scenario(Self.slow, statements: 104), after: mixed).verdict == .lessWork)
        mixed.counters["rowsRead"] = 12
        #expect(WhatIfOutcome.judge(Self.fix, before: Self.scenario(Self.slow, statements: 104), after: mixed).verdict == .noGain)
        #expect(same.withdrawsTheAdvice)
        let slower = WhatIfOutcome.judge(Self.fix, before: Self.scenario(Self.fast, statements: 12), after: Self.scenario(Self.slow, statements: 3))
        #expect(slower.verdict == .slower && slower.withdrawsTheAdvice)
        let few = WhatIfOutcome.judge(Self.fix, before: Self.scenario([0.01, 0.01], statements: 12), after: Self.scenario([0.005, 0.005], statements: 3))
        #expect(few.verdict == .inconclusive)
        let failed = WhatIfOutcome.judge(Self.fix, before: before, after: Self.scenario([], statements: 0, status: .failed))
        #expect(failed.verdict == .failed && failed.after == nil && failed.reason == "the run with the fix failed: boom")
    }

    @Test func whatToFixFirstRanksMeasuredGainsAndLeavesOutWhatDoesNotHelp() throws {
        func insight(_ key: String, cost: Double, whatIf: WhatIfOutcome? = nil, intended: String? = nil) -> Insight {
            var insight = Insight(rule: .nPlusOne, entity: "Post", keyPath: key, message: key, evidence: "", callSite: "App/List.swift:3",
                                  count: 2, fix: Self.fix, costSeconds: cost)
            insight.whatIf = whatIf
            insight.intended = intended
            return insight
        }
        let before = Self.scenario(Self.slow, statements: 12)
        let helps = WhatIfOutcome.judge(Self.fix, before: before, after: Self.scenario(Self.fast, statements: 3))
        let useless = WhatIfOutcome.judge(Self.fix, before: before, after: Self.scenario(Self.slow.reversed(), statements: 12))
        var scenario = Self.scenario(Self.slow, statements: 12)
        scenario.insights = [
            insight("costly", cost: 0.009), insight("measured", cost: 0.001, whatIf: helps), insight("useless", cost: 0.02, whatIf: useless),
            insight("onPurpose", cost: 0.05, intended: "the scenario measures it"), insight("cheap", cost: 0.0001),
        ]
        let report = Report(
            tool: .init(name: "perf-run", version: "0", commandLine: []),
            environment: .init(operatingSystem: "", cpuModel: "", cores: 1, swiftVersion: "", sqliteVersion: "", buildConfiguration: "debug",
                               gitCommit: nil, hostName: ""),
            configuration: .init(scale: 1, seed: 1, iterations: 7, warmup: 0, store: .file, timeoutSeconds: nil), scenarios: [scenario])
        #expect(FixPriority.rank(report).map(\.insight.keyPath) == ["measured", "costly", "cheap"])
        let markdown = ReportMarkdown.render(report)
        #expect(markdown.contains("### What to fix first\n\n1. [List](#list): measured (saves 5.00 ms per iteration (measured); App/List.swift:3)"))
        // One "as it is" for the scenario, each fix's figures beside it.
        #expect(markdown.contains("| List | as it is | 12 | 10 | 4 | 10.0 ms | |\n| List | with prefetch \\`author\\` | 3 | 10 | 4 | 5.00 ms (0.50x, "))
        #expect(markdown.components(separatedBy: "| as it is |").count == 2)
        #expect(markdown.contains("- useless (App/List.swift:3; `n-plus-one/Post/useless@App/List.swift:3`): advice withdrawn, measured prefetch"))
        let html = HTMLReport.render(report)
        #expect(html.contains("<section class=\"fix-first\"><h2>What to fix first</h2><ol><li><a href=\"#scenario-List\">List</a>: measured"))
        #expect(html.contains(">as it is</th><th>with prefetch `author`</th><th>with prefetch `author`</th></tr>"))
        #expect(html.components(separatedBy: ">as it is</th>").count == 2)
        #expect(html.contains("advice withdrawn: measured, prefetch `author`: no counter changed"))
        let text = try #require(ReportText.fixFirst(report))
        #expect(text.hasPrefix("what to fix first\n1. List: measured\n   saves 5.00 ms per iteration (measured)"))
        // The advice withdrawn is said, with the measurement; the intended one is not advice.
        #expect(text.hasSuffix("\n\nadvice withdrawn\n- List: useless\n  measured \(useless.reason); App/List.swift:3"))
        #expect(!text.contains("onPurpose"))
    }
    /// A saving is measured against the run's "as it is"; a report of
    /// version 3 held one per fix, which could be slower than the
    /// scenario's own: its saving is never more than the scenario's time.
    @Test func aSavingOrCostNeverExceedsTheScenariosTime() throws {
        let scenarioTimes = [0.00226, 0.00225, 0.00227]
        var scenario = Self.scenario(scenarioTimes, statements: 12)
        var stale = WhatIfOutcome.judge(Self.fix, before: Self.scenario(Self.slow, statements: 12), after: Self.scenario(Self.fast, statements: 3))
        stale.before = WhatIfOutcome.Side(counters: [:], samples: [0.0048, 0.0049], medianSeconds: 0.00481)
        stale.after = WhatIfOutcome.Side(counters: [:], samples: [0.0022, 0.0023], medianSeconds: 0.00226)
        var measured = Insight(rule: .nPlusOne, entity: "Post", keyPath: "stale", message: "stale", evidence: "", callSite: "App/List.swift:3",
                               count: 2, fix: Self.fix, costSeconds: 0.001)
        measured.whatIf = stale
        // 2.55 ms saved by the old side's figures, of a scenario of 2.26 ms.
        #expect(abs((stale.gainSeconds ?? 0) - 0.00255) < 1e-12)
        let costly = Insight(rule: .nPlusOne, entity: "Post", keyPath: "costly", message: "costly", evidence: "", callSite: "App/List.swift:4",
                             count: 2, fix: Self.fix, costSeconds: 0.009)
        let cheap = Insight(rule: .nPlusOne, entity: "Post", keyPath: "cheap", message: "cheap", evidence: "", callSite: "App/List.swift:5",
                            count: 2, fix: Self.fix, costSeconds: 0.001)
        scenario.insights = [measured, costly, cheap]
        let report = Report(
            tool: .init(name: "perf-run", version: "0", commandLine: []),
            environment: .init(operatingSystem: "", cpuModel: "", cores: 1, swiftVersion: "", sqliteVersion: "", buildConfiguration: "debug",
                               gitCommit: nil, hostName: ""),
            configuration: .init(scale: 1, seed: 1, iterations: 3, warmup: 0, store: .file, timeoutSeconds: nil), scenarios: [scenario])
        let entries = FixPriority.rank(report)
        #expect(entries.map(\.insight.keyPath) == ["stale", "costly", "cheap"])
        #expect(entries.map(\.gainSeconds) == [0.00226, nil, nil])
        #expect(entries.map(\.costSeconds) == [nil, 0.00226, 0.001])
        #expect(entries.allSatisfy { $0.scenarioSeconds == 0.00226 })
        #expect(entries.map(FixPriority.figure) == [
            "saves 2.26 ms per iteration (measured)", "costs up to 2.26 ms per iteration", "costs up to 1.00 ms per iteration",
        ])
        #expect(entries.map(FixPriority.kind) == [.saves, .costsUpTo, .costsUpTo])
        #expect(FixPriority.definitions(entries) == [FixPriority.Figure.saves.definition, FixPriority.Figure.costsUpTo.definition])
    }

    /// A scan no index can serve is true but no mistake to fix: it ranks
    /// below everything that can be fixed, however costly, in every format.
    @Test func aScanNoIndexServesRanksBelowWhatCanBeFixed() throws {
        var search = Insight(
            rule: .fullScan, entity: "Recipe", keyPath: "title", message: "search scan", evidence: "", callSite: "App/Search.swift:9",
            count: 500, costSeconds: 0.04)
        search.noIndexServes = true
        let list = Insight(
            rule: .nPlusOne, entity: "Recipe", keyPath: "category", message: "list N+1", evidence: "", callSite: "App/List.swift:3",
            count: 100, fix: Self.fix, costSeconds: 0.002)
        let index = Insight(
            rule: .fullScan, entity: "Recipe", keyPath: "slug", message: "slug scan", evidence: "", callSite: "App/Detail.swift:5",
            count: 500, fix: InsightFix(kind: .index, entity: "Recipe", keyPath: "slug"), costSeconds: 0.001)
        var scenario = Self.scenario(Self.slow, statements: 12)
        scenario.insights = [search, list, index]
        let report = Report(
            tool: .init(name: "perf-run", version: "0", commandLine: []),
            environment: .init(operatingSystem: "", cpuModel: "", cores: 1, swiftVersion: "", sqliteVersion: "", buildConfiguration: "debug",
                               gitCommit: nil, hostName: ""),
            configuration: .init(scale: 1, seed: 1, iterations: 7, warmup: 0, store: .file, timeoutSeconds: nil), scenarios: [scenario])
        #expect(FixPriority.rank(report).map(\.insight.keyPath) == ["category", "slug", "title"])
        // Its 40 ms, from a slower iteration, is more than the scenario's
        // median of 10 ms: it is said as the most it could cost, 10 ms.
        let text = try #require(ReportText.fixFirst(report))
        #expect(text.contains("3. List: search scan\n   costs 10.0 ms per iteration; no index serves it; App/Search.swift:9\n"))
        #expect(text.hasSuffix("\n" + ReportWords.sentence(FixPriority.Figure.costs.definition)))
        #expect(ReportMarkdown.render(report).contains("3. [List](#list): search scan (costs 10.0 ms per iteration; no index serves it; App/Search.swift:9)"))
        #expect(HTMLReport.render(report).contains("search scan <span class=\"gain\" title=\"\(escapeHTML(FixPriority.Figure.costs.definition))\">"
            + "costs 10.0 ms per iteration; no index serves it</span>"))
        // It reads back from a report as it was written.
        let decoded = try JSONDecoder().decode(Insight.self, from: try JSONEncoder().encode(search))
        #expect(decoded.noIndexServes == true && !decoded.canBeFixed)
    }
}
