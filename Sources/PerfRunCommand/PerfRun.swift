import ArgumentParser
import Foundation
import Reporting
import Scenarios
import ToolSupport

/// The `perf-run` command, for Faultline's built-in scenarios or an
/// application's own: an application's executable target is one line,
///
/// ```swift
/// PerfRunCommand.main(scenarios: [.listScreen, .listScreenPrefetching])
/// ```
///
/// and gets `list`, `run`, `explain`, `compare`, `report`, `log` and `model`
/// as perf-run has them, on its scenarios and data sets. Exit codes
/// (``ExitStatus``) as `diff` uses them: 0 success, 1 a scenario failed or a
/// regression, 2 bad usage or input (with a one-line reason on standard
/// error), 129, 130 and 143 after a stop by SIGHUP, SIGINT or SIGTERM.
public enum PerfRunCommand {
    /// The scenarios the commands run (set by ``main(scenarios:experiments:)``).
    nonisolated(unsafe) static var catalog = ScenarioSet(scenarios: [])
    /// The command's name and version, in its help and its reports.
    nonisolated(unsafe) static var tool = ToolIdentity.perfRun

    /// Runs the command line on `scenarios` and exits.
    public static func main(scenarios: [Scenario], experiments: [ExperimentReference] = []) -> Never {
        main(ScenarioSet(scenarios: scenarios, experiments: experiments))
    }

    /// Runs the command line on an application's scenarios, as the
    /// application's own command: `tool` names it in `--help`, `--version`
    /// and the reports it writes (`blog-perf 1.4.0`, not `perf-run`).
    public static func main(scenarios: [Scenario], experiments: [ExperimentReference] = [], tool: ToolIdentity) -> Never {
        main(ScenarioSet(scenarios: scenarios, experiments: experiments), tool: tool)
    }

    /// Runs the command line on a set of scenarios and exits.
    public static func main(_ set: ScenarioSet) -> Never {
        main(set, tool: .perfRun)
    }

    /// Runs the command line on a set of scenarios, as `tool`, and exits.
    public static func main(_ set: ScenarioSet, tool: ToolIdentity) -> Never {
        catalog = set
        self.tool = tool
        // Before any work: a signal removes what the command made for a while.
        TerminationSignals.install()
        // One way out: a signal that ends the process wins over whatever
        // the command was about to say (its clean-up may have caused it).
        do {
            try checkCommandWords(Array(CommandLine.arguments.dropFirst()))
            var command = try PerfRun.parseAsRoot()
            try command.run()
        } catch {
            let (status, message) = ExitStatus.of(error)
            if status == .success {
                // Help and version, asked for: on standard output.
                do {
                    try StandardOutput.write(PerfRun.fullMessage(for: error) + "\n")
                } catch {
                    TerminationSignals.finish(.badInput) { Console.warn(error.description) }
                }
            }
            // A refused command leaves no directory it made for its outputs.
            if status == .badInput { OutputFile.removeCreatedEmptyDirectories() }
            TerminationSignals.finish(status) { if status != .success, let message { Console.warn(message) } }
        }
        TerminationSignals.finish(.success)
    }
}

extension PerfRunCommand {
    /// Refuses a command word that names no command (`perf-run rn`,
    /// `perf-run model imprt`), with the nearest commands' names; the
    /// parser's own error would only say that the word was not expected.
    static func checkCommandWords(_ arguments: [String]) throws(UsageError) {
        var command: any ParsableCommand.Type = PerfRun.self
        var path = tool.name
        for word in arguments {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, !word.hasPrefix("-"), word != "help" else { return }
            guard let next = subcommands.first(where: { $0._commandName == word }) else {
                let near = NameSuggestion.didYouMean(word, among: subcommands.map { $0._commandName })
                throw UsageError("unknown command \(path) \(word)\(near) (\(path) --help lists them)")
            }
            command = next
            path += " \(word)"
        }
    }
}

struct PerfRun: ParsableCommand {
    /// Read when the command line is parsed, after ``PerfRunCommand/main(_:tool:)``
    /// set the tool: an application's command has its own name and version.
    static var configuration: CommandConfiguration {
        let tool = PerfRunCommand.tool
        return CommandConfiguration(
            commandName: tool.name,
            abstract: tool == .perfRun
                ? "Runs Faultline's performance scenarios and reports what the persistence code did."
                : "Runs \(tool.name)'s performance scenarios with Faultline and reports what the persistence code did.",
            version: tool == .perfRun ? tool.version : "\(tool.version) (Faultline \(RunReport.toolVersion))",
            subcommands: [
                List.self, Run.self, Explain.self, Compare.self, ReportCommand.self, Log.self, ModelCommand.self, Publish.self, TrendCommand.self, History.self,
            ])
    }
}

extension PerfRun {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lists the scenarios and what each demonstrates.")

        @OptionGroup var outputOptions: OutputOptions

        func run() throws {
            let list = ScenarioList(PerfRunCommand.catalog.scenarios)
            let outputs = try outputOptions.outputs("list", formats: list.outputFormats, default: .text)
            try OutputPlan(inputs: [], outputs: outputs).writeAll(list)
        }
    }
}
