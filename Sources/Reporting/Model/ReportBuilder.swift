/// The one place a run's report is made: from what the runner measured (the
/// scenarios' reports), the run's configuration, the machine and the tool.
/// Pure: the same inputs give the same report, so a report can be made
/// again from them in a test.
public enum ReportBuilder {
    public static func build(
        scenarios: [ScenarioReport], configuration: Report.Configuration, environment: Report.Environment, tool: Report.Tool,
        experiments: [ExperimentReference] = []
    ) -> Report {
        Report(
            tool: tool, environment: environment, configuration: configuration, scenarios: scenarios,
            experiments: ExperimentAnalysis.analyze(experiments, scenarios: scenarios))
    }
}
