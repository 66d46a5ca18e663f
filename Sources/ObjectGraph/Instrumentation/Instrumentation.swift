import Probes
import Synchronization

/// The one place the engine emits events (docs/tracepoints.md lists them).
///
/// Every call site asks ``isOn(_:)`` before it builds anything: with no sink
/// that is one branch, and with `FAULTLINE_NO_INSTRUMENTATION=1` at build
/// time it is compiled out. It also keeps the count of objects registered in
/// all contexts of the store, and the peak.
public final class Instrumentation: Sendable {
    /// The sinks, combined; nil when there are none.
    public let sink: (any EventSink)?
    private let registered = Atomic<Int>(0)
    private let peak = Atomic<Int>(0)

    public init(sinks: [any EventSink]) {
        switch sinks.count {
        case 0: sink = nil
        case 1: sink = sinks[0]
        default: sink = MultiplexSink(sinks)
        }
    }

    /// Whether some sink wants events of `kind` now.
    @inline(__always)
    public func isOn(_ kind: EventKind) -> Bool {
        #if FAULTLINE_NO_INSTRUMENTATION
        return false
        #else
        guard let sink else { return false }
        return sink.isEnabled(kind)
        #endif
    }

    /// The optional parts of events wanted now.
    var details: EventDetails { sink?.details ?? [] }

    @inline(__always)
    func emit(_ event: Event) {
        sink?.receive(event)
    }

    // MARK: Registered objects

    /// Objects registered in all contexts of the store now.
    public var objectsRegistered: Int { registered.load(ordering: .relaxed) }
    /// The most objects registered at once since the last ``resetPeak()``.
    public var objectsRegisteredPeak: Int { peak.load(ordering: .relaxed) }

    /// Starts a new peak from the current count.
    public func resetPeak() {
        peak.store(registered.load(ordering: .relaxed), ordering: .relaxed)
    }

    @inline(__always)
    func didRegister() {
        let now = registered.wrappingAdd(1, ordering: .relaxed).newValue
        var current = peak.load(ordering: .relaxed)
        while now > current {
            let (exchanged, original) = peak.compareExchange(expected: current, desired: now, ordering: .relaxed)
            if exchanged { break }
            current = original
        }
    }

    @inline(__always)
    func didUnregister(_ count: Int = 1) {
        registered.wrappingSubtract(count, ordering: .relaxed)
    }

    /// Emits a `context` event with the registration counts.
    func contextChanged(_ context: String, kind: String) {
        guard isOn(.context) else { return }
        emit(.context(ContextEvent(
            start: ProbeClock.now(), thread: ProbeClock.threadID(), context: context, kind: kind,
            objectsRegistered: objectsRegistered, objectsRegisteredPeak: objectsRegisteredPeak)))
    }

    /// The sinks a program gets from its environment:
    /// `FAULTLINE_SQL_DEBUG=1…4` (and `FAULTLINE_SQL_LOG=path`) adds the SQL
    /// debug log.
    public static func environmentSinks() -> [any EventSink] {
        SQLDebugLogSink.fromEnvironment().map { [$0] } ?? []
    }
}
