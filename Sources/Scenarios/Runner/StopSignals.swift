import Foundation

/// SIGINT (Ctrl-C) and SIGTERM (`kill`, a CI job's time limit) as requests
/// to stop: the first one calls `stop` with a reason, and the run ends
/// orderly, its report written, its temporary files removed. The exit code
/// is then the shell's for that signal: 128 + its number (130, 143). A
/// second signal ends the process at once (a report stuck on a FIFO that
/// nobody reads, say).
public final class StopSignals: @unchecked Sendable {
    private let lock = NSLock()
    private var received: Int32?
    private var sources: [DispatchSourceSignal] = []

    /// Starts handling both signals until ``cancel()``.
    public init(_ stop: @escaping @Sendable (String) -> Void) {
        for (number, reason) in [(SIGINT, "interrupted (Ctrl-C)"), (SIGTERM, "terminated (SIGTERM)")] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                lock.lock()
                let again = received != nil
                received = received ?? number
                lock.unlock()
                if again { _exit(128 + number) }
                stop(reason)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// The exit code the run ends with for the first signal, if one came.
    public var exitCode: Int32? {
        lock.lock()
        defer { lock.unlock() }
        return received.map { 128 + $0 }
    }

    /// Stops handling the signals: they act as by default again.
    public func cancel() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
