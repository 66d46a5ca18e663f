import Foundation
import ToolSupport

/// SIGINT (Ctrl-C), SIGTERM (`kill`, a CI job's time limit) and SIGHUP (the
/// terminal went away) as requests to stop: the first one calls `stop`
/// with a reason, and the run ends orderly, its report written, its
/// temporary files removed. The exit code is then the shell's for that
/// signal: 128 + its number (130, 143, 129). A second signal ends the
/// process at once (a report stuck on a FIFO that nobody reads, say), its
/// temporary files removed (``TerminationSignals``).
///
/// Given a runner's ``ScenarioRunner/Interruption``, it also knows when the
/// run stopped for a data set that could not be built, copied or verified:
/// the exit code is then 2, the one for bad input or an unusable
/// environment (the runner said the one line on its progress display).
public final class StopSignals: @unchecked Sendable {
    private let interruption: ScenarioRunner.Interruption?

    /// Starts handling the signals until ``cancel()``.
    public init(_ stop: @escaping @Sendable (String) -> Void) {
        interruption = nil
        TerminationSignals.beginOrderlyStop(stop)
    }

    /// Starts handling the signals until ``cancel()``: they stop the
    /// runner's run.
    public init(_ interruption: ScenarioRunner.Interruption) {
        self.interruption = interruption
        TerminationSignals.beginOrderlyStop { interruption($0) }
    }

    /// The exit code the run ends with for the first signal, if one came
    /// (130, 143, 129), or 2 when a data set failure stopped it.
    public var exitCode: Int32? {
        TerminationSignals.received?.rawValue ?? interruption?.failure.map { _ in ExitStatus.badInput.rawValue }
    }

    /// Stops asking for an orderly stop: a signal ends the process again.
    public func cancel() { TerminationSignals.endOrderlyStop() }
}
