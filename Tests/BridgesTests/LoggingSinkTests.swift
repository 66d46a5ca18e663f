import FaultlineLogging
import Foundation
import InMemoryLogging
import Logging
import ObjectGraph
@_spi(FastPath) import Probes
import Testing

@Suite struct LoggingSinkTests {
    /// A logger and the in-memory handler behind it.
    static func logger(_ level: Logger.Level) -> (Logger, InMemoryLogHandler) {
        var handler = InMemoryLogHandler()
        handler.logLevel = level
        let logger = Logger(label: "test.db") { _ in handler }
        return (logger, handler)
    }

    /// SQL debug level 1 on a logger at `debug`: a record per statement,
    /// fetch, fault and relationship fault from the database, save and batch
    /// request, all at `debug`; faults from the row cache are `trace`
    /// records, not shown.
    @Test func levelOneGivesDebugRecords() throws {
        let path = try BridgeWorkload.populate()
        let (logger, handler) = Self.logger(.debug)
        let sink = LoggingSink(logger: logger)
        #expect(sink.recordLevel == .debug)
        try BridgeWorkload.run(try BridgeWorkload.store(path, sinks: [sink]))
        let entries = handler.entries
        #expect(entries.allSatisfy { $0.level == .debug })
        let statements = entries.filter { $0.metadata["sql.shape"] != nil }
        #expect(statements.count == 15)
        #expect(entries.filter { $0.message == "fetch" }.count == 1)
        #expect(entries.filter { $0.message == "count" }.count == 1)
        #expect(entries.filter { $0.message == "fault" }.count == 2)
        #expect(entries.filter { $0.message == "relationship fault" }.count == 2)
        #expect(entries.filter { $0.message == "save" }.count == 1)
        #expect(entries.filter { $0.message == "batch update" }.count == 1)
        // The fetch's objects, and the destinations of its objects' to-many.
        #expect(entries.filter { $0.message == "fetch usage" }.count == 2)
        #expect(entries.count == 15 + 2 + 2 + 2 + 1 + 1 + 2)

        let fetchStatement = try #require(statements.first { $0.metadata["sql.purpose"] == "fetch Selfie" })
        #expect(fetchStatement.message == #"SELECT t0.pk, t0."name", t0."rating" FROM "Selfie" t0"#)
        #expect(fetchStatement.metadata["sql.shape"] == .string(#"SELECT t0.pk, t0."name", t0."rating" FROM "Selfie" t0"#))
        #expect(fetchStatement.metadata["sql.rows"] == .stringConvertible(3))
        #expect(fetchStatement.metadata["sql.changed"] == .stringConvertible(0))
        #expect(fetchStatement.metadata["call_site"]?.description == "BridgesTests/BridgeWorkload.swift:74")
        #expect(fetchStatement.metadata["sql.duration"]?.description.hasSuffix("s") == true)
        #expect(fetchStatement.metadata["sql.arguments"] == nil)  // level 2

        let fault = try #require(entries.first { $0.message == "fault" })
        #expect(fault.metadata["fault.object"]?.description == "Person/p1")
        #expect(fault.metadata["fault.source"] == "database")
        #expect(fault.metadata["fault.miss"] == "absent")
        #expect(fault.metadata["fault.origin"]?.description == "fetch 1 of Selfie at BridgesTests/BridgeWorkload.swift:74 through people")
        let save = try #require(entries.first { $0.message == "save" })
        #expect(save.metadata["save.updated"] == .stringConvertible(1))
        let fetch = try #require(entries.first { $0.message == "fetch" })
        #expect(fetch.metadata["fetch.entity"] == "Selfie")
        #expect(fetch.metadata["fetch.result_count"] == .stringConvertible(3))
        // When the context goes: what became of the fetch's objects (all three read).
        let usage = try #require(entries.first { $0.message == "fetch usage" })
        #expect(usage.metadata["fetch.entity"] == "Selfie")
        #expect(usage.metadata["fetch.runs"] == .stringConvertible(1))
        #expect(usage.metadata["fetch.objects"] == .stringConvertible(3))
        #expect(usage.metadata["fetch.read"] == .stringConvertible(3))
        #expect(usage.metadata["fetch.runs_read_none"] == .stringConvertible(0))
        #expect(usage.metadata["call_site"]?.description == "BridgesTests/BridgeWorkload.swift:74")
    }

    /// SQL debug level 2 on a logger at `trace`: the same `debug` records
    /// with bound values, and the row cache's faults at `trace`.
    @Test func levelTwoGivesTraceRecordsWithBoundValues() throws {
        let path = try BridgeWorkload.populate()
        let (logger, handler) = Self.logger(.trace)
        let sink = try #require(LoggingSink(matching: logger))
        #expect(sink.sqlDebugLevel == 2)
        #expect(sink.details == [.sqlArguments])
        try BridgeWorkload.run(try BridgeWorkload.store(path, sinks: [sink]))
        let entries = handler.entries
        #expect(entries.filter { $0.level == .trace }.count == 3)
        #expect(entries.filter { $0.level == .trace }.allSatisfy { $0.message == "fault" && $0.metadata["fault.source"] == "row cache" })
        #expect(entries.filter { $0.level != .trace }.allSatisfy { $0.level == .debug })
        #expect(entries.filter { $0.message == "fault" }.count == 5)
        #expect(entries.filter { $0.message == "fault" && $0.metadata["fault.source"] == "row cache" }.count == 3)
        #expect(entries.count == 15 + 2 + 5 + 2 + 1 + 1 + 2)
        let update = try #require(entries.first { $0.metadata["sql.purpose"] == "save" })
        #expect(update.metadata["sql.arguments"] == "9, 1")
    }

    /// A logger above `debug` shows no record of the SQL debug log: the
    /// sink wants no event but saves (a failed one is an error).
    @Test func aLoggerAtInfoCostsOneCheck() throws {
        let (logger, handler) = Self.logger(.info)
        #expect(LoggingSink(matching: logger) == nil)
        let sink = LoggingSink(logger: logger, sqlDebugLevel: 4)
        #expect(EventKind.allCases.filter { sink.isEnabled($0) } == [.save])
        #expect(sink.details.isEmpty)
        #expect(sink.possibleDetails == .all.subtracting(.contextChanges))
        let path = try BridgeWorkload.populate()
        let store = try BridgeWorkload.store(path, sinks: [sink])
        try BridgeWorkload.run(store)
        #expect(handler.entries.isEmpty)

        // Turned on for a while (what level 4 adds shows at trace), and off again.
        sink.logLevel = .debug
        #expect(sink.isEnabled(.sql) && sink.details.isEmpty)
        sink.logLevel = .trace
        #expect(sink.isEnabled(.sql) && sink.details == [.sqlArguments, .objectValues, .queryPlans])
        try BridgeWorkload.run(store)
        #expect(handler.entries.count > 0)
        #expect(handler.entries.contains { $0.metadata["sql.plan"] != nil })  // level 4's plans
        handler.clear()
        sink.logLevel = .info
        try BridgeWorkload.run(store)
        #expect(handler.entries.isEmpty)
    }

    /// The mapping of SQL debug levels to logger levels, both ways.
    @Test func levelsMapBothWays() {
        #expect((1...4).map(LoggingSink.logLevel(forSQLDebugLevel:)) == [.debug, .trace, .trace, .trace])
        #expect(LoggingSink.sqlDebugLevel(for: .trace) == 2)
        #expect(LoggingSink.sqlDebugLevel(for: .debug) == 1)
        #expect([Logger.Level.info, .notice, .warning, .error, .critical].allSatisfy { LoggingSink.sqlDebugLevel(for: $0) == nil })
    }

    /// Through swift-log's own `StreamLogHandler`, written to a pipe: one
    /// line per record, with its level, metadata, source and message.
    @Test func recordsGoThroughAStreamLogHandler() throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let stream = DescriptorStream(descriptor: descriptors[1])
        var logger = Logger(label: "app.db") { label in StreamLogHandler(label: label, stream: stream, metadataProvider: nil) }
        logger.logLevel = .debug
        let path = try BridgeWorkload.populate()
        try BridgeWorkload.run(try BridgeWorkload.store(path, sinks: [LoggingSink(logger: logger)]))
        close(descriptors[1])
        let output = FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true).readDataToEndOfFile()
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.count == 25)
        #expect(lines.allSatisfy { $0.contains(" debug app.db: ") && $0.contains("[Faultline]") })
        let fetch = try #require(lines.first { $0.hasSuffix(#"[Faultline] SELECT t0.pk, t0."name", t0."rating" FROM "Selfie" t0"#) })
        #expect(fetch.contains("sql.purpose=fetch Selfie"))
        #expect(fetch.contains("sql.rows=3"))
        #expect(fetch.contains("call_site=BridgesTests/BridgeWorkload.swift:74"))
        #expect(lines.filter { $0.hasSuffix("[Faultline] fault") }.count == 2)
        #expect(lines.contains { $0.hasSuffix("[Faultline] save") && $0.contains("save.updated=1") })
    }
}

/// A `TextOutputStream` on a file descriptor, for `StreamLogHandler`.
struct DescriptorStream: TextOutputStream, Sendable {
    let descriptor: Int32

    mutating func write(_ string: String) {
        var text = string
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
