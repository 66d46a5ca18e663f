import ArgumentParser
import Foundation
import Reporting
import ToolSupport

extension PerfRun {
    /// `perf-run trend`: the runs of the history store, per scenario and
    /// runner, commit by commit, with the changes marked.
    struct TrendCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "trend",
            abstract: "Shows scenarios' times and counters per commit from the history store, and marks where they changed.",
            discussion: """
                A line per scenario and runner (and project, branch, scale, seed, store and build: never merged), commits \
                ordered by their first run; each commit's median time pools its runs' samples, with a 95% interval. The time \
                is the one compare judges: CPU time by default (--timing), on the machine's speed when every run of a line \
                has a machine speed probe (each run's samples divided by its probe, multiplied by the line's). \
                Marked: a change point where a line's time moved beyond its own noise (a robust window test: the \
                median of up to 5 commits before against the commit and up to 4 after, at least 10% and 5 times the \
                commit-to-commit spread, Mann-Whitney p < 0.05), ▲ slower a regression, ▼ faster an improvement; and any \
                change of an exact counter: more of a cost (statements, rows, faults) a regression, less an improvement, \
                a counter that is no cost a change. Exit code 0; 1 with --fail-on regression when a regression is marked \
                in the window; 2 for bad input, a store that cannot be read, or no runs. docs/ci.md says more.
                """)

        @Argument(help: "Scenarios to show; all that have runs when none is named.")
        var scenarios: [String] = []

        @Option(help: ArgumentHelp("The history store: a SQLite file path or a postgres:// URL.", valueName: "store"))
        var history: String?

        @Option(help: ArgumentHelp("Only runs made since: a date or time (2025-03-01, 2025-03-01T12:00:00Z) or a duration back from now (30d, 12h, 1w2d; default: every run kept).", valueName: "date|duration"))
        var since: String?

        @Option(help: "Only runs of this project.")
        var project: String?

        @Option(help: "Only runs of this branch.")
        var branch: String?

        @Option(help: "Only runs of this runner.")
        var runner: String?

        @Option(name: .customLong("fail-on"), help: "Exit 1 when the window has a regression marked (regression; default: exit 0 whatever the trend).")
        var failOn: FailOn?

        @Option(help: "The time followed: cpu (the work done, steady on a shared machine) or wall (elapsed, for work that waits); as compare's.")
        var timing = TimingMeasure.cpu

        @OptionGroup var outputOptions: OutputOptions

        @Option(help: .hidden)
        var prometheus: String?

        @Option(help: .hidden)
        var job: String?

        @Option(name: .customLong("label"), parsing: .unconditionalSingleValue, help: .hidden)
        var labels: [String] = []

        enum FailOn: String, ExpressibleByArgument, CaseIterable {
            case regression
        }

        func validate() throws {
            if prometheus != nil {
                throw ValidationError(
                    "--prometheus: trend reads the history store (--history); Prometheus keeps only the latest values per group (docs/prometheus.md)")
            }
            if job != nil || !labels.isEmpty {
                throw ValidationError("\(job != nil ? "--job" : "--label"): trend reads the history store; choose runs with --project, --branch and --runner")
            }
            guard history != nil else {
                throw ValidationError("--history: the history store to read (a SQLite file path or a postgres:// URL) is required")
            }
            if let since {
                do {
                    _ = try TrendSince.parse(since)
                } catch {
                    throw ValidationError(error.description)
                }
            }
        }

        func run() throws {
            let plan = try OutputPlan(inputs: [], outputs: try outputOptions.outputs("trend", formats: ReportFormats.formats(of: .trend), default: .text))
            let argument = history ?? ""
            let window = Trend.Window(
                project: project, branch: branch, runner: runner, since: try since.map { try TrendSince.parse($0) }, scenarios: scenarios)
            let source = Self.displayed(argument)
            let runs: [HistoryRun]
            do {
                runs = try HistoryLocation(argument, option: "--history").open().runs(window.query)
            } catch {
                throw UsageError(error.description)
            }
            let found = Set(runs.flatMap { $0.report.scenarios.filter { $0.status == .passed }.map(\.name) })
            guard !found.isEmpty else {
                throw UsageError(option: "--history \(source)", "no passed runs\(Self.matching(window))")
            }
            if let missing = scenarios.first(where: { !found.contains($0) }) {
                throw UsageError("scenario \(missing): no passed runs in \(source)\(Self.matching(window)) (there are: \(found.sorted().joined(separator: ", ")))")
            }
            let trend = Trend(runs: runs, source: source, window: window, timing: timing)
            try plan.writeAll(trend)
            if failOn == .regression, trend.hasRegression { throw CommandExit(.failure) }
        }

        /// What the runs had to match, for a message: ` of project p, branch b since 2025-03-01T00:00:00Z`
        /// (the scenarios are said apart).
        static func matching(_ window: Trend.Window) -> String {
            var parts: [String] = []
            if let project = window.project { parts.append("project \(project)") }
            if let branch = window.branch { parts.append("branch \(branch)") }
            if let runner = window.runner { parts.append("runner \(runner)") }
            var text = parts.isEmpty ? "" : " of " + parts.joined(separator: ", ")
            if let since = window.since {
                let formatter = ISO8601DateFormatter()
                formatter.timeZone = TimeZone(identifier: "UTC")
                text += " since \(formatter.string(from: since))"
            }
            return text
        }

        /// The store as said in the trend and in messages: a URL without
        /// its password.
        static func displayed(_ argument: String) -> String {
            guard argument.contains("://"), var components = URLComponents(string: argument), components.password != nil else { return argument }
            components.password = nil
            return components.string ?? argument
        }
    }
}
