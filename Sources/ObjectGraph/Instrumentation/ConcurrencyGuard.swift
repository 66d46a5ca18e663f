import Foundation
import Probes

/// Core Data's concurrency debug flag for Faultline: with
/// `FAULTLINE_CONCURRENCY_DEBUG=1`, touching a context or one of its objects
/// outside that context's `perform` stops the program with a message
/// naming the context, the object, the key and the thread. Off by default;
/// when off, a check is one load of a constant and a branch.
enum ConcurrencyGuard {
    static let isOn: Bool = ProcessInfo.processInfo.environment["FAULTLINE_CONCURRENCY_DEBUG"] == "1"

    /// Stops the program if the flag is on and the caller is off the
    /// context's queue. The flag is read from the context (copied at its
    /// creation): reading the static here would cost a `swift_once` call on
    /// every property read.
    @inline(__always)
    static func check(_ context: ObjectContext, _ operation: @autoclosure () -> String) {
        guard context.checksConcurrency else { return }
        guard !context.isOnQueue else { return }
        violation(context, operation())
    }

    private static func violation(_ context: ObjectContext, _ operation: String) -> Never {
        fatalError("Faultline concurrency violation: \(operation) of context \(context.name) on thread \(threadName()) "
            + "(thread ID \(ProbeClock.threadID())), outside the context's perform")
    }

    private static func threadName() -> String {
        if Thread.isMainThread { return "main" }
        let name = ProbeClock.threadName()
        return name.isEmpty ? "unnamed" : name
    }
}
