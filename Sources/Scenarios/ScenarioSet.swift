import Reporting

/// The scenarios a perf-run command runs, and the published experiments
/// they repeat: Faultline's built-in ones (`ScenarioSet.builtIn` in
/// BuiltInScenarios), or an application's own
/// (`PerfRunCommand.main(scenarios:experiments:)`).
public struct ScenarioSet: Sendable {
    public var scenarios: [Scenario]
    public var experiments: [ExperimentReference]

    public init(scenarios: [Scenario], experiments: [ExperimentReference] = []) {
        self.scenarios = scenarios
        self.experiments = experiments
    }

    /// The scenario with this name (case-insensitive).
    public func named(_ name: String) -> Scenario? {
        scenarios.first { $0.name.lowercased() == name.lowercased() }
    }

    /// The data sets the scenarios run on, each once, in order.
    public var dataSets: [DataSetKind] {
        var seen = Set<String>()
        return scenarios.map(\.dataSet).filter { seen.insert($0.name).inserted }
    }
}
