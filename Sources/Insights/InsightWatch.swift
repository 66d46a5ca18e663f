@_spi(FastPath) import Probes
import Synchronization

/// The insight rules while an application runs: a sink that records what
/// the store does (a ``Recorder``, as `Faultline.measure` attaches one) and,
/// window by window, runs ``InsightEngine`` over it and tells its
/// observers of each insight to act on: an N+1, a query in a loop, a save
/// in a loop, a full scan, whatever the rules find in that window.
///
/// A window ends at the first context's outermost `perform` to return
/// after ``interval`` (the engine's flush), or at ``check()``; the
/// recorder is read and emptied at one moment, so no event is lost or
/// counted twice, and the rules run on the thread that ended it. A
/// pattern is seen when it happens within one window: a loop of lazy loads
/// that a window's end cuts in two counts in each half, and the rules'
/// thresholds (the watch's ``settings``) apply to each. Every insight of a
/// window is told, so one that persists is told again each window.
///
/// What it costs: the recorder's (docs/bridges.md measures it, about as
/// much as the metrics bridge), a clock read per outermost `perform`, and
/// the rules once per window.
///
/// ```swift
/// let logging = LoggingSink(logger: logger)
/// let metrics = MetricsSink()
/// let watch = InsightWatch(reportingTo: [logging, metrics])
/// configuration.sinks = [watch, logging, metrics]
/// ```
public final class InsightWatch: EventSink, @unchecked Sendable {
    /// Thresholds, accepted and intended insights, as for a run.
    public let settings: InsightSettings
    /// The shortest window.
    public let interval: Duration
    private let recorder: Recorder
    private let observers: [any InsightObserver]
    /// When the window began, in ``ProbeClock`` nanoseconds.
    private let windowStart: Atomic<UInt64>
    /// Whether a window is being closed: a second flush meanwhile goes on.
    private let closing = Atomic<Bool>(false)
    private let intervalNanoseconds: UInt64

    /// - Parameters:
    ///   - settings: the rules' thresholds and what is accepted or intended.
    ///   - interval: the shortest window (60 s by default: an N+1 of a
    ///     request shows within it, and a persistent one is told once a
    ///     minute).
    ///   - observers: who is told of each insight.
    public init(settings: InsightSettings = InsightSettings(), interval: Duration = .seconds(60), reportingTo observers: [any InsightObserver]) {
        self.settings = settings
        self.interval = interval
        self.observers = observers
        let (seconds, attoseconds) = interval.components
        intervalNanoseconds = UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
        // Bound values: the repeated-statement rule needs them.
        recorder = Recorder(bufferCapacity: 0, tracksArguments: true)
        windowStart = Atomic(ProbeClock.now())
    }

    /// Ends the window now: the insights it holds, told to the observers
    /// and returned (those to act on), and a new window begins.
    @discardableResult
    public func check() -> [Insight] {
        let snapshot = recorder.snapshotAndReset()
        windowStart.store(ProbeClock.now(), ordering: .relaxed)
        let found = InsightEngine(settings: settings).insights(snapshot.evidence).filter(\.isActionable)
        for insight in found {
            for observer in observers { observer.observe(insight) }
        }
        return found
    }

    /// Ends the window when it is at least ``interval`` long (a context's
    /// outermost `perform` returned).
    public func flush() {
        guard ProbeClock.nanoseconds(since: windowStart.load(ordering: .relaxed)) >= intervalNanoseconds else { return }
        guard closing.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return }
        defer { closing.store(false, ordering: .releasing) }
        // Another flush may have closed it meanwhile.
        guard ProbeClock.nanoseconds(since: windowStart.load(ordering: .relaxed)) >= intervalNanoseconds else { return }
        check()
    }

    // MARK: The recorder's

    public func isEnabled(_ kind: EventKind) -> Bool { recorder.isEnabled(kind) }
    public var details: EventDetails { recorder.details }
    @_spi(FastPath) public var possibleDetails: EventDetails { recorder.possibleDetails }
    public func receive(_ event: Event) { recorder.receive(event) }
    @_spi(FastPath) public func receive(fault: FaultEvent) { recorder.receive(fault: fault) }
    @_spi(FastPath) public func receiveFault(
        entity: String, primaryKey: Int64, context: String, source: FaultSource, durationNanoseconds: UInt64,
        callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        recorder.receiveFault(
            entity: entity, primaryKey: primaryKey, context: context, source: source, durationNanoseconds: durationNanoseconds,
            callSite: callSite, event: event)
    }
    @_spi(FastPath) public func receiveFault(
        entity: String, primaryKey: Int64, context: String, source: FaultSource, missReason: CacheMissReason?,
        durationNanoseconds: UInt64, origin: () -> FaultOrigin?, callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        recorder.receiveFault(
            entity: entity, primaryKey: primaryKey, context: context, source: source, missReason: missReason,
            durationNanoseconds: durationNanoseconds, origin: origin, callSite: callSite, event: event)
    }
    @_spi(FastPath) public var rowCacheFaultDelivery: RowCacheFaultDelivery { recorder.rowCacheFaultDelivery }
    @_spi(FastPath) public func countRowCacheFaults(from tally: RowCacheFaultTally) { recorder.countRowCacheFaults(from: tally) }
    @_spi(FastPath) public func receiveRowCacheFault(
        entity: String, primaryKey: Int64, context: String, durationNanoseconds: UInt64, tally: RowCacheFaultTally,
        callSite: () -> CallSite, event: () -> FaultEvent
    ) {
        recorder.receiveRowCacheFault(
            entity: entity, primaryKey: primaryKey, context: context, durationNanoseconds: durationNanoseconds, tally: tally,
            callSite: callSite, event: event)
    }
    @_spi(FastPath) public func receiveStatement(_ parts: StatementParts, texts: () -> StatementTexts, event: () -> SQLEvent) {
        recorder.receiveStatement(parts, texts: texts, event: event)
    }
    @_spi(FastPath) public func receive(sql: SQLEvent) { recorder.receive(sql: sql) }
    @_spi(FastPath) public func receive(context: ContextEvent) { recorder.receive(context: context) }
}

@_spi(FastPath) extension InsightWatch: FastPathEventSink {}
