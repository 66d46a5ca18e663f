import Foundation
import Probes

/// Core Data's fetches, as its SQL debug log writes them: each annotation
/// goes to the statement it follows.
///
/// A fetch prints its SELECT, then `sql connection fetch time`, and, when
/// it is done, `total fetch execution time: … for N rows`. A prefetch is a
/// fetch run inside another: its SELECT and all its annotations come between
/// the SELECT of the fetch that runs it and that fetch's own total, and a
/// prefetch of a prefetch nests the same way:
///
/// ```
/// CoreData: sql: SELECT … FROM ZITEM t0                              the fetch
/// CoreData: annotation: sql connection fetch time: 0.0003s
/// CoreData: sql: SELECT … FROM ZATTACHMENT t0 WHERE … _Z_intarray0   its prefetch
/// CoreData: annotation: sql connection fetch time: 0.0021s
/// CoreData: annotation: total fetch execution time: 0.0024s for 1581 rows.
/// CoreData: annotation: Prefetching with key 'attachments'.  Got 1581 rows.
/// CoreData: annotation: total fetch execution time: 0.0053s for 190 rows.
/// ```
///
/// So the fetches under way are a stack: a SELECT followed by its
/// connection time opens one, a total closes the innermost. A statement
/// that no annotation follows (the `SELECT … FROM Z_METADATA` of a store
/// being opened) opens none, and a statement that is no SELECT (a save)
/// ends them all. At levels 2 and 3 a fetch also prints `fetch using
/// NSSQLiteStatement <0x…> on entity 'X' with sql text '…' returned N
/// rows` before its total: the fetch counts once, with its rows once.
/// Level 3 adds the fetched values after it, which are kept with the fetch.
extension SQLLogAnalyzer {
    /// A Core Data fetch whose SELECT was read and whose total was not.
    struct OpenFetch {
        /// The statement's shape as kept (the statements table's key), and
        /// where it is in the table (nil when the table is full).
        var shape: String
        var shapeIndex: Int?
        /// The statement's number among the log's statements.
        var serial: Int
        var line: Int
        /// The table it reads, and whether it is a lookup by key (a fault's SELECT).
        var entity: String
        var isKeyLookup: Bool
        /// Whether a `fetch using … returned N rows` gave its rows already.
        var rowsReported = false
    }

    /// The statement finished last, as the fetch stack needs it.
    struct FinishedStatement {
        var shape: String
        var shapeIndex: Int?
        var serial: Int
        var line: Int
        var isSelect: Bool
        var entity: String
        var isKeyLookup: Bool

        /// Becomes `other`, field by field.
        mutating func replace(with other: consuming FinishedStatement) {
            (shape, shapeIndex, serial, line, isSelect, entity, isKeyLookup) =
                (other.shape, other.shapeIndex, other.serial, other.line, other.isSelect, other.entity, other.isKeyLookup)
        }
    }

    /// Fetches open at once at most (prefetches nest a few deep); beyond,
    /// the oldest is dropped (the limit noted).
    static let maximumOpenFetches = 64
    /// Fetches whose level 3 values are kept at most.
    public static let maximumFetchValues = 1_000

    // MARK: The stack

    /// The statement just finished is a fetch under way: its connection
    /// time (or its row count) followed it.
    mutating func openFetch(_ statement: FinishedStatement) {
        guard statement.isSelect, openFetches.last?.serial != statement.serial else { return }
        if openFetches.count == Self.maximumOpenFetches {
            openFetches.removeFirst()
            note(.openFetches)
        }
        openFetches.append(OpenFetch(
            shape: statement.shape, shapeIndex: statement.shapeIndex, serial: statement.serial, line: statement.line, entity: statement.entity,
            isKeyLookup: statement.isKeyLookup))
    }

    /// Finishes the statement under way, if any, as a fetch that its
    /// annotation now shows is under way.
    mutating func finishPendingFetch() {
        guard pending != nil else { return }
        finishStatement(seconds: nil, rows: nil)
        if let last = lastFinished { openFetch(last) }
    }

    /// `total fetch execution time: … for N rows`: closes the innermost
    /// fetch under way, which gets the rows unless its `fetch using` line
    /// gave them already.
    mutating func closeFetch(rows: Int?, line: Int) {
        if rows != nil { analysis.rowCountAnnotations += 1 }
        finishPendingFetch()
        guard let fetch = openFetches.popLast() else {
            // No statement in the log for it: a paste that starts after the SELECT.
            if let rows { countFetch(rows: rows, shapeIndex: nil) }
            noteCandidateFetch(nil)
            return
        }
        if let rows, !fetch.rowsReported { countFetch(rows: rows, shapeIndex: fetch.shapeIndex) }
        // The outermost fetch is the one faults come from; a prefetch is not.
        if openFetches.isEmpty { noteCandidateFetch(fetch) }
    }

    /// A fault's or relationship fault's annotation: the SELECT just before
    /// it was the fault's, not a fetch still under way.
    mutating func closeFaultFetch() {
        if let last = lastFinished, openFetches.last?.serial == last.serial { openFetches.removeLast() }
    }

    /// Counts a fetch that reported `rows`, giving them to the statement
    /// whose shape is at `shapeIndex` in the statements table (nil: a shape
    /// not listed, or no statement).
    private mutating func countFetch(rows: Int, shapeIndex: Int?) {
        analysis.fetchesWithRows += 1
        analysis.rowsReported.addSaturated(rows)
        if let index = shapeIndex {
            shapeTable[index].summary.rows.addSaturated(rows)
        } else {
            analysis.annotationsWithoutStatement += 1
        }
    }

    // MARK: fetch using NSSQLiteStatement

    /// What a `fetch using NSSQLiteStatement <0x…> on entity 'X' with sql
    /// text '…' returned N rows[ with values: (…]` annotation says.
    struct FetchUsing {
        var entity: String?
        var sql: String?
        var rows: Int
        /// What follows `with values: ` on the line (level 3), nil at level 2.
        var values: String?

        /// The annotation as the tokenizer read it from `text`.
        init(_ fetch: SQLDebugLogAnnotation.FetchUsing, _ text: SQLDebugLogBytes) {
            entity = fetch.entity.map { text.string($0) }
            sql = fetch.sql.map { text.string($0) }
            rows = fetch.rows
            values = fetch.values.map { text.string($0) }
        }
    }

    /// A `fetch using … returned N rows` annotation (levels 2 and 3): the
    /// rows of the fetch under way, or, when the log has no `sql:` line for
    /// its SQL (a paste of the annotation alone), a statement of its own.
    mutating func noteFetchUsing(_ fetch: FetchUsing, line: Int) {
        analysis.rowCountAnnotations += 1
        if let entity = fetch.entity { learnEntityName(entity) }
        finishPendingFetch()
        let shape = fetch.sql.map { sql in
            guard let known = knownStatement(sql) else { return keep(SQLShape.normalize(sql)) }
            if known.shapeCut { note(.storedText) }
            return known.keptShape
        }
        var target: String?
        // A fetch prints one `fetch using` line: a second one of the same
        // statement, with no `sql:` line between them, is a fetch of its own.
        let top = openFetches.last.flatMap { top in
            shape == nil || top.shape == shape || Self.isSame(top, as: fetch, shape: shape, last: lastFinished) ? top : nil
        }
        if let top, fetch.sql == nil || fetchUsingSerial != top.serial {
            if !top.rowsReported {
                openFetches[openFetches.count - 1].rowsReported = true
                countFetch(rows: fetch.rows, shapeIndex: top.shapeIndex)
            }
            fetchUsingSerial = top.serial
            target = top.shape
        } else if top == nil, let shape, let last = lastFinished, last.shape == shape, last.line < line, fetchUsingSerial != last.serial {
            // Its statement was read and its fetch closed already: counted then.
            fetchUsingSerial = last.serial
            target = shape
        } else if let sql = fetch.sql {
            // The SQL is only in the annotation: read it as the statement.
            // A fetch before it that printed its own line is done.
            if let top, top.serial == fetchUsingSerial { openFetches.removeLast() }
            analysis.statementsFromFetchAnnotations += 1
            if let known = knownStatement(sql), known.control == nil {
                pending = PendingStatement(known, line: line)
            } else {
                pending = PendingStatement(shape: SQLShape.normalize(sql), sql: sql, line: line, control: nil)
            }
            finishPendingFetch()
            if let top = openFetches.last, top.serial == lastFinished?.serial {
                openFetches[openFetches.count - 1].rowsReported = true
                countFetch(rows: fetch.rows, shapeIndex: top.shapeIndex)
                target = top.shape
            } else {
                countFetch(rows: fetch.rows, shapeIndex: lastFinished?.shapeIndex)
                target = lastFinished?.shape
            }
            fetchUsingSerial = lastFinished?.serial
        } else {
            countFetch(rows: fetch.rows, shapeIndex: nil)
        }
        if let values = fetch.values { startValues(values, fetch: fetch, shape: target ?? "", line: line) }
    }

    /// Whether the innermost fetch is the one a `fetch using` line names
    /// though its SQL reads otherwise (a paste that added to a line, a
    /// table cell's bar): it is the statement just read, its rows not yet
    /// given, and its table is the entity's (Core Data's `Z` and the name in
    /// capitals) or one text begins the other.
    static func isSame(_ top: OpenFetch, as fetch: FetchUsing, shape: String?, last: FinishedStatement?) -> Bool {
        guard top.serial == last?.serial, !top.rowsReported else { return false }
        if let entity = fetch.entity, top.entity.uppercased() == "Z" + entity.uppercased() { return true }
        guard let shape else { return true }
        return top.shape.hasPrefix(shape) || shape.hasPrefix(top.shape)
    }

    // MARK: Level 3 values

    /// Values being read, line by line, up to the parenthesis that closes them.
    struct PendingValues {
        var index: Int?
        /// The text's UTF-8 bytes, made a `String` when the values end.
        var text: [UInt8]
        var bytes: Int
        var lines: Int
        /// Where the parentheses stand.
        var nesting = SQLDebugLogContinuation.Values()
    }

    private mutating func startValues(_ first: String, fetch: FetchUsing, shape: String, line: Int) {
        var values = PendingValues(index: nil, text: [], bytes: 0, lines: 1)
        if analysis.fetchValues.count < Self.maximumFetchValues {
            values.index = analysis.fetchValues.count
            analysis.fetchValues.append(.init(
                line: line, entity: keep(fetch.entity ?? SQLLogAnalysis.unknownEntity), shape: shape, rows: fetch.rows, values: "", lines: 1))
        } else {
            note(.fetchValues)
        }
        var text = first
        text.withUTF8 { buffer in
            let bytes = SQLDebugLogBytes(UnsafeRawBufferPointer(buffer))
            values.nesting.scan(bytes.bytes)
            Self.append(bytes.slice(bytes.trimmingSpacesAndReturns(bytes.all)), to: &values)
        }
        pendingValues = values
        if values.nesting.depth <= 0 { endValues() }
    }

    /// A line of values, taken without decoding beyond what is kept.
    mutating func consumeValuesLine(_ bytes: UnsafeRawBufferPointer) {
        // Moved out and back, not copied: the text grows in place.
        guard var values = pendingValues.take() else { return }
        analysis.logLines += 1
        values.lines += 1
        values.nesting.scan(bytes)
        if values.bytes <= Self.maximumStoredTextBytes {
            // Trimmed as read (decoding never adds nor takes a space).
            SQLDebugLogBytes.withText(bytes) { line in Self.append(line.slice(line.trimmingSpacesAndReturns(line.all)), to: &values) }
        } else {
            // Beyond what is kept: only its length (trimmed, and the space joining it).
            let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D }
            let length = bytes.count - bytes.prefix(while: isSpace).count - bytes.reversed().prefix(while: isSpace).count
            if length > 0 { values.bytes = values.bytes.addingSaturated(1 + length) }
        }
        let closed = values.nesting.depth <= 0
        pendingValues = values
        if closed { endValues() }
    }

    /// Appends a line's UTF-8 bytes to the values' text, after a space.
    private static func append(_ line: UnsafeRawBufferPointer, to values: inout PendingValues) {
        guard !line.isEmpty else { return }
        let added = (values.text.isEmpty ? 0 : 1) + line.count
        values.bytes = values.bytes.addingSaturated(added)
        if !values.text.isEmpty { values.text.append(0x20) }
        values.text.append(contentsOf: line)
    }

    /// The values are read (their parenthesis closed, or a log line came).
    mutating func endValues() {
        guard let values = pendingValues else { return }
        pendingValues = nil
        guard let index = values.index else { return }
        var text = String(decoding: values.text, as: UTF8.self)
        if text.utf8.count > Self.maximumStoredTextBytes || values.bytes > text.utf8.count {
            note(.fetchValuesText)
            text = Self.prefix(text, bytes: Self.maximumStoredTextBytes) + "… (\(values.bytes.groupedDigits) bytes in \(values.lines.groupedDigits) lines)"
        }
        analysis.fetchValues[index].values = text
        analysis.fetchValues[index].lines = values.lines
    }

    /// The first `bytes` bytes of `text`, whole characters only.
    static func prefix(_ text: String, bytes: Int) -> String {
        let utf8 = Array(text.utf8.prefix(bytes + 1))
        guard utf8.count > bytes else { return text }
        // Back to the start of a character (not inside a UTF-8 sequence).
        var end = bytes
        while end > 0, utf8[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: utf8[..<end], as: UTF8.self)
    }
}
