import Foundation

/// SIGINT, SIGTERM and SIGHUP for a whole `perf-run` process, handled in
/// one place so that no command leaves its temporary files behind.
///
/// By default a signal runs the clean-up actions registered with
/// ``onTermination(_:)`` (newest first), removes the ``TemporaryFiles`` and
/// ends the process with the shell's status for it (130, 143, 129). A long
/// command (`run`) asks for an orderly stop instead
/// (``beginOrderlyStop(_:)``): the first signal calls its `stop`, the
/// command writes what it has and ends with that status; a second signal
/// ends the process at once, its clean-up actions run and its temporary
/// files removed.
///
/// The process ends in one place or the other, never both: a command ends
/// through ``finish(_:report:)``, and once a signal that ends the process
/// has arrived, the signal wins (its clean-up may have removed what the
/// command was using, and the error that follows is not the command's to
/// report). Named ``checkpoint(_:)``s let a test send a signal at a racy
/// point instead of guessing the moment with sleeps.
public enum TerminationSignals {
    /// The signals handled, with the words a stop gives as its reason.
    public static let handled: [(number: Int32, reason: String)] = [
        (SIGINT, "interrupted (Ctrl-C)"), (SIGTERM, "terminated (SIGTERM)"), (SIGHUP, "hung up (SIGHUP)"),
    ]

    private final class State: @unchecked Sendable {
        let lock = NSLock()
        var sources: [DispatchSourceSignal] = []
        var stop: (@Sendable (String) -> Void)?
        var received: Int32?
        var actions: [Int: @Sendable () -> Void] = [:]
        var nextAction = 0
        /// The signal ending the process, from the moment its handler
        /// decided so (its clean-up may be under way).
        var ending: Int32?
        /// The command chose how it ends (``finish(_:report:)``).
        var finishing = false
    }

    private static let state = State()
    private static let queue = DispatchQueue(label: "faultline.termination-signals")

    /// Handles the signals from now on (again a no-op). Call it first
    /// thing: a signal before it ends the process the system's way.
    public static func install() {
        state.lock.lock()
        defer { state.lock.unlock() }
        guard state.sources.isEmpty else { return }
        for (number, reason) in handled {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { receive(number, reason: reason) }
            source.resume()
            state.sources.append(source)
        }
    }

    /// From now until ``endOrderlyStop()``, the first signal calls `stop`
    /// with its reason instead of ending the process.
    public static func beginOrderlyStop(_ stop: @escaping @Sendable (String) -> Void) {
        install()
        state.lock.lock()
        state.stop = stop
        state.received = nil
        state.lock.unlock()
    }

    /// Signals end the process again (removing the temporary files).
    public static func endOrderlyStop() {
        state.lock.lock()
        state.stop = nil
        state.lock.unlock()
    }

    /// The first signal received since the last ``beginOrderlyStop(_:)``.
    public static var received: ExitStatus? {
        state.lock.lock()
        defer { state.lock.unlock() }
        return state.received.flatMap { ExitStatus(signal: $0) }
    }

    /// A clean-up action registered with ``onTermination(_:)``, until
    /// ``remove()``.
    public struct Registration: Sendable {
        let key: Int

        /// Forgets the action: a signal no longer runs it (its owner has
        /// cleaned up, or will).
        public func remove() {
            state.lock.lock()
            state.actions[key] = nil
            state.lock.unlock()
        }
    }

    /// Registers `action` to run when a signal ends the process (not when
    /// the signal only asks for an orderly stop), until the registration's
    /// ``Registration/remove()``: for what a command started outside the
    /// process and must stop, such as another process or a tracing session.
    ///
    /// The actions run once, newest first, on the signals' queue, while any
    /// other thread goes on; then the temporary files are removed and the
    /// process exits. An action must end in bounded time (a command it runs
    /// needs a time limit): the process waits for it, and further signals
    /// wait too.
    public static func onTermination(_ action: @escaping @Sendable () -> Void) -> Registration {
        install()
        state.lock.lock()
        defer { state.lock.unlock() }
        state.nextAction += 1
        state.actions[state.nextAction] = action
        return Registration(key: state.nextAction)
    }

    /// Ends the process with `status` after `report` (the command's last
    /// words on standard error or output), unless a signal is ending it:
    /// then neither happens, and the signal's handler ends the process with
    /// the signal's status once its clean-up is done. A signal that arrives
    /// after this call leaves the ending to it (for 5 seconds at most).
    public static func finish(_ status: ExitStatus, report: () -> Void = {}) -> Never {
        state.lock.lock()
        if state.ending != nil {
            state.lock.unlock()
            SignalCheckpoints.commandParked()
            while true { pause() }
        }
        state.finishing = true
        state.lock.unlock()
        report()
        exit(status.rawValue)
    }

    /// A point where a test may send this process a signal
    /// (``SignalCheckpoints``): a no-op unless the environment names it.
    public static func checkpoint(_ name: StaticString) {
        SignalCheckpoints.reach(name)
    }

    private static func receive(_ number: Int32, reason: String) {
        state.lock.lock()
        let stop = state.received == nil ? state.stop : nil
        if state.received == nil { state.received = number }
        let finishing = state.finishing
        if stop == nil && !finishing { state.ending = number }
        state.lock.unlock()
        if let stop {
            stop(reason)
            SignalCheckpoints.signalHandled()
            return
        }
        if finishing {
            // The command is ending the process already, with what it has
            // to say; a signal arriving meanwhile does not cut it short
            // unless the ending hangs.
            Thread.sleep(forTimeInterval: 5)
        }
        runActions()
        TemporaryFiles.removeAll()
        SignalCheckpoints.signalHandled()
        SignalCheckpoints.waitForTheCommand()
        _exit(128 + number)
    }

    /// Runs the registered clean-up actions, newest first, and forgets them.
    private static func runActions() {
        state.lock.lock()
        let actions = state.actions.sorted { $0.key > $1.key }.map(\.value)
        state.actions = [:]
        state.lock.unlock()
        for action in actions { action() }
    }
}
