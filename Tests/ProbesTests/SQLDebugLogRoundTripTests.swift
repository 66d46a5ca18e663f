import Foundation
import Probes
import Testing

/// The SQL debug log's writer and its reader share one grammar: each line
/// the writer writes for an event tokenizes back to the typed line whose
/// fields are the event's (times to the microsecond the log prints).
@Suite struct SQLDebugLogRoundTripTests {
    /// The typed lines of `event`'s lines at `level`, each given to `body`
    /// with its text.
    static func read(_ event: Event, level: Int = 4, _ body: ([SQLDebugLogLine]) throws -> Void) rethrows {
        let lines = SQLDebugLogFormat.lines(for: event, level: level)
        #expect(lines.allSatisfy { $0.hasPrefix(SQLDebugLogFormat.prefix) })
        try withTypedLines(lines[...], [], body)
    }

    private static func withTypedLines(_ lines: ArraySlice<String>, _ read: [SQLDebugLogLine], _ body: ([SQLDebugLogLine]) throws -> Void) rethrows {
        guard var line = lines.first else { return try body(read) }
        try line.withUTF8 { buffer in
            let bytes = UnsafeRawBufferPointer(buffer)
            let marker = try #require(SQLDebugLogLine.marker(in: bytes))
            #expect(marker == SQLDebugLogLine.FoundMarker(marker: .faultline, textStart: SQLDebugLogFormat.prefix.utf8.count))
            try SQLDebugLogLine.read(bytes, marker: marker) { typed in try withTypedLines(lines.dropFirst(), read + [typed], body) }
        }
    }

    /// The seconds a duration is printed as: microseconds, rounded.
    static func printed(_ nanoseconds: UInt64) -> SQLDebugLogTime {
        .seconds(Double((nanoseconds + 500) / 1000) / 1e6)
    }

    /// The nanoseconds of a duration as printed.
    static func printedNanoseconds(_ nanoseconds: UInt64) -> UInt64 {
        UInt64(Double((nanoseconds + 500) / 1000) / 1e6 * 1e9)
    }

    static let site = CallSite(file: "App/Gallery.swift", line: 12)
    static let origin = FaultOrigin(fetchEntity: "Post", fetchSite: CallSite(file: "Blog/List.swift", line: 70), keyPath: "author.company", execution: 12)

    @Test func aStatementReadsBackWithItsValuesPlanAndFigures() throws {
        let event = SQLEvent(
            start: 0, durationNanoseconds: 31_400, thread: 0, sql: "SELECT t0.pk, t0.\"name\" FROM \"Selfie\" t0 WHERE t0.\"rating\" < ? ORDER BY t0.\"name\"",
            shape: "", shapeID: 0, arguments: ["3", "'it''s'", "NULL"], rowsReturned: 2, rowsChanged: 0, fullScanSteps: 3, sorts: 1, autoIndexes: 0,
            vmSteps: 0, purpose: "fetch Selfie", queryPlan: ["SCAN t0", "USE TEMP B-TREE FOR ORDER BY", "  SEARCH t1 USING INDEX i (a=?)"],
            callSite: Self.site)
        Self.read(.sql(event)) { lines in
            #expect(lines.count == 1 + 3 + 3 + 1)
            let statement = lines[0]
            guard case .statement(let sql) = statement.kind else {
                Issue.record("\(statement.kind)")
                return
            }
            #expect(statement.text.string(sql) == event.sql)
            for (index, argument) in event.arguments.enumerated() {
                let line = lines[1 + index]
                guard case .bind(let number, let value) = line.kind else {
                Issue.record("\(line.kind)")
                return
            }
                #expect(number == index)
                #expect(line.text.string(value) == argument)
            }
            for (index, row) in event.queryPlan!.enumerated() {
                let line = lines[4 + index]
                guard case .planRow(let read) = line.kind else {
                Issue.record("\(line.kind)")
                return
            }
                #expect(line.text.string(read.row) == row.trimmingCharacters(in: .whitespaces))
                #expect(read.isMarked == QueryPlan.isFullScan(row))
            }
            let annotation = lines[7]
            guard case .annotation(let read) = annotation.kind, case .statementTime(let time) = read.kind else {
                Issue.record("\(annotation.kind)")
                return
            }
            #expect(read.isWhole)
            #expect(time.time == Self.printed(event.durationNanoseconds))
            #expect(time.rows == event.rowsReturned)
            #expect(time.changed == event.rowsChanged)
            #expect(time.scanned == event.fullScanSteps)
            #expect(time.sorts == event.sorts)
            #expect(time.purpose.map(annotation.text.string) == event.purpose)
        }
        // Level 1: the statement and its figures; no scans nor sorts written, 0 read.
        var plain = event
        (plain.fullScanSteps, plain.sorts, plain.rowsChanged, plain.purpose) = (0, 0, 4, "save")
        Self.read(.sql(plain), level: 1) { lines in
            #expect(lines.count == 2)
            guard case .annotation(let read) = lines[1].kind, case .statementTime(let time) = read.kind else {
                Issue.record("\(lines[1].kind)")
                return
            }
            #expect(time.rows == 2 && time.changed == 4 && time.scanned == 0 && time.sorts == 0)
            #expect(time.purpose.map(lines[1].text.string) == "save")
        }
    }

    @Test func aFaultReadsBackWithItsLazyLoadAndValues() throws {
        let event = FaultEvent(
            start: 0, durationNanoseconds: 20_000, thread: 0, context: "main", entity: "Network", primaryKey: 42, source: .database,
            callSite: CallSite(file: "Blog/Blog.swift", line: 73), values: "{name = \"Network 1\"}", missReason: .stale, origin: Self.origin)
        try Self.read(.fault(event), level: 3) { lines in
            #expect(lines.count == 2)
            let line = lines[0]
            guard case .annotation(let read) = line.kind, case .fault(let fault) = read.kind else {
                Issue.record("\(lines[0].kind)")
                return
            }
            #expect(read.isWhole)
            #expect(fault.source == event.source)
            #expect(fault.entity.map(line.text.string) == event.entity)
            #expect(fault.primaryKey == event.primaryKey)
            #expect(fault.nanoseconds == Self.printedNanoseconds(event.durationNanoseconds))
            let lazyLoad = SQLDebugLogLazyLoad(line.text, try #require(fault.lazyLoad))
            #expect(lazyLoad.reason == event.missReason)
            #expect(lazyLoad.execution == Self.origin.execution)
            #expect(lazyLoad.fetchEntity.map(line.text.string) == Self.origin.fetchEntity)
            #expect(lazyLoad.fetchSite.map { Self.callSite(line.text, $0) } == Self.origin.fetchSite)
            #expect(lazyLoad.keyPath.map(line.text.string) == Self.origin.keyPath)
            #expect(lazyLoad.read.map { Self.callSite(line.text, $0) } == event.callSite)
            guard case .objectValues(let object, let values) = lines[1].kind else {
                Issue.record("\(lines[1].kind)")
                return
            }
            #expect(lines[1].text.string(object) == event.objectID)
            #expect(lines[1].text.string(values) == event.values)
        }
        // From the row cache: no lazy load; an origin without a key path.
        var cached = event
        cached.source = .rowCache
        Self.read(.fault(cached), level: 2) { lines in
            #expect(lines.count == 1)
            guard case .annotation(let read) = lines[0].kind, case .fault(let fault) = read.kind else {
                Issue.record("\(lines[0].kind)")
                return
            }
            #expect(fault.source == .rowCache && fault.lazyLoad == nil && fault.primaryKey == 42)
        }
        var ownObject = event
        ownObject.origin?.keyPath = ""
        ownObject.missReason = nil
        try Self.read(.fault(ownObject)) { lines in
            guard case .annotation(let read) = lines[0].kind, case .fault(let fault) = read.kind else {
                Issue.record("\(lines[0].kind)")
                return
            }
            let lazyLoad = SQLDebugLogLazyLoad(lines[0].text, try #require(fault.lazyLoad))
            #expect(lazyLoad.reason == nil && lazyLoad.keyPath == nil && lazyLoad.execution == 12)
        }
    }

    @Test func aRelationshipFaultReadsBack() throws {
        let event = RelationshipFaultEvent(
            start: 0, durationNanoseconds: 1_250_000, thread: 0, context: "main", entity: "Selfie", relationship: "networks", primaryKey: 1,
            destinationEntity: "Network", destinationCount: 2, source: .database, callSite: CallSite(file: "ProbesTests/LogWorkload.swift", line: 14),
            missReason: .absent, origin: Self.origin)
        for source in [FaultSource.database, .rowCache] {
            var event = event
            event.source = source
            try Self.read(.relationshipFault(event)) { lines in
                #expect(lines.count == 1)
                let line = lines[0]
                guard case .annotation(let read) = line.kind, case .relationshipFault(let fault) = read.kind else {
                Issue.record("\(line.kind)")
                return
            }
                #expect(line.text.string(fault.name) == event.relationship)
                #expect(fault.entity.map(line.text.string) == event.entity)
                #expect(fault.fromRowCache == (source == .rowCache))
                #expect(fault.destinationCount == event.destinationCount)
                #expect(fault.destinationEntity.map(line.text.string) == event.destinationEntity)
                #expect(fault.nanoseconds == Self.printedNanoseconds(event.durationNanoseconds))
                if source == .database {
                    let lazyLoad = SQLDebugLogLazyLoad(line.text, try #require(fault.lazyLoad))
                    #expect(lazyLoad.reason == .absent)
                    #expect(lazyLoad.read.map { Self.callSite(line.text, $0) } == event.callSite)
                } else {
                    #expect(fault.lazyLoad == nil)
                }
            }
        }
    }

    @Test func fetchesAndCountsReadBack() throws {
        let event = FetchEvent(
            start: 0, durationNanoseconds: 210_000, thread: 0, context: "main", entity: "Selfie", predicate: "rating < 3", sort: "name ASC",
            resultType: "objects", resultCount: 2, fetchLimit: 0, fetchOffset: 0, fetchBatchSize: 0, returnsObjectsAsFaults: false,
            includesPropertyValues: true, includesPendingChanges: true, prefetch: "people", callSite: Self.site,
            objects: ["Selfie/p1 {name = \"Selfie 1\"}", "Selfie/p2 {name = \"Selfie 2\"}"])
        Self.read(.fetch(event), level: 3) { lines in
            #expect(lines.count == 3)
            let line = lines[0]
            guard case .annotation(let read) = line.kind, case .fetch(let fetch) = read.kind else {
                Issue.record("\(line.kind)")
                return
            }
            let text = line.text
            #expect(text.string(fetch.entity) == event.entity)
            #expect(fetch.predicate.map(text.string) == event.predicate)
            #expect(fetch.sort.map(text.string) == event.sort)
            #expect(fetch.prefetch.map(text.string) == event.prefetch)
            #expect(fetch.count == event.resultCount)
            #expect(fetch.resultType.map(text.string) == event.resultType)
            #expect(fetch.withValues == !event.returnsObjectsAsFaults)
            #expect(fetch.time == Self.printed(event.durationNanoseconds))
            #expect(Self.callSite(text, fetch.site) == event.callSite)
            for (index, object) in event.objects!.enumerated() {
                guard case .fetchedObject(let id, let values) = lines[1 + index].kind else {
                Issue.record("\(lines[1 + index].kind)")
                return
            }
                #expect("\(lines[1 + index].text.string(id)) \(values.map(lines[1 + index].text.string) ?? "")" == object)
            }
        }
        // A predicate may hold the colon that ends the description.
        var ids = event
        (ids.resultType, ids.returnsObjectsAsFaults, ids.predicate, ids.sort, ids.prefetch) = ("ids", true, "title == \"Re: x\"", "", "")
        Self.read(.fetch(ids)) { lines in
            guard case .annotation(let read) = lines[0].kind, case .fetch(let fetch) = read.kind else {
                Issue.record("\(lines[0].kind)")
                return
            }
            #expect(fetch.predicate.map(lines[0].text.string) == ids.predicate)
            #expect(fetch.sort == nil && fetch.prefetch == nil && !fetch.withValues)
            #expect(fetch.count == 2 && fetch.resultType.map(lines[0].text.string) == "ids")
        }
        var count = event
        (count.resultType, count.resultCount, count.sort, count.prefetch, count.objects) = ("count", 18_988, "", "", nil)
        Self.read(.fetch(count)) { lines in
            #expect(lines.count == 1)
            let text = lines[0].text
            guard case .annotation(let read) = lines[0].kind, case .count(let counted) = read.kind else {
                Issue.record("\(lines[0].kind)")
                return
            }
            #expect(text.string(counted.entity) == count.entity)
            #expect(counted.predicate.map(text.string) == count.predicate)
            #expect(counted.count == count.resultCount)
            #expect(counted.time == Self.printed(count.durationNanoseconds))
            #expect(Self.callSite(text, counted.site) == count.callSite)
        }
    }

    @Test func savesBatchesAndPrefetchUsageReadBack() throws {
        let save = SaveEvent(
            start: 0, durationNanoseconds: 15_000, thread: 0, context: "main", inserted: 3, updated: 1, deleted: 7, success: true, error: "",
            callSite: Self.site)
        Self.read(.save(save)) { lines in
            let text = lines[0].text
            guard case .annotation(let read) = lines[0].kind, case .save(let saved) = read.kind else {
                Issue.record("\(lines[0].kind)")
                return
            }
            #expect(text.string(saved.context) == save.context)
            #expect(saved.inserted == 3 && saved.updated == 1 && saved.deleted == 7)
            #expect(saved.time == Self.printed(save.durationNanoseconds))
            #expect(Self.callSite(text, saved.site) == save.callSite)
        }
        var failed = save
        (failed.success, failed.error) = (false, "validation failed at Post.title: too long\nsecond line")
        Self.read(.save(failed)) { lines in
            let text = lines[0].text
            guard case .annotation(let read) = lines[0].kind, case .saveFailed(let failure) = read.kind else {
                Issue.record("\(lines[0].kind)")
                return
            }
            #expect(text.string(failure.context) == save.context)
            #expect(failure.time == Self.printed(save.durationNanoseconds))
            #expect(Self.callSite(text, failure.site) == save.callSite)
            #expect(text.string(failure.error) == "validation failed at Post.title: too long second line")
        }
        let batch = BatchRequestEvent(start: 0, durationNanoseconds: 2_000_000, thread: 0, kind: "delete", entity: "Post", rowsAffected: 120, callSite: Self.site)
        Self.read(.batchRequest(batch)) { lines in
            let text = lines[0].text
            guard case .annotation(let read) = lines[0].kind, case .batch(let batched) = read.kind else {
                Issue.record("\(lines[0].kind)")
                return
            }
            #expect(batched.kind.map(text.string) == batch.kind)
            #expect(batched.entity.map(text.string) == batch.entity)
            #expect(batched.rows == batch.rowsAffected)
            #expect(batched.time == Self.printed(batch.durationNanoseconds))
            #expect(Self.callSite(text, batched.site) == batch.callSite)
        }
        let usage = PrefetchUsage(relationship: "Selfie.people", prefetched: 40, read: 3, callSite: Self.site)
        let context = ContextEvent(start: 0, thread: 0, context: "main", kind: .prefetchUsage, objectsRegistered: 0, objectsRegisteredPeak: 0, prefetchUsage: usage)
        Self.read(.context(context)) { lines in
            let text = lines[0].text
            guard case .annotation(let read) = lines[0].kind, case .prefetchUsage(let read) = read.kind else {
                Issue.record("\(lines[0].kind)")
                return
            }
            #expect(text.string(read.relationship) == usage.relationship)
            #expect(text.string(read.context) == context.context)
            #expect(read.prefetched == usage.prefetched && read.read == usage.read)
            #expect(Self.callSite(text, read.site) == usage.callSite)
        }
    }

    /// Every line of the golden logs tokenizes to a kind the writer writes:
    /// none is left unread.
    @Test(arguments: 1...4)
    func everyGoldenLineHasAKind(level: Int) throws {
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/sql-debug-level-\(level).log")
        let lines = try String(contentsOf: golden, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(!lines.isEmpty)
        for line in lines {
            var bytes = line
            bytes.withUTF8 { buffer in
                let bytes = UnsafeRawBufferPointer(buffer)
                guard let marker = SQLDebugLogLine.marker(in: bytes) else {
                Issue.record("no marker: \(line)")
                return
            }
                SQLDebugLogLine.read(bytes, marker: marker) { typed in
                    switch typed.kind {
                    case .detail, .other, .explainQueryPlan, .boundIntarray: Issue.record("\(typed.kind): \(line)")
                    case .annotation(let annotation):
                        if case .other = annotation.kind { Issue.record("an annotation of no kind: \(line)") }
                        // A time masked as `#.######s` does not end as a time does.
                        if !annotation.isWhole, !line.hasSuffix("#.######s") { Issue.record("not whole: \(line)") }
                    default: break
                    }
                }
            }
        }
    }

    static func callSite(_ text: SQLDebugLogBytes, _ site: SQLDebugLogCallSite) -> CallSite {
        CallSite(file: text.string(site.file), line: site.line)
    }
}
