/// How a `perf-run` command ends, as `diff` and the shell use exit codes.
/// One table for every command: ``ExitStatus/init(for:)`` in
/// PerfRunCommand maps an error to one of these, and nothing else does.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Done, and nothing to report as a failure.
    case success = 0
    /// Done, and something failed: a scenario (run), a regression or a new
    /// insight (compare), nothing of a model usable (model import).
    case failure = 1
    /// Bad usage or bad input, or an output that cannot be written: one
    /// line on standard error says what and where.
    case badInput = 2
    /// Ended by SIGHUP (the terminal went away), after an orderly stop.
    case hangup = 129
    /// Ended by SIGINT (Ctrl-C), after an orderly stop.
    case interrupted = 130
    /// Ended by SIGTERM (`kill`, a CI job's time limit), after an orderly stop.
    case terminated = 143

    /// The status for a stop by `signal` (128 + its number, as the shell
    /// has it), nil for a signal that does not stop a command.
    public init?(signal: Int32) {
        self.init(rawValue: 128 + signal)
        if self == .success || self == .failure || self == .badInput { return nil }
    }
}
