import Foundation

/// Watches, while a run records into an `lttng-relayd`, that the relay
/// still accepts connections on its control port.
///
/// A relay that goes away leaves the session's buffers full: each event
/// then waits for room (``LTTngRecording/Limits/relayBlocking``) before it
/// is discarded, and the run would crawl. After ``failuresToLose``
/// refusals in a row, a second apart, the watch calls its `onLoss` (which
/// stops the session: the tracepoints are then off, and the run goes on
/// untraced) and ends; ``stop()`` says what was lost.
final class LTTngRelayWatch: @unchecked Sendable {
    /// Refusals in a row that mean the relay is gone.
    static let failuresToLose = 3
    /// Between two checks, in seconds.
    static let interval = 1.0
    /// One check's connection, in seconds.
    static let connectLimit = 2.0

    private let relay: LTTngRelay
    private let onLoss: @Sendable () -> Void
    private let condition = NSCondition()
    /// Under `condition`.
    private var stopping = false
    private var ended = false
    private var loss: String?

    /// Starts watching `relay` on a thread of its own.
    init(relay: LTTngRelay, onLoss: @escaping @Sendable () -> Void) {
        self.relay = relay
        self.onLoss = onLoss
        let thread = Thread { [self] in watch() }
        thread.name = "faultline-relay-watch"
        thread.start()
    }

    /// Stops watching (waiting for a check under way, each bounded) and
    /// returns why the relay was lost, if it was: `HOST:PORT: reason`.
    func stop() -> String? {
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        condition.broadcast()
        while !ended { condition.wait() }
        return loss
    }

    private func watch() {
        var failures = 0
        defer {
            condition.lock()
            ended = true
            condition.broadcast()
            condition.unlock()
        }
        while true {
            condition.lock()
            let deadline = Date().addingTimeInterval(Self.interval)
            while !stopping, condition.wait(until: deadline) {}
            let stop = stopping
            condition.unlock()
            if stop { return }
            guard let reason = TCPReachability.refusal(host: relay.host, port: relay.controlPort, within: Self.connectLimit) else {
                failures = 0
                continue
            }
            failures += 1
            if failures >= Self.failuresToLose {
                condition.lock()
                loss = "\(relay.host):\(relay.controlPort): \(reason)"
                condition.unlock()
                onLoss()
                return
            }
        }
    }
}
