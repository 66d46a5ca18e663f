import CoreMetrics
import FaultlineLogging
import FaultlineMetrics
import FaultlineTracing
import Logging
import Probes
import Synchronization
import Tracing

/// The server bridges with the cheapest back ends that still take what
/// they are given, so that `make bench-probes` measures what a bridge adds
/// (its lookups, and the records, metric updates and spans it makes) and
/// not a back end's formatting, export or network: a log handler that
/// drops each record, metrics that are atomic additions, a tracer whose
/// spans keep their attributes and are dropped at their end.
enum BridgeBackends {
    /// The logging bridge at SQL debug level 1 on a logger at `level`:
    /// `debug` builds a record per statement, fetch and fault from the
    /// database; `info` builds none.
    static func logging(_ level: Logger.Level) -> LoggingSink {
        var logger = Logger(label: "faultline-bench") { _ in DroppingLogHandler() }
        logger.logLevel = level
        return LoggingSink(logger: logger, sqlDebugLevel: 1)
    }

    static func metrics() -> (MetricsSink, AtomicMetrics) {
        let factory = AtomicMetrics()
        return (MetricsSink(factory: factory), factory)
    }

    static func tracing() -> (TracingSink, KeepingTracer) {
        let tracer = KeepingTracer()
        return (TracingSink(tracer: tracer), tracer)
    }
}

/// Takes every record at or above its level, and drops it.
struct DroppingLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {}
}

/// Metrics as atomic additions: what a counter of an in-process back end
/// (Prometheus's) costs at least.
final class AtomicMetrics: MetricsFactory {
    final class Handler: CounterHandler, TimerHandler, RecorderHandler {
        let total = Atomic<Int64>(0)
        let count = Atomic<Int64>(0)
        func increment(by amount: Int64) { total.wrappingAdd(amount, ordering: .relaxed) }
        func reset() { total.store(0, ordering: .relaxed) }
        func recordNanoseconds(_ duration: Int64) {
            count.wrappingAdd(1, ordering: .relaxed)
            total.wrappingAdd(duration, ordering: .relaxed)
        }
        func record(_ value: Int64) { recordNanoseconds(value) }
        func record(_ value: Double) { recordNanoseconds(Int64(value)) }
    }

    private let made = Atomic<Int>(0)
    /// Metric objects made so far.
    var metricsMade: Int { made.load(ordering: .relaxed) }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler { make() }
    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler { make() }
    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler { make() }
    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}

    private func make() -> Handler {
        made.wrappingAdd(1, ordering: .relaxed)
        return Handler()
    }
}

/// A tracer whose spans keep their name, attributes and instants until they
/// end, and are then counted and dropped: what any tracer does at least.
final class KeepingTracer: Tracer {
    private let ended = Atomic<Int>(0)
    /// Spans ended so far.
    var spansEnded: Int { ended.load(ordering: .relaxed) }

    func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> KeptSpan {
        KeptSpan(operationName: operationName, context: context(), start: instant().nanosecondsSinceEpoch) { [self] in
            ended.wrappingAdd(1, ordering: .relaxed)
        }
    }

    func forceFlush() {}
    func inject<Carrier, Inject: Injector>(_ context: ServiceContext, into carrier: inout Carrier, using injector: Inject)
    where Inject.Carrier == Carrier {}
    func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract)
    where Extract.Carrier == Carrier {}

    final class KeptSpan: Tracing.Span, @unchecked Sendable {
        let context: ServiceContext
        let start: UInt64
        private let lock = PlainLock()
        private var name: String
        private var kept = SpanAttributes()
        private let onEnd: @Sendable () -> Void

        init(operationName: String, context: ServiceContext, start: UInt64, onEnd: @escaping @Sendable () -> Void) {
            self.name = operationName
            self.context = context
            self.start = start
            self.onEnd = onEnd
        }

        var operationName: String {
            get { lock.withLock { name } }
            set { lock.withLock { name = newValue } }
        }
        var attributes: SpanAttributes {
            get { lock.withLock { kept } }
            set { lock.withLock { kept = newValue } }
        }
        var isRecording: Bool { true }
        func setStatus(_ status: SpanStatus) {}
        func addEvent(_ event: SpanEvent) {}
        func addLink(_ link: SpanLink) {}
        func recordError<Instant: TracerInstant>(_ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant) {}
        func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
            _ = instant()
            onEnd()
        }
    }
}
