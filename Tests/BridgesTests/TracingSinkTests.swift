import FaultlineTracing
import InMemoryTracing
import ObjectGraph
@_spi(FastPath) import Probes
import Testing
import Tracing

@Suite struct TracingSinkTests {
    /// Inside an application's span: a span per fetch, save and batch
    /// request with its statements inside it, the statements of faults
    /// under the application's span, and the fault counts on it.
    @Test func spansNestUnderTheirOperationAndTheCurrentSpan() throws {
        let path = try BridgeWorkload.populate()
        let tracer = InMemoryTracer()
        let store = try BridgeWorkload.store(path, sinks: [TracingSink(tracer: tracer)])
        try tracer.withSpan("request") { _ in try BridgeWorkload.run(store) }
        try Self.checkUnderARequest(SpanTree(tracer.finishedSpans))
    }

    /// The same from async code: the current span is carried to the
    /// context's queue, where the body runs.
    @Test(arguments: [false, true])
    func asyncPerformKeepsTheCurrentSpan(withOtherSinks: Bool) async throws {
        let path = try BridgeWorkload.populate()
        let tracer = InMemoryTracer()
        // With other sinks, the carrier goes through MultiplexSink.
        let others: [any EventSink] = withOtherSinks ? [Recorder(), InMemorySink()] : []
        let store = try BridgeWorkload.store(path, sinks: others + [TracingSink(tracer: tracer)])
        try await tracer.withSpan("request") { _ in try await BridgeWorkload.runAsync(store) }
        try Self.checkUnderARequest(SpanTree(tracer.finishedSpans))
    }

    static func checkUnderARequest(_ tree: SpanTree) throws {
        #expect(tree.spans.count == 1 + 4 + 15)
        let request = try #require(tree.spans.first { $0.operationName == "request" })
        #expect(request.parentSpanID == nil)
        #expect(tree.children(of: request).map(\.operationName) == [
            "fetch Selfie", "SELECT Person_selfies", "SELECT Person", "SELECT Person", "SELECT Person_selfies", "save",
            "count Person", "batch update Selfie",
        ])
        // Faults and cache misses, counted on the span they happened in.
        #expect(tree.integers(request) == [
            "faultline.faults": 5, "faultline.cache_hits": 3, "faultline.cache_misses": 4, "faultline.relationship_faults": 2,
        ])
        #expect(tree.childNames("fetch Selfie") == ["BEGIN", "SELECT Selfie"])
        #expect(tree.childNames("save") == ["BEGIN", "UPDATE Selfie", "COMMIT"])
        #expect(tree.childNames("count Person") == ["COMMIT", "BEGIN", "SELECT Person"])
        #expect(tree.childNames("batch update Selfie") == ["BEGIN", "UPDATE Selfie", "COMMIT"])
        try checkStatementsAndTiming(tree)

        let fetch = try #require(tree.spans.first { $0.operationName == "fetch Selfie" })
        #expect(fetch.kind == .internal)
        #expect(tree.strings(fetch)["db.operation.name"] == "fetch")
        #expect(tree.strings(fetch)["db.collection.name"] == "Selfie")
        #expect(tree.integers(fetch)["db.response.returned_rows"] == 3)
        let save = try #require(tree.spans.first { $0.operationName == "save" })
        #expect(tree.integers(save)["faultline.updated"] == 1)
        #expect(save.status == nil)
        let batch = try #require(tree.spans.first { $0.operationName == "batch update Selfie" })
        #expect(tree.integers(batch)["faultline.rows_affected"] == 3)
    }

    /// Every statement a client span with OpenTelemetry's database
    /// attributes, its text the shape (no values), inside its parent's
    /// time.
    static func checkStatementsAndTiming(_ tree: SpanTree) throws {
        let statements = tree.spans.filter { $0.kind == .client }
        #expect(statements.count == 15)
        for statement in statements {
            let strings = tree.strings(statement)
            #expect(strings["db.system.name"] == "sqlite")
            #expect(strings["db.system"] == "sqlite")
            let text = try #require(strings["db.query.text"])
            #expect(text == SQLShape.normalize(text))
            #expect(strings["db.operation.name"] == statement.operationName.split(separator: " ").first.map(String.init))
            #expect(strings["db.query.summary"] == statement.operationName)
            #expect(strings["code.file.path"] == "BridgesTests/BridgeWorkload.swift")
        }
        let update = try #require(statements.first { tree.strings($0)["faultline.purpose"] == "save" })
        #expect(tree.strings(update)["db.query.text"] == #"UPDATE "Selfie" SET "rating" = ? WHERE pk = ?"#)
        #expect(tree.strings(update)["db.collection.name"] == "Selfie")
        #expect(tree.integers(update)["faultline.rows_changed"] == 1)
        for span in tree.spans {
            #expect(span.startInstant.nanosecondsSinceEpoch <= span.endInstant.nanosecondsSinceEpoch)
            guard let parent = tree.parent(of: span), parent.operationName != "faults" else { continue }
            #expect(span.startInstant.nanosecondsSinceEpoch >= parent.startInstant.nanosecondsSinceEpoch, "\(span.operationName)")
            #expect(span.endInstant.nanosecondsSinceEpoch <= parent.endInstant.nanosecondsSinceEpoch, "\(span.operationName)")
        }
    }

    /// With no current span, operations and the statements of faults are
    /// roots, and the fault counts go on a `faults` span of their own.
    @Test func withoutACurrentSpanFaultsGetASpanOfTheirOwn() throws {
        let path = try BridgeWorkload.populate()
        let tracer = InMemoryTracer()
        let store = try BridgeWorkload.store(path, sinks: [TracingSink(tracer: tracer)])
        try BridgeWorkload.run(store)
        let tree = SpanTree(tracer.finishedSpans)
        #expect(tree.spans.count == 1 + 4 + 15)
        #expect(tree.roots.map(\.operationName) == [
            "fetch Selfie", "faults", "SELECT Person_selfies", "SELECT Person", "SELECT Person", "SELECT Person_selfies", "save",
            "count Person", "batch update Selfie",
        ])
        let faults = try #require(tree.roots.first { $0.operationName == "faults" })
        #expect(tree.integers(faults) == [
            "faultline.faults": 5, "faultline.cache_hits": 3, "faultline.cache_misses": 4, "faultline.relationship_faults": 2,
        ])
        try Self.checkStatementsAndTiming(tree)
    }

    /// A thread holds at most `pendingLimit` items: past it they go out
    /// under the current span at once, and every statement is still a span.
    @Test func thePendingLimitSendsStatementsOnEarly() throws {
        let path = try BridgeWorkload.populate()
        let tracer = InMemoryTracer()
        let store = try BridgeWorkload.store(path, sinks: [TracingSink(tracer: tracer, pendingLimit: 1)])
        try tracer.withSpan("request") { _ in try BridgeWorkload.run(store) }
        let tree = SpanTree(tracer.finishedSpans)
        #expect(tree.spans.count == 1 + 4 + 15)
        #expect(tree.spans.filter { $0.kind == .client }.allSatisfy { tree.parent(of: $0)?.operationName == "request" })
        let request = try #require(tree.spans.first { $0.operationName == "request" })
        #expect(tree.integers(request)["faultline.faults"] == 5)
    }

    /// A failed save's span has the error status and records the error.
    @Test func aFailedSaveIsAnError() throws {
        let tracer = InMemoryTracer()
        let sink = TracingSink(tracer: tracer)
        let start = ProbeClock.now()
        sink.receive(.save(SaveEvent(
            start: start, durationNanoseconds: 1_000, thread: ProbeClock.threadID(), context: "main", inserted: 1, updated: 0,
            deleted: 0, success: false, error: "Person/p1: name is required", callSite: CallSite(file: "App/Sync.swift", line: 12))))
        let save = try #require(tracer.finishedSpans.first)
        #expect(save.operationName == "save")
        #expect(save.status?.code == .error)
        #expect(save.status?.message == "Person/p1: name is required")
        #expect(save.errors.count == 1)
        #expect(save.attributes.get("error.type") == .string("SaveFailure"))
        #expect(save.attributes.get("code.line.number") == .int64(12))
        #expect(save.endInstant.nanosecondsSinceEpoch - save.startInstant.nanosecondsSinceEpoch == 1_000)
    }

    /// Without a tracer (`NoOpTracer`, nothing bootstrapped) the sink wants nothing.
    @Test func noTracerNoEvents() {
        let sink = TracingSink(tracer: NoOpTracer())
        #expect(EventKind.allCases.allSatisfy { !sink.isEnabled($0) })
        #expect(sink.carryTaskContext() == nil)
    }
}

/// Finished spans as a tree, in the order they started.
struct SpanTree {
    let spans: [FinishedInMemorySpan]

    init(_ spans: [FinishedInMemorySpan]) {
        self.spans = spans.sorted {
            $0.startInstant.nanosecondsSinceEpoch != $1.startInstant.nanosecondsSinceEpoch
                ? $0.startInstant.nanosecondsSinceEpoch < $1.startInstant.nanosecondsSinceEpoch
                : $0.endInstant.nanosecondsSinceEpoch > $1.endInstant.nanosecondsSinceEpoch
        }
    }

    var roots: [FinishedInMemorySpan] { spans.filter { $0.parentSpanID == nil } }

    func children(of span: FinishedInMemorySpan) -> [FinishedInMemorySpan] {
        spans.filter { $0.parentSpanID == span.spanID }
    }

    func parent(of span: FinishedInMemorySpan) -> FinishedInMemorySpan? {
        spans.first { $0.spanID == span.parentSpanID }
    }

    /// The names of the children of the one span named `name`.
    func childNames(_ name: String) -> [String] {
        let matching = spans.filter { $0.operationName == name }
        guard matching.count == 1 else { return ["\(matching.count) spans named \(name)"] }
        return children(of: matching[0]).map(\.operationName)
    }

    func strings(_ span: FinishedInMemorySpan) -> [String: String] {
        var result: [String: String] = [:]
        span.attributes.forEach { key, value in if case .string(let text) = value { result[key] = text } }
        return result
    }

    func integers(_ span: FinishedInMemorySpan) -> [String: Int64] {
        var result: [String: Int64] = [:]
        span.attributes.forEach { key, value in if case .int64(let number) = value { result[key] = number } }
        return result
    }
}
