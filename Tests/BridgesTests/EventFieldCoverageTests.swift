import EventSamples
import FaultlineLogging
import FaultlineMetrics
import FaultlineTracing
import Foundation
import InMemoryLogging
import InMemoryTracing
import Logging
import MetricsTestKit
@_spi(FastPath) import Probes
import Synchronization
import Testing
import Tracing

/// Every field of every event is written by every sink that writes events
/// out, or listed by it as left out (its `fieldsLeftOut`, with the reason).
///
/// The walk: for each kind, a sample event, and for each of its fields (as
/// the type's own reflection lists them, so a new field is walked too) the
/// sample with that field changed. A sink writes the field when its output
/// for the two differs; one whose output is the same must list the field,
/// and one that lists a field it writes fails too (the list stays true).
@Suite struct EventFieldCoverageTests {
    /// A writer under test: its name, what it leaves out, and its output
    /// for one event (deterministic: no times of its own, no random IDs).
    struct Writer: Sendable {
        let name: String
        let leftOut: [EventField: String]
        /// Whether it takes events of a kind at all (one it never takes
        /// leaves out every field, and says so by ``EventSink/isEnabled(_:)``).
        let takes: @Sendable (EventKind) -> Bool
        let output: @Sendable (Event) -> String
    }

    static let writers: [Writer] = [
        Writer(
            name: "SQLDebugLogSink (level 4)", leftOut: SQLDebugLogSink.fieldsLeftOut,
            takes: { SQLDebugLogSink(level: 4) { _ in }.isEnabled($0) }
        ) { event in
            let lines = Mutex<[String]>([])
            let sink = SQLDebugLogSink(level: 4) { text in lines.withLock { $0.append(text) } }
            sink.receive(event)
            return lines.withLock { $0.joined() }
        },
        Writer(name: "TraceEventFile", leftOut: TraceEventFile.fieldsLeftOut, takes: { _ in true }) { event in
            String(decoding: (try? TraceEventFile.render([event], processID: 1)) ?? Data(), as: UTF8.self)
        },
        Writer(
            name: "LoggingSink (level 4)", leftOut: LoggingSink.fieldsLeftOut,
            takes: { Self.loggingSink().sink.isEnabled($0) }
        ) { event in
            let (sink, handler) = Self.loggingSink()
            sink.receive(event)
            return handler.entries.map { entry in
                let metadata = entry.metadata.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
                return "\(entry.level) \(entry.message) \(metadata)"
            }.joined(separator: "\n")
        },
        Writer(name: "MetricsSink", leftOut: MetricsSink.fieldsLeftOut, takes: { MetricsSink(factory: TestMetrics()).isEnabled($0) }) { event in
            let metrics = TestMetrics()
            let sink = MetricsSink(factory: metrics)
            sink.receive(event)
            func key(_ label: String, _ dimensions: [(String, String)]) -> String {
                label + dimensions.map { "\($0.0)=\($0.1)" }.sorted().joined(separator: ",")
            }
            var lines = metrics.counters.map { "\(key($0.label, $0.dimensions)) \($0.totalValue)" }
            lines += metrics.recorders.map { "\(key($0.label, $0.dimensions)) \($0.values)" }
            lines += metrics.timers.map { "\(key($0.label, $0.dimensions)) \($0.values)" }
            return lines.sorted().joined(separator: "\n")
        },
        Writer(name: "TracingSink", leftOut: TracingSink.fieldsLeftOut, takes: { TracingSink(tracer: InMemoryTracer()).isEnabled($0) }) { event in
            let tracer = InMemoryTracer()
            let sink = TracingSink(tracer: tracer)
            sink.receive(event)
            sink.flush()
            // The sink places spans on the wall clock with an offset it
            // reads as it emits them: a start is compared to the
            // millisecond (the samples' are whole milliseconds apart), a
            // duration exactly.
            let offset = Double(DefaultTracerClock.now.nanosecondsSinceEpoch &- ProbeClock.now())
            return tracer.finishedSpans.map { span in
                let attributes = Self.describe(span.attributes)
                let events = span.events.map { "\($0.name) \(Self.describe($0.attributes))" }.joined(separator: ";")
                let start = span.startInstant.nanosecondsSinceEpoch
                let startMilliseconds = ((Double(start) - offset) / 1e6).rounded()
                let duration = span.endInstant.nanosecondsSinceEpoch &- start
                // Faults are counted on a span of the sink's own time.
                guard span.operationName != "faults" else { return "faults [\(attributes)] {\(events)}" }
                return "\(span.operationName) \(span.kind) at \(startMilliseconds) ms for \(duration) ns [\(attributes)] "
                    + "{\(events)} \(String(describing: span.status))"
            }.sorted().joined(separator: "\n")
        },
    ]

    /// A logging sink at SQL debug level 4 on a logger that shows every
    /// record, and the handler that keeps them.
    static func loggingSink() -> (sink: LoggingSink, handler: InMemoryLogHandler) {
        var handler = InMemoryLogHandler()
        handler.logLevel = .trace
        let logger = Logger(label: "fields") { _ in handler }
        return (LoggingSink(logger: logger, sqlDebugLevel: 4), handler)
    }

    static func describe(_ attributes: SpanAttributes) -> String {
        var pairs: [String] = []
        attributes.forEach { key, value in pairs.append("\(key)=\(value)") }
        return pairs.sorted().joined(separator: ",")
    }

    @Test(arguments: EventSamples.kinds)
    func everyFieldIsWrittenOrListed(kind: EventKind) throws {
        let sample = try #require(EventSamples.sample(kind))
        for writer in Self.writers where writer.takes(kind) {
            let base = writer.output(sample.event)
            // Deterministic, or every field would look written.
            #expect(writer.output(sample.event) == base, "\(writer.name)'s output for \(kind) differs between two runs")
            for (field, changed) in sample.changed {
                let id = EventField(kind, field)
                let writes = writer.output(changed) != base
                let listed = writer.leftOut[id] != nil
                #expect(writes || listed, "\(writer.name) neither writes \(id) nor lists it in fieldsLeftOut")
                #expect(!(writes && listed), "\(writer.name) writes \(id) but lists it in fieldsLeftOut")
            }
        }
    }

    /// The walk covers every field the types have: each one's reflection
    /// names exactly the fields the samples change.
    @Test(arguments: EventSamples.kinds)
    func theSamplesChangeEveryField(kind: EventKind) throws {
        let sample = try #require(EventSamples.sample(kind))
        let payload = Mirror(reflecting: sample.event).children.first!.value
        let fields = Set(Mirror(reflecting: payload).children.compactMap(\.label))
        #expect(fields == Set(sample.changed.map(\.field)), "\(kind): add the new fields to EventSamples")
    }

    /// Every listed field is a field of its kind, with a reason.
    @Test func theListsNameRealFields() throws {
        for writer in Self.writers {
            for (field, reason) in writer.leftOut {
                let sample = try #require(EventSamples.sample(field.kind), "\(writer.name) lists \(field)")
                #expect(sample.changed.contains { $0.field == field.name }, "\(writer.name) lists \(field), no such field")
                #expect(!reason.isEmpty, "\(writer.name) lists \(field) without a reason")
            }
        }
    }
}
