import Foundation
import ObjectGraph
import Reporting

/// Putting a run's scenario reports into a report.
public enum RunReport {
    public static let toolVersion = "0.1.0"

    /// - Parameter experiments: the published experiments to judge against the scenarios that ran.
    public static func make(
        _ scenarios: [ScenarioReport], options: RunOptions, commandLine: [String],
        experiments: [ExperimentReference] = []
    ) -> Report {
        Report(
            tool: Report.Tool(name: "perf-run", version: toolVersion, commandLine: commandLine),
            environment: RunEnvironment.current(),
            configuration: Report.Configuration(
                scale: options.scale, seed: options.seed, iterations: options.iterations, warmup: options.warmup,
                store: options.store.rawValue, timeoutSeconds: options.timeoutSeconds,
                insightThresholds: options.insights.thresholds.isEmpty
                    ? nil : Dictionary(uniqueKeysWithValues: options.insights.thresholds.map { ($0.key.rawValue, $0.value) }),
                whatIf: options.measuresFixes ? true : nil),
            scenarios: scenarios,
            experiments: ExperimentAnalysis.analyze(experiments, scenarios: scenarios))
    }
}
