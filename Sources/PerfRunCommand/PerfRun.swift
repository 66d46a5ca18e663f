import ArgumentParser
import Foundation
import ModelImport
import ObjectGraph
import Probes
import Reporting
import Scenarios

/// The `perf-run` command, for Faultline's built-in scenarios or an
/// application's own: an application's executable target is one line,
///
/// ```swift
/// PerfRunCommand.main(scenarios: [.listScreen, .listScreenPrefetching])
/// ```
///
/// and gets `list`, `run`, `explain`, `compare`, `report`, `log` and `model`
/// as perf-run has them, on its scenarios and data sets. Exit codes as
/// `diff` uses them: 0 success, 1 a scenario failed, 2 bad usage or input
/// (with a one-line reason on standard error).
public enum PerfRunCommand {
    /// The scenarios the commands run (set by ``main(scenarios:experiments:)``).
    nonisolated(unsafe) static var catalog = ScenarioSet(scenarios: [])

    /// Runs the command line on `scenarios` and exits.
    public static func main(scenarios: [Scenario], experiments: [ExperimentReference] = []) -> Never {
        main(ScenarioSet(scenarios: scenarios, experiments: experiments))
    }

    /// Runs the command line on a set of scenarios and exits.
    public static func main(_ set: ScenarioSet) -> Never {
        catalog = set
        // Before any work: a signal removes what the command made for a while.
        TerminationSignals.install()
        do {
            var command = try PerfRun.parseAsRoot()
            try command.run()
            exit(0)
        } catch let code as ExitCode {
            exit(code.rawValue)
        } catch {
            let code = PerfRun.exitCode(for: error)
            if code == .success {
                print(PerfRun.fullMessage(for: error))
                exit(0)
            }
            FileHandle.standardError.write(Data((PerfRun.message(for: error) + "\n").utf8))
            // Usage and input errors are 2, as diff has it; argument-parser's
            // own usage errors (64) too.
            // A report, page or log that cannot be read or written: bad input too.
            let badInput = error is UsageError || error is ReportError || error is LogFileError
            exit(badInput || code == .validationFailure || code.rawValue == 64 ? 2 : code == .failure ? 1 : code.rawValue)
        }
    }
}

struct PerfRun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "perf-run",
        abstract: "Runs Faultline's performance scenarios and reports what the persistence code did.",
        version: RunReport.toolVersion,
        subcommands: [List.self, Run.self, Explain.self, Compare.self, ReportCommand.self, Log.self, ModelCommand.self])
}

/// A one-line usage error (exit code 2).
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension PerfRun {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lists the scenarios and what each demonstrates.")

        @Flag(help: "Print the list as JSON.")
        var json = false

        func run() throws {
            if json {
                let list = PerfRunCommand.catalog.scenarios.map { ["name": $0.name, "dataSet": $0.dataSet.name, "description": $0.summary] }
                let data = try JSONSerialization.data(withJSONObject: list, options: [.prettyPrinted, .sortedKeys])
                print(String(decoding: data, as: UTF8.self))
                return
            }
            for scenario in PerfRunCommand.catalog.scenarios {
                print("\(scenario.name) (\(scenario.dataSet.name))")
                print("    " + scenario.summary + "\n")
            }
        }
    }

    struct Compare: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compares two reports: counters exactly, insights by identity, timings as samples.",
            discussion: """
                Exit code 0: no regression (improvements do not fail); 1: a regression (a scenario or counter of BASE \
                that HEAD lacks is one, unless --allow-missing); 2: bad input. Any readable file will do, a pipe too (/dev/stdin, <(…)).
                """)

        @Argument(help: "The base report.")
        var base: String

        @Argument(help: "The report to judge.")
        var head: String

        @Option(help: "What to print.")
        var format = ComparisonOutput.text

        @Flag(name: .customLong("exact-counters"), help: "Any change of a gating counter, up or down, is a regression.")
        var exactCounters = false

        @Option(help: "A JSON file of allowed counter increases.")
        var thresholds: String?

        @Option(name: .customLong("noise-floor"), help: "A noise floor JSON, or the JSON comparison of an A/A pair.")
        var noiseFloor: String?

        @Option(name: .customLong("accepted-insights"), help: "Known insights (rule/entity/keyPath per line) that do not fail.")
        var acceptedInsights: String?

        @Flag(name: .customLong("allow-missing"), help: "HEAD may lack scenarios (missing or skipped) and counters of BASE: a subset run on purpose.")
        var allowMissing = false

        func run() throws {
            var comparer = ReportComparer()
            comparer.exactCounters = exactCounters
            comparer.allowMissing = allowMissing
            do {
                if let thresholds { comparer.thresholds = try Thresholds.read(thresholds) }
                if let noiseFloor { comparer.noiseFloor = try NoiseFloor.read(noiseFloor) }
                if let acceptedInsights { comparer.accepted = try AcceptedInsights(contentsOf: acceptedInsights) }
                let comparison = comparer.compare(try ReportFile.read(base), try ReportFile.read(head), basePath: base, headPath: head)
                let text = switch format {
                case .html: HTMLComparison.render(comparison)
                case .text: try ComparisonFormat.text.render(comparison)
                case .markdown: try ComparisonFormat.markdown.render(comparison)
                case .json: try ComparisonFormat.json.render(comparison)
                }
                print(text, terminator: "")
                if comparison.hasRegression { throw ExitCode.failure }
            } catch let error as ReportError {
                throw UsageError(error.description)
            }
        }
    }

    struct ReportCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report", abstract: "Writes a summary of a report (Markdown, for a CI job summary).")

        @Argument(help: "The report.")
        var report: String

        @Option(help: "Write a short Markdown summary here (- for standard output).")
        var markdown: String?

        @Option(help: "Write the HTML report here.")
        var html: String?

        func run() throws {
            let loaded: Report
            do {
                loaded = try ReportFile.read(report)
            } catch let error as ReportError {
                throw UsageError(error.description)
            }
            if let html { try ReportFile.writeAtomically(Data(HTMLReport.render(loaded).utf8), to: html) }
            let text = ReportMarkdown.render(loaded)
            if html != nil, markdown == nil { return }
            guard let markdown else {
                print(text, terminator: "")
                return
            }
            if markdown == "-" {
                print(text, terminator: "")
            } else {
                try ReportFile.writeAtomically(Data(text.utf8), to: markdown)
            }
        }
    }

    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Shows what a predicate compiles to, its query plan and what running it costs.",
            discussion: "Example: perf-run explain Selfie \"rating < 5 OR name LIKE '*e*ie*'\" --scale 0.1")

        @Argument(help: "The entity to fetch.")
        var entity: String

        @Argument(help: "The predicate, in format-string syntax (docs/predicates.md).")
        var predicate: String

        @Option(help: "The data set (by default the first scenario's: selfies for perf-run).")
        var dataset: DataSetKind?

        /// The data set to explain on.
        var dataSet: DataSetKind? { dataset ?? PerfRunCommand.catalog.dataSets.first }

        @Option(help: "A Core Data model (.xcdatamodeld, .xcdatamodel or contents) to explain on instead of --dataset, with a default data set of 100 × scale objects per entity.")
        var model: String?

        @OptionGroup var scale: ScaleOption

        @Flag(help: "Print the explanation as JSON.")
        var json = false

        func validate() throws {
            guard model == nil else { return }  // checked once the model is read
            guard let dataSet else { throw ValidationError("no data set to explain on: give --model") }
            guard dataSet.model.entity(named: entity) != nil else {
                throw ValidationError(
                    "the \(dataSet.name) data set has no entity \(entity) (\(dataSet.model.entities.map(\.name).joined(separator: ", ")))")
            }
        }

        func run() throws {
            let explanation: PredicateExplanation
            do {
                if let model {
                    let imported = try ImportedModelFile.read(model)
                    guard imported.entity(named: entity) != nil else {
                        throw UsageError("\(model) has no entity \(entity) (\(imported.entities.map(\.name).joined(separator: ", ")))")
                    }
                    explanation = try PredicateExplanation.explain(entity: entity, format: predicate, model: imported, scale: scale.scale)
                } else {
                    explanation = try PredicateExplanation.explain(
                        entity: entity, format: predicate, dataSet: dataSet!, scale: scale.scale)
                }
            } catch let error as ModelImportError {
                throw UsageError(error.description)
            } catch let error as PredicateSyntaxError {
                throw UsageError(error.description)
            } catch let error as ObjectGraphError {
                throw UsageError(error.description)
            }
            if json {
                print(String(decoding: try ReportFile.json(explanation), as: UTF8.self))
            } else {
                print(explanation.text)
            }
        }
    }

    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Runs scenarios (all by default) and writes a JSON report.",
            discussion: "Exit code 0 when every scenario passed, 1 when one failed, 2 for bad usage.")

        @Argument(help: "Scenarios to run (see `perf-run list`); all when none is named.")
        var scenarios: [String] = []

        @OptionGroup var scale: ScaleOption

        @Option(parsing: .unconditional, help: "Seed of the data generator, 0 to 18446744073709551615.", transform: Self.seed)
        var seed: UInt64 = 1

        @Option(parsing: .unconditional, help: "Measured iterations, 1 to \(Self.maximumIterations).")
        var iterations = 10

        @Option(parsing: .unconditional, help: "Warm-up iterations before the measured ones, 0 to \(Self.maximumIterations).")
        var warmup = 1

        @Option(help: "Where the data lives.")
        var store = RunOptions.StoreKind.file

        @Option(help: "Where to write the JSON report (default Reports/latest.json).")
        var json: String?

        @Option(help: "Where to write the HTML report (default: beside --json, with .html; Reports/latest.html without --json).")
        var html: String?

        @Option(name: .customLong("sql-debug"), parsing: .unconditional, help: "SQL debug log level, 1 to 4 (to standard error, or --sql-log).")
        var sqlDebug: Int?

        @Option(name: .customLong("sql-log"), help: "Append the SQL debug log to this file.")
        var sqlLog: String?

        @Option(parsing: .unconditional, help: "Stop a scenario that runs longer than this many seconds (all its iterations) and mark it failed.")
        var timeout: Double?

        @Flag(help: "Record the run with LTTng (blocking channel), check the trace's counters against the recorder's, keep the trace.")
        var lttng = false

        @Option(name: .customLong("lttng-output"), help: "Where --lttng keeps the trace (an earlier trace there is replaced).")
        var lttngOutput = "Reports/lttng-trace"

        @Option(name: .customLong("trace-events"), help: "Write the last iteration's events as a Chrome/Perfetto trace file.")
        var traceEvents: String?

        @OptionGroup var insights: InsightOptions

        @Flag(
            name: .customLong("what-if"),
            help: ArgumentHelp(
                "Measure each prefetch and index advice: run its scenario again with the fix applied and report the gain.",
                discussion: """
                    The suggested key path is prefetched at that fetch, or the suggested index created on a copy of the data set; \
                    the insight then carries both runs' statements, rows, faults and median time with its interval, and advice \
                    that does not help is reported as such.
                    """))
        var whatIf = false

        @Flag(help: "Print nothing but errors.")
        var quiet = false

        /// The most measured or warm-up iterations a run takes: far more than
        /// any statistic needs, and no arithmetic near it overflows.
        static let maximumIterations = 100_000

        static func seed(_ text: String) throws -> UInt64 {
            guard let value = UInt64(text) else {
                throw ValidationError("a whole number from 0 to \(UInt64.max), not \(text)")
            }
            return value
        }

        /// The report paths, defaults applied.
        var jsonPath: String { json ?? "Reports/latest.json" }
        var htmlPath: String {
            if let html { return html }
            guard let json else { return "Reports/latest.html" }
            let url = URL(fileURLWithPath: json)
            return url.pathExtension == "json" ? url.deletingPathExtension().appendingPathExtension("html").relativePath : json + ".html"
        }

        func validate() throws {
            guard (1...Self.maximumIterations).contains(iterations) else {
                throw ValidationError("--iterations must be 1 to \(Self.maximumIterations), not \(iterations)")
            }
            guard (0...Self.maximumIterations).contains(warmup) else {
                throw ValidationError("--warmup must be 0 to \(Self.maximumIterations), not \(warmup)")
            }
            if let timeout, !(timeout > 0 && timeout.isFinite) { throw ValidationError("--timeout must be a positive number of seconds, not \(timeout)") }
            if let sqlDebug, !(1...4).contains(sqlDebug) { throw ValidationError("--sql-debug must be 1 to 4, not \(sqlDebug)") }
            for name in scenarios where PerfRunCommand.catalog.named(name) == nil {
                throw ValidationError("unknown scenario \(name) (perf-run list shows them)")
            }
            var seen = Set<String>()
            for name in scenarios where !seen.insert(name).inserted {
                throw ValidationError("scenario \(name) is named twice")
            }
        }

        func run() throws {
            let selected = scenarios.isEmpty ? PerfRunCommand.catalog.scenarios : scenarios.compactMap(PerfRunCommand.catalog.named)
            try checkOutputs()
            var settings = RunSession.Settings()
            settings.options.scale = scale.scale
            settings.options.seed = seed
            settings.options.iterations = iterations
            settings.options.warmup = warmup
            settings.options.store = store
            settings.options.timeoutSeconds = timeout
            settings.options.measuresFixes = whatIf
            settings.sqlDebugLevel = sqlDebug
            settings.sqlLogPath = sqlLog
            settings.lttngDirectory = lttng ? lttngOutput : nil
            settings.traceEventsPath = traceEvents
            settings.jsonPath = jsonPath
            settings.htmlPath = htmlPath
            settings.experiments = PerfRunCommand.catalog.experiments
            let printer = ProgressPrinter(quiet: quiet)
            let outcome: RunSession.Outcome
            do {
                settings.options.insights = try insights.settings()
                outcome = try RunSession(settings).run(selected) { printer.show($0) }
            } catch let error as ReportError {
                throw UsageError(error.description)
            } catch let error as RunSession.SettingsError {
                throw UsageError(error.description)
            }
            printer.finish()
            for line in outcome.traceDisagreements + outcome.droppedEvents {
                FileHandle.standardError.write(Data((line + "\n").utf8))
            }
            if !quiet {
                if let directory = outcome.traceDirectory { print("LTTng trace: \(directory) (babeltrace2 \(directory))") }
                print(ReportText.summaryTable(outcome.report))
                if let experiments = ReportText.experimentTable(outcome.report) { print("\n" + experiments) }
                if let fixes = ReportText.fixFirst(outcome.report) { print("\n" + fixes) }
                print("report: \(jsonPath), \(htmlPath)")
            }
            if let code = outcome.signalExitCode { throw ExitCode(code) }
            if !outcome.traceDisagreements.isEmpty || outcome.anyFailed { throw ExitCode.failure }
        }

        /// Fails early (exit code 2) when an output could not be written, or
        /// when two outputs would overwrite each other.
        private func checkOutputs() throws {
            var outputs = [("--json", jsonPath), ("--html", htmlPath)]
            if let accepted = insights.acceptedInsights { outputs.append(("--accepted-insights", accepted)) }
            if let traceEvents { outputs.append(("--trace-events", traceEvents)) }
            if let sqlLog { outputs.append(("--sql-log", sqlLog)) }
            var targets: [(option: String, path: String, target: OutputFile.Target)] = []
            do {
                for (option, path) in outputs {
                    // The SQL log is opened (and its errors said) by its sink; the insights file is an input.
                    if option != "--sql-log", option != "--accepted-insights" { try OutputFile.checkWritable(path) }
                    guard let target = try? OutputFile.target(of: path) else { continue }
                    if let other = targets.first(where: { $0.target.collides(with: target) }) {
                        throw UsageError("\(option) \(path) and \(other.option) \(other.path) are the same file: one would overwrite the other")
                    }
                    targets.append((option, path, target))
                }
            } catch let error as ReportError {
                throw UsageError(error.description)
            }
        }
    }
}
