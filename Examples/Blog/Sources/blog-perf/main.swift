import BlogScenarios
import PerfRunCommand
import Scenarios

PerfRunCommand.main(scenarios: Scenario.blogScenarios, tool: ToolIdentity(name: "blog-perf", version: "1.0.0"))
