import ArgumentParser
import Foundation
import Insights
import Probes
import PrometheusPublishing
import Reporting
import Scenarios
import ToolSupport

extension PerfRun {
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Runs scenarios (all by default) and writes a JSON report.",
            discussion: """
                Exit code 0 when every scenario passed, 1 when one failed, 2 for bad usage; 130, 143 or 129 after \
                Ctrl-C, SIGTERM or SIGHUP, which stop the run in order: the report of what ran is written.
                """)

        @Argument(help: "Scenarios to run (see `perf-run list`); all when none is named.")
        var scenarios: [String] = []

        @OptionGroup var scale: ScaleOption

        @Option(
            name: .customLong("scales"), parsing: .unconditional,
            help: ArgumentHelp(
                "Run each scenario at each of these data set scales (at least two, separated by commas: 0.5,1) and fit its counts against the scale.",
                discussion: """
                    Each cost counter, and each statement shape's executions and rows, gets a least-squares line against N, the \
                    scale: sqlStatements at List.swift:41 = 1 + 50·N. The report's figures are those at the last scale; the \
                    others run one measured iteration after the warm-up (docs/cli.md).
                    """,
                valueName: "scales"))
        var scales: String?

        @Option(parsing: .unconditional, help: "Seed of the data generator, 0 to 18446744073709551615 (default 1).", transform: Self.seed)
        var seed: UInt64 = 1

        @Option(parsing: .unconditional, help: "Measured iterations, 1 to \(Self.maximumIterations).")
        var iterations = 10

        @Option(parsing: .unconditional, help: "Warm-up iterations before the measured ones, 0 to \(Self.maximumIterations).")
        var warmup = 1

        @Option(help: "Where the data lives.")
        var store = RunOptions.StoreKind.file

        /// The reports: `--json` (default Reports/latest.json), `--html`
        /// (default beside a --json file, with .html; Reports/latest.html
        /// without --json), and any other format named.
        @OptionGroup var outputOptions: OutputOptions

        @Option(name: .customLong("sql-debug"), parsing: .unconditional, help: "SQL debug log level, 1 to 4 (to --sql-log, else the file FAULTLINE_SQL_LOG names, else standard error; default: no log).")
        var sqlDebug: Int?

        @Option(name: .customLong("sql-log"), help: "Append the SQL debug log to this file (with --sql-debug; default: standard error).")
        var sqlLog: String?

        @Option(parsing: .unconditional, help: "Stop a scenario that runs longer than this many seconds (all its iterations) and mark it failed (default: no limit).")
        var timeout: Double?

        @Flag(help: "Record the run with LTTng (blocking channel), check the trace's counters against the recorder's, keep the trace.")
        var lttng = false

        @Option(
            name: .customLong("lttng-output"),
            help: "Where --lttng keeps the trace (default Reports/lttng-trace; an earlier trace perf-run made there is replaced; anything else there is refused).")
        var lttngOutput: String?

        @Option(
            name: .customLong("lttng-relay"),
            help: ArgumentHelp(
                "With --lttng, send the trace to the lttng-relayd at net://HOST[:CTRL[:DATA]] (ports 5342, 5343 by default) instead of a local directory.",
                discussion: "The run reads the trace back from the relay's live port with babeltrace2 and checks its counters as with a local trace.",
                valueName: "url"))
        var lttngRelay: String?

        @Option(name: .customLong("lttng-live-port"), parsing: .unconditional, help: ArgumentHelp("The relay's live port, where --lttng-relay reads the trace back (default 5344).", valueName: "port"))
        var lttngLivePort: Int?

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

        @Option(help: ArgumentHelp(
            "After the reports are written, push the run's counters and wall times to this Prometheus Pushgateway (as perf-run publish).",
            discussion: "A push that fails is exit 2, with the reports kept."))
        var pushgateway: String?

        @OptionGroup var publishing: PublishOptions

        @Option(
            help: ArgumentHelp(
                "Label the report with this commit (default: FAULTLINE_GIT_COMMIT, else git rev-parse HEAD in the current directory).",
                discussion: "For a binary built from one checkout and run in another: CI's base run names the base commit.",
                valueName: "sha"))
        var commit: String?

        @Option(
            help: ArgumentHelp(
                "After the reports are written, keep the run in this history store (a SQLite file or a postgresql:// URL), as perf-run history add.",
                discussion: "A store that cannot be written is exit 2, with the reports kept.", valueName: "url"))
        var history: String?

        @OptionGroup var historyLabels: HistoryLabelOptions

        @Flag(help: "Print nothing but errors.")
        var quiet = false

        static var maximumIterations: Int { RunConfiguration.maximumIterations }

        static func seed(_ text: String) throws -> UInt64 {
            guard let value = UInt64(text) else {
                throw ValidationError("a whole number from 0 to \(UInt64.max), not \(text)")
            }
            return value
        }

        /// The run's configuration, as the options give it, with the insight
        /// thresholds of `insights` (the options' own, or with an insights
        /// file's).
        func runConfiguration(insights settings: InsightSettings) -> RunConfiguration {
            // validate() refused a list that does not parse.
            let scales = self.scales.flatMap { try? RunConfiguration.scales(parsing: $0) }
            var configuration = RunConfiguration(
                scale: scales?.last ?? scale.scale, seed: seed, iterations: iterations, warmup: warmup, store: store,
                timeoutSeconds: timeout)
            configuration.scales = scales
            configuration.thresholds = settings.thresholds
            configuration.measuresFixes = whatIf
            return configuration
        }

        func validate() throws {
            if let scales {
                if scale.given != nil { throw ValidationError("--scale and --scales: give one scale, or the scales to fit against") }
                do {
                    _ = try RunConfiguration.scales(parsing: scales)
                } catch {
                    throw ValidationError(error.description)
                }
            }
            do {
                try runConfiguration(insights: InsightSettings()).validate()
            } catch {
                throw ValidationError(error.description)
            }
            if let sqlDebug, !(1...4).contains(sqlDebug) { throw ValidationError("--sql-debug must be 1 to 4, not \(sqlDebug)") }
            if sqlLog != nil, sqlDebug == nil, SQLDebugLogSink.environmentLevel() == nil {
                throw ValidationError("--sql-log writes the SQL debug log, which needs a level: add --sql-debug 1 to 4")
            }
            _ = try relay()
            _ = try selected()
            if let pushgateway {
                _ = try PublishOptions.address(pushgateway)
                try publishing.validateForPushing()
            } else if publishing.isGiven {
                throw ValidationError("--job and --label name what --pushgateway publishes: add --pushgateway URL")
            }
            if let commit { try HistoryLabelOptions.check(commit, option: "--commit") }
            try historyLabels.check()
            if let history {
                _ = try HistoryStoreOption.location(history)
                // Said before the run, not after it.
                if historyLabels.resolved().branch == nil {
                    throw ValidationError("--history: no branch to keep the run under: give --branch (or set FAULTLINE_BRANCH)")
                }
            } else if historyLabels.isGiven {
                throw ValidationError("--project, --branch and --runner label what --history keeps: add --history URL")
            }
        }

        /// The relay `--lttng-relay` names, which needs `--lttng` and rules
        /// out `--lttng-output`.
        func relay() throws -> LTTngRelay? {
            guard let lttngRelay else {
                if lttngLivePort != nil { throw ValidationError("--lttng-live-port is the relay's: add --lttng --lttng-relay net://HOST") }
                return nil
            }
            guard lttng else { throw ValidationError("--lttng-relay records with LTTng: add --lttng") }
            if lttngOutput != nil { throw ValidationError("--lttng-output and --lttng-relay: the trace goes to a local directory or to a relay, not both") }
            do {
                return try LTTngRelay(url: lttngRelay, livePort: lttngLivePort)
            } catch {
                throw ValidationError("--lttng-relay \(error.description)")
            }
        }

        /// The scenarios named (all when none is), each once: a name given
        /// twice, in any case, is refused.
        func selected() throws -> [Scenario] {
            guard !scenarios.isEmpty else { return PerfRunCommand.catalog.scenarios }
            var found: [Scenario] = []
            for name in scenarios {
                guard let scenario = PerfRunCommand.catalog.named(name) else {
                    let near = NameSuggestion.didYouMean(name, among: PerfRunCommand.catalog.scenarios.map(\.name))
                    throw ValidationError("unknown scenario \(name)\(near) (\(PerfRunCommand.tool.name) list shows them)")
                }
                if found.contains(where: { $0.name == scenario.name }) {
                    let spellings = scenarios.filter { PerfRunCommand.catalog.named($0)?.name == scenario.name }
                    let as_ = Set(spellings).count > 1 ? " (\(spellings.joined(separator: ", ")))" : ""
                    throw ValidationError("scenario \(scenario.name) is named twice\(as_)")
                }
                found.append(scenario)
            }
            return found
        }

        /// The outputs: the JSON report, its page (beside a JSON file, with
        /// .html, unless the JSON goes to standard output or a device), the
        /// trace file; the SQL log too, so that nothing else overwrites it.
        func outputs() throws -> [OutputPlan.Output] {
            var outputs = try outputOptions.namedOutputs("run", formats: ReportFormats.formats(of: .run), default: .json)
            let report = outputs.first { $0.format == .json }
                ?? .init(option: "--json", destination: .file("Reports/latest.json"), format: .json)
            if !outputs.contains(report) { outputs.insert(report, at: 0) }
            if outputs.contains(where: { $0.format == .html }) {
            } else if outputOptions.json == nil {
                outputs.append(.init(option: "--html", destination: .file("Reports/latest.html"), format: .html))
            } else if let path = report.destination.path, let target = try? OutputFile.target(of: path),
                target.kind == .absent || target.kind == .regular
            {
                let url = URL(fileURLWithPath: path)
                let page = url.pathExtension == "json" ? url.deletingPathExtension().appendingPathExtension("html").relativePath : path + ".html"
                outputs.append(.init(option: "--html", destination: .file(page), format: .html))
            }
            if let traceEvents { outputs.append(try .init(.traceEvents, option: "--trace-events", argument: traceEvents, format: .json)) }
            if let (option, path, _) = sqlLogFile { outputs.append(try .init(.sqlLog, option: option, argument: path, format: .text)) }
            return outputs
        }

        /// Where the SQL debug log goes, when there is one and it is not
        /// standard error: `--sql-log`, else the file `FAULTLINE_SQL_LOG`
        /// names (as for any program using the engine), with the option or
        /// variable that named it and the name its errors give it.
        private var sqlLogFile: (option: String, path: String, name: String)? {
            if let sqlLog { return ("--sql-log", sqlLog, "--sql-log \(sqlLog)") }
            guard sqlDebug != nil || SQLDebugLogSink.environmentLevel() != nil,
                let path = SQLDebugLogSink.environmentLogPath()
            else { return nil }
            return (Self.environmentLogOption, path, "\(Self.environmentLogOption)=\(path)")
        }

        /// The name the output plan gives a log file `FAULTLINE_SQL_LOG` names.
        static let environmentLogOption = "FAULTLINE_SQL_LOG"

        func run() throws {
            let started = ContinuousClock.now
            let selected = try selected()
            // The inputs are read before the outputs' directories are made.
            let insightSettings = try insights.settings()
            let outputs = try outputs()
            let plan = try OutputPlan(
                inputs: insights.acceptedInsights.map { [.init(option: "--accepted-insights", path: $0)] } ?? [], outputs: outputs)
            if let log = plan.output(.sqlLog), log.destination == .standardOutput {
                throw UsageError(
                    option: log.option,
                    log.option == Self.environmentLogOption
                        ? "- is not a file to append to: unset it for the log on standard error"
                        : "- is not a file to append to: leave --sql-log out for the log on standard error")
            }
            let console = Console(plan: plan)
            var settings = RunSession.Settings()
            settings.tool = PerfRunCommand.tool
            settings.commit = commit
            // The report records the command line, without a Pushgateway's credentials or a history's password.
            settings.commandLine = ServerAddress.redactingCredentials(
                in: CommandLine.arguments.map(HistoryLocation.redactingPassword), options: ["--pushgateway", "--lttng-relay"])
            settings.options = RunOptions(runConfiguration(insights: insightSettings))
            settings.options.insights = insightSettings
            settings.sqlDebugLevel = sqlDebug
            if let (_, path, name) = sqlLogFile {
                settings.sqlLogPath = path
                settings.sqlLogName = name
            }
            settings.lttngDirectory = lttng ? lttngOutput ?? "Reports/lttng-trace" : nil
            settings.lttngRelay = try relay()
            settings.traceEventsPath = traceEvents
            settings.experiments = PerfRunCommand.catalog.experiments
            let printer = ProgressPrinter(quiet: quiet)
            // The reports are written while a signal still asks for an
            // orderly stop: one that comes during the writes lets them end.
            let outcome = try RunSession(settings).measure(selected, progress: { printer.show($0) }) { outcome in
                printer.finish()
                let document = outcome.document
                for output in plan.outputs {
                    switch output.role {
                    case .document: try plan.write(document, to: output)
                    case .traceEvents: try outcome.traceEvents.map { data throws(OutputError) in try OutputPlan.write(data, to: output.destination) }
                    default: break  // the SQL log, written by its sink
                    }
                }
            }
            for line in outcome.traceDisagreements + outcome.droppedEvents { Console.warn(line) }
            for entry in outcome.report.unmatchedAcceptedInsights ?? [] {
                Console.warn("--accepted-insights: \(entry) matches no insight of this run")
            }
            for scenario in outcome.report.scenarios {
                for intention in scenario.unmatchedIntentions ?? [] {
                    Console.warn("\(scenario.name): intended lazy loads of \(intention) (FetchRequest.intendedLazyLoads) match no insight")
                }
            }
            if !quiet {
                if let directory = outcome.traceDirectory { try console.say("LTTng trace: \(directory) (babeltrace2 \(directory))") }
                if let relay = settings.lttngRelay, let path = outcome.relayTracePath {
                    try console.say("LTTng trace: on the relay \(relay.url), in its output directory under \(path)")
                }
                try console.say(ReportText.console(outcome.report))
                let written = plan.outputs(.document).map(\.destination.description)
                try console.say("report: \(written.joined(separator: ", "))")
            }
            if let code = outcome.signalExitCode { throw CommandExit(ExitStatus(rawValue: code) ?? .terminated) }
            if let pushgateway { try publish(outcome.report, to: try PublishOptions.address(pushgateway), console: console) }
            if let history { try record(outcome.report, in: try HistoryStoreOption.location(history), console: console) }
            if !quiet {
                let count = outcome.report.scenarios.count
                try console.say("ran \(count) scenario\(count == 1 ? "" : "s") in \(ElapsedText(ContinuousClock.now - started))")
            }
            // The reports are written; the log an output of the run lacks is bad output.
            if let failure = outcome.sqlLogFailure { throw failure }
            if !outcome.traceDisagreements.isEmpty || outcome.anyFailed { throw CommandExit(.failure) }
        }

        /// Keeps the run in the history (whatever its scenarios' status: a
        /// failed scenario is history too).
        private func record(_ report: Report, in location: HistoryLocation, console: Console) throws {
            let run = try historyLabels.resolved().run(of: report, bytes: nil, reportName: "--history", now: Date())
            let added = try location.open().add([run])
            if !quiet { try console.say("history: run \(run.identity) \(added == 1 ? "kept" : "was kept already") in \(location)") }
        }

        /// Pushes the passed scenarios (a run where none passed pushes
        /// nothing, and says so: its exit code already tells).
        private func publish(_ report: Report, to gateway: ServerAddress, console: Console) throws {
            guard report.scenarios.contains(where: { $0.status == .passed }) else {
                Console.warn("--pushgateway: nothing published: no scenario passed")
                return
            }
            let publication = try publishing.publication(of: report, reportName: "--pushgateway")
            try publication.push(to: gateway)
            if !quiet { try console.say(publication.summary(to: gateway)) }
        }
    }
}
