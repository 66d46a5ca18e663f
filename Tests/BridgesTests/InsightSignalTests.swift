import CoreMetrics
import FaultlineLogging
import FaultlineMetrics
import Foundation
import Insights
import Logging
import MetricsTestKit
import ObjectGraph
@_spi(FastPath) import Probes
import Testing

/// Production signals: an insight an ``InsightWatch`` finds while the
/// application runs is a warning at its site in the log and a count by
/// rule in the metrics; nothing when the code has no such pattern.
@Suite struct InsightSignalTests {
    /// Every selfie's people read one selfie at a time (an N+1 of
    /// Selfie.people at the fetch's line), or prefetched with the fetch.
    static func readPeople(_ store: Store, prefetching: Bool) throws {
        let context = ObjectContext(store: store, name: "main")
        try context.perform {
            var request = FetchRequest<ManagedObject>(entityName: "Selfie")
            if prefetching { request.relationshipKeyPathsForPrefetching = ["people"] }
            let selfies = Array(try context.fetch(request))  // the fetch's site: fetchSite
            for selfie in selfies {
                for person in try selfie.objects(forKey: "people") { _ = try person.value(forKey: "name") }
            }
        }
    }

    static let fetchSite = "BridgesTests/InsightSignalTests.swift:23"

    struct Signals {
        let store: Store
        let watch: InsightWatch
        let log: RecordingLogHandler
        let metrics: TestMetrics
        let reference: Probes.Recorder
    }

    /// A store with a watch that reports to a logging sink (logger at
    /// `warning`, as in production) and a metrics sink, and a recorder
    /// beside them as the reference.
    static func signals(interval: Duration = .zero) throws -> Signals {
        let path = try BridgeWorkload.populate()
        let log = RecordingLogHandler(level: .warning)
        let logging = LoggingSink(logger: Logger(label: "app.db") { _ in log })
        let metrics = TestMetrics()
        let metricsSink = MetricsSink(factory: metrics)
        let watch = InsightWatch(interval: interval, reportingTo: [logging, metricsSink])
        let reference = Probes.Recorder(bufferCapacity: 0, tracksArguments: true)
        let store = try BridgeWorkload.store(path, sinks: [watch, logging, metricsSink, reference])
        return Signals(store: store, watch: watch, log: log, metrics: metrics, reference: reference)
    }

    @Test func anNPlusOneFoundAtRunTimeIsAWarningAtItsSiteAndCountedByRule() throws {
        let signals = try Self.signals()
        try Self.readPeople(signals.store, prefetching: false)
        // The window ended as the perform returned (interval zero): the
        // rules' insights of the same events, as a measurement gives them.
        let expected = InsightEngine().insights(signals.reference.snapshot().evidence).filter(\.isActionable)
        #expect(expected.map(\.rule) == [.nPlusOne])
        let nPlusOne = try #require(expected.first)
        #expect(nPlusOne.callSite == Self.fetchSite)

        let records = signals.log.records
        #expect(records.count == 1)
        let record = try #require(records.first)
        #expect(record.level == .warning)
        #expect(record.message == nPlusOne.message)
        #expect(record.source == "Faultline")
        #expect(record.file == "BridgesTests/InsightSignalTests.swift" && record.line == 23)
        #expect(record.metadata["insight.rule"] == "n-plus-one")
        #expect(record.metadata["insight.entity"] == "Selfie")
        #expect(record.metadata["insight.key_path"] == "people")
        // 3 relationship faults of Selfie.people and the 2 people's faults.
        #expect(nPlusOne.count == 5)
        #expect(record.metadata["insight.count"] == .stringConvertible(5))
        #expect(record.metadata["insight.fix"]?.description == #"request.relationshipKeyPathsForPrefetching = ["people"]"#)
        #expect(record.metadata["call_site"]?.description == Self.fetchSite)

        #expect(signals.metrics.counterTotal(label: "faultline_insights_total", dimensions: [("rule", "n-plus-one")]) == 1)
        #expect(signals.metrics.counters(label: "faultline_insights_total").count == 1)

        // The next window starts empty: the same work again is told again,
        // once; nothing between.
        #expect(signals.watch.check().isEmpty)
        try Self.readPeople(signals.store, prefetching: false)
        #expect(signals.log.records.count == 2)
        #expect(signals.metrics.counterTotal(label: "faultline_insights_total", dimensions: [("rule", "n-plus-one")]) == 2)
    }

    @Test func prefetchedWorkIsNoInsightAndNoSignal() throws {
        let signals = try Self.signals()
        try Self.readPeople(signals.store, prefetching: true)
        #expect(InsightEngine().insights(signals.reference.snapshot().evidence).filter(\.isActionable).isEmpty)
        #expect(signals.log.records.isEmpty)
        #expect(signals.metrics.counters(label: "faultline_insights_total").isEmpty)
    }

    /// A window shorter than its interval is not judged at a flush; a
    /// check ends it.
    @Test func aWindowEndsAfterItsIntervalOrAtACheck() throws {
        let signals = try Self.signals(interval: .seconds(3_600))
        try Self.readPeople(signals.store, prefetching: false)
        #expect(signals.log.records.isEmpty)
        #expect(signals.metrics.counters(label: "faultline_insights_total").isEmpty)
        let found = signals.watch.check()
        #expect(found.map(\.rule) == [.nPlusOne])
        #expect(signals.log.records.map(\.level) == [.warning])
        #expect(signals.metrics.counterTotal(label: "faultline_insights_total", dimensions: [("rule", "n-plus-one")]) == 1)
    }

    /// An accepted insight is not advice: not told.
    @Test func anAcceptedInsightIsNotTold() throws {
        let path = try BridgeWorkload.populate()
        let log = RecordingLogHandler(level: .warning)
        let logging = LoggingSink(logger: Logger(label: "app.db") { _ in log })
        let settings = InsightSettings(accepted: ["n-plus-one/Selfie/people"])
        let watch = InsightWatch(settings: settings, interval: .zero, reportingTo: [logging])
        try Self.readPeople(try BridgeWorkload.store(path, sinks: [watch, logging]), prefetching: false)
        #expect(log.records.isEmpty)
    }

    /// A failed save is an error record, with a logger at `warning`; a
    /// successful one is not logged there.
    @Test func aFailedSaveIsAnError() throws {
        let log = RecordingLogHandler(level: .warning)
        let sink = LoggingSink(logger: Logger(label: "app.db") { _ in log })
        #expect(sink.isEnabled(.save))
        #expect(!sink.isEnabled(.sql) && !sink.isEnabled(.fetch) && !sink.isEnabled(.fault))
        let site = CallSite(file: "App/Checkout.swift", line: 88)
        func save(success: Bool) -> Event {
            .save(SaveEvent(
                start: 0, durationNanoseconds: 5_000, thread: 1, context: "main", inserted: 1, updated: 0, deleted: 0, success: success,
                error: success ? "" : "NOT NULL constraint failed: Person.name", callSite: site))
        }
        sink.receive(save(success: true))
        #expect(log.records.isEmpty)
        sink.receive(save(success: false))
        let record = try #require(log.records.first)
        #expect(log.records.count == 1)
        #expect(record.level == .error)
        #expect(record.message == "save failed")
        #expect(record.metadata["save.error"] == "NOT NULL constraint failed: Person.name")
        #expect(record.file == "App/Checkout.swift" && record.line == 88)
        // Above `error`, not even saves are wanted.
        sink.logLevel = .critical
        #expect(EventKind.allCases.allSatisfy { !sink.isEnabled($0) })
    }

    /// SQL debug level 4 with a logger at `debug`: every plain statement,
    /// at `debug`, without what levels 2 to 4 add (that needs `trace`).
    @Test func aHighSQLDebugLevelHidesNoStatementFromADebugLogger() throws {
        let path = try BridgeWorkload.populate()
        let log = RecordingLogHandler(level: .debug)
        let sink = LoggingSink(logger: Logger(label: "app.db") { _ in log }, sqlDebugLevel: 4)
        #expect(sink.recordLevel == .debug)
        #expect(sink.details.isEmpty)
        try BridgeWorkload.run(try BridgeWorkload.store(path, sinks: [sink]))
        let records = log.records
        #expect(records.allSatisfy { $0.level == .debug })
        let statements = records.filter { $0.metadata["sql.shape"] != nil }
        #expect(statements.count == 15)
        #expect(statements.allSatisfy { $0.metadata["sql.arguments"] == nil && $0.metadata["sql.plan"] == nil })
        #expect(records.filter { $0.message == "fault" }.allSatisfy { $0.metadata["fault.values"] == nil })
        #expect(records.count == 15 + 2 + 2 + 2 + 1 + 1 + 2)
    }
}

/// A log handler that keeps each record whole: level, message, metadata,
/// source, file and line. A value, as swift-log's handlers are: the
/// records are kept in a box its copies share.
struct RecordingLogHandler: LogHandler {
    struct Record {
        let level: Logger.Level
        let message: String
        let metadata: Logger.Metadata
        let source: String
        let file: String
        let line: UInt
    }

    final class Box: @unchecked Sendable {
        let lock = NSLock()
        var records: [Record] = []
    }

    let box = Box()
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    init(level: Logger.Level) { logLevel = level }

    var records: [Record] { box.lock.withLock { box.records } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let record = Record(
            level: event.level, message: event.message.description, metadata: event.metadata ?? [:], source: event.source, file: event.file,
            line: event.line)
        box.lock.withLock { box.records.append(record) }
    }
}
