@testable import BuiltInScenarios
import Foundation
import Probes
@testable import Reporting
@testable import Scenarios
import Testing

/// Real reports, from built-in scenarios run in-process at a small scale
/// (MultiThread's two threads among them, fixes measured), rendered as the
/// page, the Markdown and the terminal text: no number contradicts another.
/// Time attributed to parts of an iteration stays within its wall time (or
/// is said to be per-thread time), each scenario has one "as it is", and
/// no saving or cost exceeds the time the scenario measured.
@Suite(.serialized) struct ReportConsistencyTests {
    /// One run, shared by the tests.
    static let report: Report = {
        var options = RunOptions()
        options.configuration.scale = 0.02
        options.configuration.iterations = 4
        options.configuration.warmup = 1
        options.configuration.measuresFixes = true
        let scenarios: [Scenario] = [.multiThread, .toOneList, .singleFault, .prefetch, .cache]
        let reports = ScenarioRunner(options: options, cache: ScenarioCounterTests.cache).run(scenarios)
        return RunReport.make(reports, options: options, commandLine: ["perf-run", "run"], experiments: ScenarioCatalog.experiments)
    }()

    /// A time as the reports print it (`312 µs`, `1,234 s`), in seconds.
    static func seconds(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 2, let number = Double(parts[0].replacingOccurrences(of: ",", with: "")) else { return nil }
        let scale: [Substring: Double] = ["s": 1, "ms": 1e-3, "µs": 1e-6, "ns": 1e-9]
        return scale[parts[1]].map { number * $0 }
    }

    /// Every time in `text` after `prefix` (`saves `, `median `).
    static func times(after prefix: String, in text: String) -> [String] {
        let pattern = try! Regex(prefix + "([0-9][0-9,]*(?:\\.[0-9]+)? (?:ns|µs|ms|s))\\b")
        return text.matches(of: pattern).compactMap { $0.output[1].substring.map(String.init) }
    }

    /// A scenario's section of the page: from its heading to the next section.
    static func section(_ name: String, in html: String) throws -> String {
        let start = try #require(html.range(of: "id=\"scenario-\(name)\""))
        let rest = html[start.upperBound...]
        return String(rest[..<(rest.range(of: "<section")?.lowerBound ?? rest.endIndex)])
    }

    /// Within the rounding of three significant digits.
    static func atMost(_ a: Double, _ b: Double) -> Bool { a <= b * 1.005 + 1e-12 }

    @Test func theRunPassed() throws {
        #expect(Self.report.scenarios.map(\.status) == Array(repeating: .passed, count: 5), "\(Self.report.scenarios.map(\.error))")
        // As `perf-run report` reads it back: the same report, per-thread time and break-even included.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("consistency-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ReportFile.json(Self.report).write(to: URL(fileURLWithPath: path))
        let read = try ReportFile.read(path)
        #expect(read == Self.report)
        #expect(read.scenarios.first { $0.name == "MultiThread" }?.timeBreakdown?.summedOverThreads == true)
    }

    @Test func timeAttributedStaysWithinTheIterationOrIsSaidToBePerThread() throws {
        let html = HTMLReport.render(Self.report)
        for scenario in Self.report.scenarios where !scenario.samples.isEmpty {
            let median = TimeText.seconds(Statistics(scenario.samples.map(\.wallSeconds)).median)
            let breakdown = try #require(scenario.timeBreakdown)
            let section = try Self.section(scenario.name, in: html)
            if scenario.name == "MultiThread" {
                // Two threads: summed over them, said so, and no rest.
                #expect(breakdown.summedOverThreads == true)
                #expect(breakdown.attribution(wallSeconds: 0) == nil)
                #expect(section.contains("Per-thread time in SQLite and the row cache"))
                #expect(section.contains("SQLite (all threads)"))
                #expect(!section.contains("Where the time went"))
                #expect(!section.contains("contexts and the scenario"))
                continue
            }
            #expect(breakdown.summedOverThreads == nil, "\(scenario.name)")
            // The parts are the median iteration's: they add up to the median the page shows.
            let parts = try #require(breakdown.attribution(wallSeconds: .nan), "\(scenario.name)")
            #expect(TimeText.seconds(parts.wall) == median, "\(scenario.name)")
            #expect(abs(parts.sqlite + parts.rowCache + parts.rest - parts.wall) <= parts.wall * 1e-9)
            #expect(section.contains("Where the time went in the median iteration (\(median))"), "\(scenario.name)")
            // The bars' labels: no part above the wall time, and together no more than it.
            let chart = try #require(section.components(separatedBy: "Where the time went").dropFirst().first)
            let shown = Self.times(after: "\">", in: chart.components(separatedBy: "</svg>")[0]).compactMap(Self.seconds)
            #expect(shown.count == 3, "\(scenario.name): \(shown)")
            let wall = try #require(Self.seconds(median))
            #expect(Self.atMost(shown.reduce(0, +), wall * 1.01), "\(scenario.name): \(shown) of \(median)")
        }
    }

    @Test func eachScenarioHasOneAsItIsAndEveryMedianIsThatOne() throws {
        let html = HTMLReport.render(Self.report)
        let measured = Self.report.scenarios.filter { $0.insights.contains { $0.whatIf != nil } }
        #expect(measured.map(\.name).contains("ToOneList"))
        for scenario in Self.report.scenarios where !scenario.samples.isEmpty {
            let median = TimeText.seconds(Statistics(scenario.samples.map(\.wallSeconds)).median)
            let section = try Self.section(scenario.name, in: html)
            // Every median the section states is the scenario's.
            let medians = Self.times(after: "median ", in: section)
            #expect(!medians.isEmpty)
            #expect(medians.allSatisfy { $0 == median }, "\(scenario.name): \(medians) against \(median)")
            guard measured.contains(where: { $0.name == scenario.name }) else { continue }
            // One "as it is" column; its median cell is the scenario's median.
            #expect(section.components(separatedBy: ">as it is</th>").count == 2)
            #expect(section.contains(">\(median)</td>"))
            // A fix's reason gives its own side only.
            for outcome in scenario.insights.compactMap(\.whatIf) {
                #expect(!outcome.reason.contains(median + " →"))
                #expect(outcome.reason.contains("median with the fix"))
            }
        }
        let markdown = ReportMarkdown.render(Self.report)
        for scenario in measured {
            #expect(markdown.components(separatedBy: "| \(scenario.name) | as it is |").count == 2)
        }
        let text = try #require(ReportText.measuredFixes(Self.report))
        for scenario in measured {
            #expect(text.components(separatedBy: "\(scenario.name) as it is").count == 2)
        }
    }

    @Test func noSavingOrCostExceedsTheScenariosTime() throws {
        let entries = FixPriority.rank(Self.report)
        #expect(!entries.isEmpty)
        let medians = Dictionary(uniqueKeysWithValues: Self.report.scenarios.map { scenario in
            (scenario.name, Statistics(scenario.samples.map(\.wallSeconds)).median)
        })
        for entry in entries {
            let median = try #require(medians[entry.scenario])
            #expect(entry.rankSeconds <= median, "\(entry.scenario): \(entry.rankSeconds) of \(median)")
        }
        // As printed, in the page, the Markdown and the terminal, each
        // figure beside its definition.
        let html = HTMLReport.render(Self.report)
        let markdown = ReportMarkdown.render(Self.report)
        let text = try #require(ReportText.fixFirst(Self.report))
        for (format, output) in [("html", html), ("markdown", markdown), ("text", text)] {
            let figures = ["saves ", "costs up to ", "costs "].flatMap { Self.times(after: $0, in: output).compactMap(Self.seconds) }
            #expect(!figures.isEmpty, "\(format)")
            let longest = try #require(medians.values.max())
            #expect(figures.allSatisfy { Self.atMost($0, longest) }, "\(format): \(figures)")
            for kind in Set(entries.map(FixPriority.kind)) {
                let word = String(kind.definition.prefix { $0 != ":" })
                let said = switch format {
                case "html": escapeHTML(ReportWords.sentence(kind.definition))
                case "markdown": "**\(word)**:"
                default: ReportWords.sentence(kind.definition)
                }
                #expect(output.contains(said), "\(format): \(kind)")
            }
        }
        // Per scenario, in the terminal: each line's figure within its scenario's median.
        let lines = text.split(separator: "\n").map(String.init)
        for (index, line) in lines.enumerated() where line.first?.isNumber == true && index + 1 < lines.count {
            let name = String(line.drop { $0 != " " }.dropFirst().prefix { $0 != ":" })
            guard let median = medians[name] else { continue }
            for figure in ["saves ", "costs up to ", "costs "].flatMap({ Self.times(after: $0, in: lines[index + 1]) }) {
                #expect(Self.atMost(try #require(Self.seconds(figure)), median), "\(name): \(figure)")
            }
        }
    }

    @Test func theExperimentsOfTheRunAreChartedWithTheirLessons() throws {
        let experiments = try #require(Self.report.experiments)
        let names = experiments.map(\.name)
        #expect(names.contains("SingleFault vs Prefetch"))
        #expect(names.contains("Cache: cold vs warm"))
        let html = HTMLReport.render(Self.report)
        for experiment in experiments {
            #expect(html.contains(escapeHTML(experiment.mechanism)))
            #expect(!experiment.mechanism.contains("−") && !experiment.mechanism.contains("+"))
            #expect(!experiment.reason.contains("between them"))
        }
        let prefetch = try #require(experiments.first { $0.name == "SingleFault vs Prefetch" })
        // The break-even, from the counters: 42 statements against 6 at this scale.
        let breakEven = try #require(prefetch.breakEven)
        #expect(breakEven.fewerStatements == 36)
        let singleFault = try #require(Self.report.scenarios.first { $0.name == "SingleFault" })
        #expect(breakEven.statementSeconds == (singleFault.timeBreakdown?.sqliteSeconds ?? 0) / 42)
        #expect(html.contains(escapeHTML(try #require(prefetch.breakEvenSentence))))
        // The book's figures with their own precision.
        #expect(html.contains("SingleFault just under 30 s, Prefetch just under 3 s"))
        #expect(!html.contains("30.0000 s"))
    }
}
