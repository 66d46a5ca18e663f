import Foundation
import Insights
import Probes
import Reporting
import ToolSupport

/// A whole run as the perf-run command does it, for the built-in scenarios
/// or an application's: the sinks the settings ask for (the SQL debug log,
/// the LTTng tracepoints and a recording), the scenarios with stop signals,
/// the trace's counters checked against the recorder's, the experiments
/// judged. ``measure(_:progress:)`` writes nothing: its outcome holds the
/// report and what its outputs need, for the caller to write with one
/// ``OutputPlan`` (as perf-run does); ``run(_:progress:)`` also writes them
/// to the settings' paths.
public struct RunSession {
    /// What a run is asked to do besides running the scenarios.
    public struct Settings {
        public var options = RunOptions()
        /// SQL debug log level (1 to 4), to standard error or `sqlLogPath`;
        /// nil takes `FAULTLINE_SQL_DEBUG`'s.
        public var sqlDebugLevel: Int?
        public var sqlLogPath: String?
        /// How the log's file is named in its errors: the option or
        /// variable that gave it (`--sql-log PATH`, `FAULTLINE_SQL_LOG=PATH`).
        public var sqlLogName: String?
        /// Record with LTTng into this directory (an earlier trace Faultline
        /// made there is replaced; anything else there is refused).
        public var lttngDirectory: String?
        /// Record with LTTng into this relay instead, as a live session, and
        /// read the trace back from it (``LTTngRecording/Destination/relay(_:)``).
        public var lttngRelay: LTTngRelay?
        /// Where to write the last iteration's events as a Chrome/Perfetto trace.
        public var traceEventsPath: String?
        public var jsonPath = "Reports/latest.json"
        public var htmlPath = "Reports/latest.html"
        /// Known insights to mark as accepted, besides ``RunOptions/insights``' own.
        public var accepted: AcceptedInsights?
        public var experiments: [ExperimentReference] = []
        public var commandLine: [String] = CommandLine.arguments
        /// The command the report names as its tool.
        public var tool: ToolIdentity = .perfRun
        /// The commit the report is labelled with (`run --commit`); nil
        /// takes `FAULTLINE_GIT_COMMIT`, else `git rev-parse HEAD` in the
        /// current directory.
        public var commit: String?

        public init() {}
    }

    /// What came of a run.
    public struct Outcome {
        public var report: Report
        /// Scenarios whose trace counters differ from the recorder's, with both.
        public var traceDisagreements: [String]
        /// Notes on events that did not fit in the trace's buffer.
        public var droppedEvents: [String]
        /// The trace's directory, with `lttngDirectory`.
        public var traceDirectory: String?
        /// Where the relay keeps the trace, with `lttngRelay`: under its
        /// output directory (``LTTngRecording/relayTracePath``).
        public var relayTracePath: String?
        /// The status of an early stop: 130 after SIGINT, 143 after
        /// SIGTERM, 129 after SIGHUP, 2 when a data set could not be built,
        /// copied or verified (``StopSignals/exitCode``).
        public var signalExitCode: Int32?
        /// The last iterations' events as a trace file (Chrome's Trace Event
        /// Format), when ``Settings/traceEventsPath`` asked for them.
        public var traceEvents: Data?
        /// The timeline the HTML report draws: read back from
        /// ``traceEvents``, so that `perf-run report` given the JSON and the
        /// trace file draws the same.
        public var timeline: Timeline?

        /// Why the SQL debug log stopped before the run's end, if it did (a
        /// full disk, a closed standard error): the run went on.
        public var sqlLogFailure: SQLDebugLogSink.WriteFailure?

        /// The report with its timeline, as the outputs render it.
        public var document: ReportDocument { ReportDocument(report, timeline: timeline) }
        public var anyFailed: Bool { report.scenarios.contains { $0.status == .failed } }
    }

    /// Bad settings or an environment that cannot run: one line.
    public struct SettingsError: CommandFailure {
        public let description: String
        public var exitStatus: ExitStatus { .badInput }
        public init(_ description: String) { self.description = description }
    }

    public let settings: Settings

    public init(_ settings: Settings) { self.settings = settings }

    /// Runs `scenarios` and writes the reports to the settings' paths
    /// (JSON, HTML, the trace file when asked).
    public func run(_ scenarios: [Scenario], progress: @escaping (RunProgress) -> Void = { _ in }) throws -> Outcome {
        var outputs = [
            OutputPlan.Output(option: "--json", destination: .file(settings.jsonPath), format: .json),
            OutputPlan.Output(option: "--html", destination: .file(settings.htmlPath), format: .html),
        ]
        if let path = settings.traceEventsPath { outputs.append(.init(.traceEvents, option: "--trace-events", destination: .file(path), format: .json)) }
        let plan = try OutputPlan(inputs: [], outputs: outputs)
        return try measure(scenarios, progress: progress) { outcome in
            try plan.write(outcome.document, to: outputs[0])
            try plan.write(outcome.document, to: outputs[1])
            if let path = settings.traceEventsPath, let data = outcome.traceEvents { try OutputPlan.write(data, to: .file(path)) }
        }
    }

    /// Runs `scenarios` and writes nothing: the outcome has the report, its
    /// timeline and the trace file's bytes.
    /// A configuration out of range (``RunConfiguration/validate()``) is
    /// the error, before any work.
    ///
    /// A signal stops the run in order until this returns; a caller that
    /// writes the reports afterwards should give them to
    /// ``measure(_:progress:thenWrite:)`` instead, so that a signal during
    /// the writes lets them finish.
    public func measure(_ scenarios: [Scenario], progress: @escaping (RunProgress) -> Void = { _ in }) throws -> Outcome {
        try measure(scenarios, progress: progress) { _ in }
    }

    /// Runs `scenarios`, then calls `write` with the outcome while a signal
    /// still asks for an orderly stop: SIGINT, SIGTERM or SIGHUP during the
    /// writes lets them finish (only a second signal ends the process at
    /// once), and the outcome returned has the signal's status
    /// (``Outcome/signalExitCode``), whether it came during the scenarios
    /// or during the writes.
    public func measure(
        _ scenarios: [Scenario], progress: @escaping (RunProgress) -> Void = { _ in }, thenWrite write: (Outcome) throws -> Void
    ) throws -> Outcome {
        try settings.options.recordedConfiguration.validate()
        var options = settings.options
        if let accepted = settings.accepted { options.insights.accepted.formUnion(accepted.identities) }
        var sqlLog: SQLDebugLogSink?
        // The environment's level read without opening its file: the
        // caller chose the destination (settings.sqlLogPath).
        if let level = settings.sqlDebugLevel ?? SQLDebugLogSink.environmentLevel() {
            do {
                let sink = try settings.sqlLogPath.map {
                    try SQLDebugLogSink(level: level, destination: .file($0), name: settings.sqlLogName ?? "--sql-log \($0)")
                }
                    ?? SQLDebugLogSink(level: level)
                sqlLog = sink
                options.sinks.append(sink)
            } catch let error as SQLDebugLogSink.OpenError {
                throw SettingsError(error.description)
            }
        }
        var recording: LTTngRecording?
        let destination = settings.lttngRelay.map(LTTngRecording.Destination.relay)
            ?? settings.lttngDirectory.map { .directory(URL(fileURLWithPath: $0).path) }
        if let destination {
            do {
                recording = try LTTngRecording(destination: destination)
            } catch let error as LTTngRecording.Unavailable {
                throw SettingsError(error.description)
            }
        }
        defer { recording?.tearDown() }
        switch LTTngSink.load() {
        case .success(let sink): options.sinks.append(sink)
        case .failure(let reason) where destination != nil: throw SettingsError("--lttng: \(reason)")
        case .failure: break
        }
        if settings.traceEventsPath != nil { options.keptEvents = 100_000 }
        let runner = ScenarioRunner(options: options, progress: progress)
        do {
            try runner.prepare()
        } catch let error as ScenarioFailure {
            throw SettingsError(error.description)
        }
        // Ctrl-C and SIGTERM stop the scenario running now; the report of
        // what ran is still written, whether the signal comes during the
        // scenarios or during the writes.
        let signals = StopSignals(runner.interrupt)
        defer { signals.cancel() }
        let results = runner.run(scenarios)
        var report = RunReport.make(
            results, options: options, commandLine: settings.commandLine, experiments: settings.experiments, tool: settings.tool,
            commit: settings.commit)
        let unmatched = options.insights.acceptedInsights.unmatched(by: report.scenarios.flatMap(\.insights))
        if !unmatched.isEmpty { report.unmatchedAcceptedInsights = unmatched }
        var disagreements: [String] = []
        if let recording {
            // A trace that cannot be read back is said, and fails the run,
            // but the report of what ran is still written.
            let traced: TraceReadBack
            do {
                traced = try recording.finish()
            } catch {
                disagreements.append("the trace's counters could not be checked: \(error)")
                traced = TraceReadBack()
            }
            for index in report.scenarios.indices where report.scenarios[index].status == .passed {
                let name = report.scenarios[index].name
                guard let counters = traced.counters[name] else { continue }
                var values = counters.byName
                values[.objectsRegisteredPeak] = nil
                report.scenarios[index].traceCounters = values
                var recorded = report.scenarios[index].counters
                recorded[.objectsRegisteredPeak] = nil
                guard !report.scenarios[index].advisoryCounters.contains(CounterName.sqlStatements.rawValue) else { continue }
                if recorded != values {
                    disagreements.append("\(name): the trace's counters \(values) differ from the recorder's \(recorded)")
                }
                // Per shape, the trace's numbers resolved to text.
                let shapes = report.scenarios[index].statements.reduce(into: [String: Int]()) { $0[$1.shape, default: 0] += $1.count }
                if let disagreement = traced.statementDisagreement(scenario: name, recorded: shapes) { disagreements.append(disagreement) }
            }
        }
        var dropped: [String] = []
        var traceEvents: Data?
        var timeline: Timeline?
        if let path = settings.traceEventsPath {
            let data = try TraceEventFile.render(runner.events)
            traceEvents = data
            // The HTML page's timeline: a trace that cannot be read back
            // leaves the page without it, never the run without its reports.
            do {
                timeline = try Timeline(traceEvents: data, path: path)
            } catch {
                dropped.append("the trace events could not be read back for the HTML timeline: \(error)")
            }
            for scenario in report.scenarios {
                guard let count = scenario.droppedEvents else { continue }
                dropped.append("\(scenario.name): \(count) events did not fit in the trace's buffer; the trace starts later than the iteration")
            }
        }
        var outcome = Outcome(
            report: report, traceDisagreements: disagreements, droppedEvents: dropped, traceDirectory: recording?.directory,
            relayTracePath: recording?.relayTracePath,
            signalExitCode: signals.exitCode, traceEvents: traceEvents, timeline: timeline, sqlLogFailure: sqlLog?.writeFailure)
        // The reports are written before the orderly stop ends (the defer
        // above): a signal now only adds its status.
        try write(outcome)
        outcome.signalExitCode = signals.exitCode
        return outcome
    }
}

extension SQLDebugLogSink.WriteFailure: CommandFailure {
    /// An output of the run that could not be written: exit code 2.
    public var exitStatus: ExitStatus { .badInput }
}
