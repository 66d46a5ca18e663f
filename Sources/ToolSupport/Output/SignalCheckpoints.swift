import Foundation

/// Named points of a command where a test can have a signal arrive,
/// deterministically: `FAULTLINE_SIGNAL_AT=NAME:SIGNAL` (SIGNAL is `INT`,
/// `TERM`, `HUP` or a number) makes the process send itself SIGNAL the
/// first time it reaches ``TerminationSignals/checkpoint(_:)`` named NAME,
/// and wait there until the signal's handler has done its work (asked for
/// an orderly stop, or run the clean-up that ends the process). A handler
/// that ends the process then waits (2 s at most) for the command to reach
/// ``TerminationSignals/finish(_:report:)``, so the race the clean-up makes
/// with the command's next step is played out the same way every time.
///
/// Without the variable, a checkpoint costs one load of a constant.
///
/// The checkpoints: `explain.scratch-store` (explain's scratch store is
/// registered, its directory made, nothing in it yet),
/// `output.temporary-file` (an output's temporary file is open, before its
/// rename), `dataset.building` (a data set's first rows are written),
/// `run.scenario` (a scenario's first measured iteration starts).
enum SignalCheckpoints {
    /// The checkpoint named by the environment, and the signal it sends.
    struct Plan: Equatable {
        let checkpoint: String
        let signal: Int32

        /// Reads `NAME:SIGNAL`; nil when absent or not of that form.
        init?(_ text: String?) {
            guard let text, let colon = text.lastIndex(of: ":") else { return nil }
            let name = String(text[..<colon])
            let signalText = text[text.index(after: colon)...].uppercased()
            let byName: [String: Int32] = ["INT": SIGINT, "TERM": SIGTERM, "HUP": SIGHUP]
            guard !name.isEmpty, let signal = byName[signalText.hasPrefix("SIG") ? String(signalText.dropFirst(3)) : signalText] ?? Int32(signalText)
            else { return nil }
            checkpoint = name
            self.signal = signal
        }
    }

    static let environmentVariable = "FAULTLINE_SIGNAL_AT"
    static let plan = Plan(ProcessInfo.processInfo.environment[environmentVariable])

    private final class Progress: @unchecked Sendable {
        let lock = NSLock()
        var fired = false
        let handled = DispatchSemaphore(value: 0)
        let parked = DispatchSemaphore(value: 0)
    }

    private static let progress = Progress()

    static func reach(_ name: StaticString) {
        guard let plan, plan.checkpoint == name.description else { return }
        progress.lock.lock()
        let first = !progress.fired
        progress.fired = true
        progress.lock.unlock()
        guard first else { return }
        kill(getpid(), plan.signal)
        _ = progress.handled.wait(timeout: .now() + 10)
    }

    private static var fired: Bool {
        guard plan != nil else { return false }
        progress.lock.lock()
        defer { progress.lock.unlock() }
        return progress.fired
    }

    /// The handler has asked for an orderly stop or run its clean-up.
    static func signalHandled() {
        if fired { progress.handled.signal() }
    }

    /// The command reached its end and leaves it to the signal.
    static func commandParked() {
        if fired { progress.parked.signal() }
    }

    /// Before the handler ends the process: the command's next step runs
    /// first, up to its end.
    static func waitForTheCommand() {
        if fired { _ = progress.parked.wait(timeout: .now() + 2) }
    }
}
