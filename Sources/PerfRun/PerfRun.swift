import ArgumentParser
import Foundation
import ObjectGraph
import Probes
import Reporting
import Scenarios

/// `perf-run`: runs Faultline's scenarios and reports what the persistence
/// code did. Exit codes as `diff` uses them: 0 success, 1 a scenario failed,
/// 2 bad usage or input (with a one-line reason on standard error).
@main
enum PerfRunMain {
    static func main() {
        do {
            var command = try PerfRun.parseAsRoot()
            try command.run()
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
        subcommands: [List.self, Run.self, Explain.self, Compare.self, ReportCommand.self, Log.self])
}

/// Set by the SIGINT handler.
final class Interrupted: @unchecked Sendable {
    var happened = false
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
                let list = ScenarioCatalog.all.map { ["name": $0.name, "dataSet": $0.dataSet.rawValue, "description": $0.summary] }
                let data = try JSONSerialization.data(withJSONObject: list, options: [.prettyPrinted, .sortedKeys])
                print(String(decoding: data, as: UTF8.self))
                return
            }
            for scenario in ScenarioCatalog.all {
                print("\(scenario.name) (\(scenario.dataSet.rawValue))")
                print("    " + scenario.summary + "\n")
            }
        }
    }

    struct Compare: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compares two reports: counters exactly, insights by identity, timings as samples.",
            discussion: "Exit code 0: no regression (improvements do not fail); 1: a regression; 2: bad input.")

        @Argument(help: "The base report.")
        var base: String

        @Argument(help: "The report to judge.")
        var head: String

        @Option(help: "text, markdown, json or html.")
        var format = "text"

        @Flag(name: .customLong("exact-counters"), help: "Any change of a gating counter, up or down, is a regression.")
        var exactCounters = false

        @Option(help: "A JSON file of allowed counter increases.")
        var thresholds: String?

        @Option(name: .customLong("noise-floor"), help: "A noise floor JSON, or the JSON comparison of an A/A pair.")
        var noiseFloor: String?

        @Option(name: .customLong("accepted-insights"), help: "Known insights (rule/entity/keyPath per line) that do not fail.")
        var acceptedInsights: String?

        func validate() throws {
            guard ComparisonFormat(rawValue: format) != nil || format == "html" else {
                throw ValidationError("--format must be text, markdown, json or html, not \(format)")
            }
        }

        func run() throws {
            var comparer = ReportComparer()
            comparer.exactCounters = exactCounters
            do {
                if let thresholds {
                    guard let data = FileManager.default.contents(atPath: thresholds) else {
                        throw ReportError("\(thresholds): cannot read the thresholds file")
                    }
                    do {
                        comparer.thresholds = try JSONDecoder().decode(Thresholds.self, from: data)
                    } catch {
                        throw ReportError("\(thresholds): not a thresholds file (counters, scenarios)")
                    }
                }
                if let noiseFloor { comparer.noiseFloor = try NoiseFloor.read(noiseFloor) }
                if let acceptedInsights { comparer.accepted = try AcceptedInsights(contentsOf: acceptedInsights) }
                let comparison = comparer.compare(try ReportFile.read(base), try ReportFile.read(head), basePath: base, headPath: head)
                print(format == "html" ? HTMLComparison.render(comparison) : try ComparisonFormat(rawValue: format)!.render(comparison), terminator: "")
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

        @Option(help: "The data set: selfies or fireballs.")
        var dataset = "selfies"

        @Option(help: "Data set scale, 0.01 to 4.")
        var scale = 1.0

        @Flag(help: "Print the explanation as JSON.")
        var json = false

        func validate() throws {
            guard scale >= 0.01, scale <= 4 else { throw ValidationError("--scale must be between 0.01 and 4, not \(scale)") }
            guard let kind = DataSetKind(rawValue: dataset) else {
                throw ValidationError("unknown data set \(dataset) (\(DataSetKind.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            guard kind.model.entity(named: entity) != nil else {
                throw ValidationError("the \(dataset) data set has no entity \(entity) (\(kind.model.entities.map(\.name).joined(separator: ", ")))")
            }
        }

        func run() throws {
            let explanation: PredicateExplanation
            do {
                explanation = try PredicateExplanation.explain(
                    entity: entity, format: predicate, dataSet: DataSetKind(rawValue: dataset)!, scale: scale)
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

        @Option(help: "Data set scale, 0.01 to 4: entity counts are max(1, round(500 × scale)).")
        var scale = 1.0

        @Option(help: "Seed of the data generator.")
        var seed: UInt64 = 1

        @Option(help: "Measured iterations.")
        var iterations = 10

        @Option(help: "Warm-up iterations before the measured ones.")
        var warmup = 1

        @Option(help: "file (the default) or memory.")
        var store = "file"

        @Option(help: "Where to write the JSON report.")
        var json = "Reports/latest.json"

        @Option(help: "Where to write the HTML report.")
        var html = "Reports/latest.html"

        @Option(name: .customLong("sql-debug"), help: "SQL debug log level, 1 to 4 (to standard error, or --sql-log).")
        var sqlDebug: Int?

        @Option(name: .customLong("sql-log"), help: "Write the SQL debug log to this file.")
        var sqlLog: String?

        @Option(help: "Stop a scenario that runs longer than this many seconds (all its iterations) and mark it failed.")
        var timeout: Double?

        @Flag(help: "Record the run with LTTng (blocking channel), check the trace's counters against the recorder's, keep the trace.")
        var lttng = false

        @Option(name: .customLong("lttng-output"), help: "Where --lttng keeps the trace.")
        var lttngOutput = "Reports/lttng-trace"

        @Option(name: .customLong("trace-events"), help: "Write the last iteration's events as a Chrome/Perfetto trace file.")
        var traceEvents: String?

        @Option(name: .customLong("accepted-insights"), help: "A file of known insights (rule/entity/keyPath per line) to mark as accepted.")
        var acceptedInsights: String?

        @Flag(help: "Print nothing but errors.")
        var quiet = false

        func validate() throws {
            guard scale >= 0.01, scale <= 4 else { throw ValidationError("--scale must be between 0.01 and 4, not \(scale)") }
            guard iterations >= 1 else { throw ValidationError("--iterations must be at least 1") }
            guard warmup >= 0 else { throw ValidationError("--warmup must not be negative") }
            guard RunOptions.StoreKind(rawValue: store) != nil else { throw ValidationError("--store must be file or memory, not \(store)") }
            if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds, not \(timeout)") }
            if let sqlDebug, !(1...4).contains(sqlDebug) { throw ValidationError("--sql-debug must be 1 to 4, not \(sqlDebug)") }
            for name in scenarios where ScenarioCatalog.named(name) == nil {
                throw ValidationError("unknown scenario \(name) (perf-run list shows them)")
            }
        }

        func run() throws {
            let selected = scenarios.isEmpty ? ScenarioCatalog.all : scenarios.compactMap(ScenarioCatalog.named)
            try checkWritable(json)
            try checkWritable(html)
            let accepted: AcceptedInsights?
            do {
                accepted = try acceptedInsights.map { try AcceptedInsights(contentsOf: $0) }
            } catch let error as ReportError {
                throw UsageError(error.description)
            }
            var options = RunOptions()
            options.scale = scale
            options.seed = seed
            options.iterations = iterations
            options.warmup = warmup
            options.store = RunOptions.StoreKind(rawValue: store)!
            options.timeoutSeconds = timeout
            if let level = sqlDebug ?? SQLDebugLogSink.fromEnvironment().map(\.level) {
                options.sinks.append(try sqlLog.map { try SQLDebugLogSink(level: level, destination: .file($0)) } ?? SQLDebugLogSink(level: level))
            }
            var recording: LTTngRecording?
            if lttng {
                try? FileManager.default.removeItem(atPath: lttngOutput)
                do {
                    recording = try LTTngRecording(directory: URL(fileURLWithPath: lttngOutput).path)
                } catch let error as LTTngRecording.Unavailable {
                    throw UsageError(error.description)
                }
            }
            defer { recording?.tearDown() }
            switch LTTngSink.load() {
            case .success(let sink): options.sinks.append(sink)
            case .failure(let reason) where lttng: throw UsageError("--lttng: \(reason)")
            case .failure: break
            }
            if let traceEvents {
                try checkWritable(traceEvents)
                options.keptEvents = 100_000
            }
            let printer = ProgressPrinter(quiet: quiet)
            let runner = ScenarioRunner(options: options) { printer.show($0) }
            // Ctrl-C stops the scenario running now; the report of what ran
            // is still written, and the exit code is 130.
            signal(SIGINT, SIG_IGN)
            let interrupt = runner.interrupt
            let interrupted = Interrupted()
            let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
            source.setEventHandler {
                interrupted.happened = true
                interrupt("interrupted (Ctrl-C)")
            }
            source.resume()
            let results = runner.run(selected)
            source.cancel()
            printer.finish()
            var report = RunReport.make(results, options: options, commandLine: CommandLine.arguments)
            var traceDisagrees = false
            if let recording {
                let traced = try recording.finish()
                for index in report.scenarios.indices where report.scenarios[index].status == .passed {
                    guard let counters = traced[report.scenarios[index].name] else { continue }
                    let values = Dictionary(uniqueKeysWithValues: counters.all.filter { $0.name != "objectsRegisteredPeak" }.map { ($0.name, $0.value) })
                    report.scenarios[index].traceCounters = values
                    var recorded = report.scenarios[index].counters
                    recorded["objectsRegisteredPeak"] = nil
                    if recorded != values, !report.scenarios[index].advisoryCounters.contains("sqlStatements") {
                        traceDisagrees = true
                        FileHandle.standardError.write(Data("\(report.scenarios[index].name): the trace's counters \(values) differ from the recorder's \(recorded)\n".utf8))
                    }
                }
                if !quiet { print("LTTng trace: \(recording.directory) (babeltrace2 \(recording.directory))") }
            }
            if let accepted { report = accepted.mark(report) }
            try ReportFile.write(report, to: json)
            try ReportFile.writeAtomically(Data(HTMLReport.render(report, events: runner.events).utf8), to: html)
            if let traceEvents {
                try ReportFile.writeAtomically(TraceEventFile.render(runner.events), to: traceEvents)
            }
            if !quiet {
                print(RunReport.summaryTable(report))
                print("report: \(json), \(html)")
            }
            if interrupted.happened { throw ExitCode(130) }
            if traceDisagrees { throw ExitCode.failure }
            if results.contains(where: { $0.status == .failed }) { throw ExitCode.failure }
        }

        /// Fails early (exit code 2) when the report could not be written.
        private func checkWritable(_ path: String) throws {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw UsageError("cannot write the report \(path): cannot create \(directory.path)")
            }
            let probe = directory.appendingPathComponent(".perf-run-write-check-\(getpid())")
            guard FileManager.default.createFile(atPath: probe.path, contents: Data()) else {
                throw UsageError("cannot write the report \(path): \(directory.path) is not writable")
            }
            try? FileManager.default.removeItem(at: probe)
        }
    }
}
