import BuiltInScenarios
import PerfRunCommand
import Scenarios

// perf-run: the command on Faultline's built-in scenarios.
PerfRunCommand.main(.builtIn)
