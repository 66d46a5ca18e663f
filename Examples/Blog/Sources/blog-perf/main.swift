import BlogScenarios
import PerfRunCommand
import Scenarios

PerfRunCommand.main(scenarios: Scenario.blogScenarios)
