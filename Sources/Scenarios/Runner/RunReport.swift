import Foundation
import ObjectGraph
import Reporting

/// Putting a run's scenario reports into a report (``ReportBuilder``).
public enum RunReport {
    public static let toolVersion = "0.2.0"

    /// - Parameter experiments: the published experiments to judge against the scenarios that ran.
    /// - Parameter tool: the command that ran them (an application's own, or perf-run).
    /// - Parameter commit: the commit the report is labelled with (`run
    ///   --commit`); nil takes `FAULTLINE_GIT_COMMIT`, else `git rev-parse
    ///   HEAD` in the current directory.
    ///
    /// The report is stamped with a new run identifier and the time
    /// (``Report/RunStamp``): the history keeps it by that identifier.
    public static func make(
        _ scenarios: [ScenarioReport], options: RunOptions, commandLine: [String],
        experiments: [ExperimentReference] = [], tool: ToolIdentity = .perfRun, commit: String? = nil
    ) -> Report {
        var report = ReportBuilder.build(
            scenarios: scenarios, configuration: options.recordedConfiguration, environment: RunEnvironment.current(commit: commit),
            tool: Report.Tool(name: tool.name, version: tool.version, commandLine: commandLine), experiments: experiments)
        report.run = .now()
        return report
    }
}

extension RunOptions {
    @available(*, deprecated, renamed: "configuration", message: "the report stores the run's configuration as it is")
    public var reportConfiguration: Report.Configuration { recordedConfiguration }
}
