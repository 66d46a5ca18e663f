import Foundation
import ObjectGraph
import Reporting

/// Putting a run's scenario reports into a report (``ReportBuilder``).
public enum RunReport {
    public static let toolVersion = "0.2.0"

    /// - Parameter experiments: the published experiments to judge against the scenarios that ran.
    /// - Parameter tool: the command that ran them (an application's own, or perf-run).
    public static func make(
        _ scenarios: [ScenarioReport], options: RunOptions, commandLine: [String],
        experiments: [ExperimentReference] = [], tool: ToolIdentity = .perfRun
    ) -> Report {
        ReportBuilder.build(
            scenarios: scenarios, configuration: options.reportConfiguration, environment: RunEnvironment.current(),
            tool: Report.Tool(name: tool.name, version: tool.version, commandLine: commandLine), experiments: experiments)
    }
}

extension RunOptions {
    /// The options as the report records them: every option that changes
    /// what a run measures.
    public var reportConfiguration: Report.Configuration {
        Report.Configuration(
            scale: scale, seed: seed, iterations: iterations, warmup: warmup, store: store.rawValue, timeoutSeconds: timeoutSeconds,
            insightThresholds: insights.thresholds.isEmpty
                ? nil : Dictionary(uniqueKeysWithValues: insights.thresholds.map { ($0.key.rawValue, $0.value) }),
            whatIf: measuresFixes ? true : nil)
    }
}
