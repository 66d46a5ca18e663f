import Probes
import Synchronization

/// The one place the engine emits events (docs/tracepoints.md lists them).
///
/// Every call site asks ``isOn(_:)`` before it builds anything: with no sink
/// that is one branch, and with `FAULTLINE_NO_INSTRUMENTATION=1` at build
/// time it is compiled out. It also keeps the count of objects registered in
/// all contexts of the store, and the peak.
///
/// The LTTng sink is kept apart from the others: faults, cache misses,
/// statements and context changes, most of a busy program's events, reach
/// its tracepoints as their fields (``fault(_:start:context:id:source:callSite:values:)``,
/// ``cacheMiss(_:reason:)``, ``statementHook(user:)``,
/// ``contextChanged(_:kind:)``), without an event value, which would cost
/// more than the tracepoint itself. The other sinks get events.
public final class Instrumentation: Sendable {
    /// The LTTng sink, when one is configured.
    let lttng: LTTngSink?
    /// The other sinks, combined; nil when there are none.
    let sink: (any EventSink)?
    private let registered = Atomic<Int>(0)
    private let peak = Atomic<Int>(0)

    public init(sinks: [any EventSink]) {
        lttng = sinks.lazy.compactMap { $0 as? LTTngSink }.first
        let others = sinks.filter { !($0 is LTTngSink) }
        switch others.count {
        case 0: sink = nil
        case 1: sink = others[0]
        default: sink = MultiplexSink(others)
        }
    }

    /// Whether some sink wants events of `kind` now.
    @inline(__always)
    public func isOn(_ kind: EventKind) -> Bool {
        !audience(kind).isEmpty
    }

    /// The optional parts of events the sinks other than LTTng want now
    /// (LTTng's tracepoints take what they need).
    var details: EventDetails { sink?.details ?? [] }

    /// Sends `event` to every sink that wants its kind now.
    public func emit(_ event: Event) {
        let kind = event.kind
        if let lttng, lttng.isEnabled(kind) { lttng.receive(event) }
        if let sink, sink.isEnabled(kind) { sink.receive(event) }
    }

    /// Which sinks want events of one kind now: asked once per event, by the
    /// hot paths that then pass it on.
    struct Audience {
        let lttng: Bool
        let others: Bool
        var isEmpty: Bool { !lttng && !others }
    }

    /// The sinks that want events of `kind` now.
    @inline(__always)
    func audience(_ kind: EventKind) -> Audience {
        #if FAULTLINE_NO_INSTRUMENTATION
        return Audience(lttng: false, others: false)
        #else
        return Audience(lttng: lttng?.isEnabled(kind) == true, others: sink?.isEnabled(kind) == true)
        #endif
    }

    /// The row cache could not serve a fault (`reason`: `absent`, `stale`).
    @inline(__always)
    func cacheMiss(_ id: ObjectID, reason: @autoclosure () -> String) {
        let audience = audience(.cacheMiss)
        guard !audience.isEmpty else { return }
        if audience.lttng, let lttng {
            lttng.traceCacheMiss(entity: id.entityName, primaryKey: id.primaryKey, reason: reason())
        }
        if audience.others, let sink {
            sink.receive(.cacheMiss(CacheMissEvent(
                start: ProbeClock.now(), thread: ProbeClock.threadID(), entity: id.entityName, primaryKey: id.primaryKey,
                reason: reason())))
        }
    }

    /// A fault fired, from `start` until now, for `audience`
    /// (``audience(_:)`` of `.fault`, asked when the fault began). `values`
    /// describes the loaded values, for sinks that want them (level 3 logs).
    @inline(__always)
    func fault(
        _ audience: Audience, start: UInt64, context: String, id: ObjectID, source: FaultSource, callSite: CallSite,
        values: () -> String
    ) {
        let duration = ProbeClock.now() &- start
        if audience.lttng, let lttng {
            lttng.traceFault(
                context: context, entity: id.entityName, primaryKey: id.primaryKey, source: source,
                durationNanoseconds: duration, callSite: callSite)
        }
        if audience.others, let sink {
            sink.receive(.fault(FaultEvent(
                start: start, durationNanoseconds: duration, thread: ProbeClock.threadID(), context: context,
                entity: id.entityName, primaryKey: id.primaryKey, source: source, callSite: callSite,
                values: sink.details.contains(.objectValues) ? values() : nil)))
        }
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
        #if !FAULTLINE_NO_INSTRUMENTATION
        if let lttng, lttng.isEnabled(.context) {
            lttng.traceContextChange(
                context: context, kind: kind, objectsRegistered: objectsRegistered,
                objectsRegisteredPeak: objectsRegisteredPeak, detail: "")
        }
        // One refresh per object refreshed: only for sinks that ask.
        if let sink, sink.isEnabled(.context), kind != "refresh" || sink.details.contains(.contextChanges) {
            sink.receive(.context(ContextEvent(
                start: ProbeClock.now(), thread: ProbeClock.threadID(), context: context, kind: kind,
                objectsRegistered: objectsRegistered, objectsRegisteredPeak: objectsRegisteredPeak)))
        }
        #endif
    }

    /// The sinks a program gets from its environment:
    /// `FAULTLINE_SQL_DEBUG=1…4` (and `FAULTLINE_SQL_LOG=path`) adds the SQL
    /// debug log.
    public static func environmentSinks() -> [any EventSink] {
        SQLDebugLogSink.fromEnvironment().map { [$0] } ?? []
    }
}
