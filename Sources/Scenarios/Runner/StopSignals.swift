import Foundation
import Reporting

/// SIGINT (Ctrl-C), SIGTERM (`kill`, a CI job's time limit) and SIGHUP (the
/// terminal went away) as requests to stop: the first one calls `stop`
/// with a reason, and the run ends orderly, its report written, its
/// temporary files removed. The exit code is then the shell's for that
/// signal: 128 + its number (130, 143, 129). A second signal ends the
/// process at once (a report stuck on a FIFO that nobody reads, say), its
/// temporary files removed (``TerminationSignals``).
public final class StopSignals: @unchecked Sendable {
    /// Starts handling the signals until ``cancel()``.
    public init(_ stop: @escaping @Sendable (String) -> Void) {
        TerminationSignals.beginOrderlyStop(stop)
    }

    /// The exit code the run ends with for the first signal, if one came.
    public var exitCode: Int32? { TerminationSignals.received?.rawValue }

    /// Stops asking for an orderly stop: a signal ends the process again.
    public func cancel() { TerminationSignals.endOrderlyStop() }
}
