import Foundation
import Probes
import Testing

/// The SQL debug log's tokenizer: a line's bytes, ASCII or not, to a typed
/// line (Faultline's and Core Data's kinds, as pasted).
@Suite struct SQLDebugLogLineTests {
    /// The typed line of `bytes`, given to `body`; nil when the line has no marker.
    @discardableResult
    static func read<T>(_ bytes: [UInt8], _ body: (SQLDebugLogLine) throws -> T) rethrows -> T? {
        try bytes.withUnsafeBytes { raw in
            guard let marker = SQLDebugLogLine.marker(in: raw) else { return nil }
            return try SQLDebugLogLine.read(raw, marker: marker, body)
        }
    }

    @discardableResult
    static func read<T>(_ line: String, _ body: (SQLDebugLogLine) throws -> T) rethrows -> T? {
        try read(Array(line.utf8), body)
    }

    /// The statement of a `sql:` line, with its marker.
    static func statement(_ line: [UInt8]) -> (SQLDebugLogLine.Marker?, String)? {
        read(line) { typed -> (SQLDebugLogLine.Marker?, String)? in
            guard case .statement(let sql) = typed.kind else { return nil }
            return (typed.marker, typed.text.string(sql))
        } ?? nil
    }

    static func statement(_ line: String) -> (SQLDebugLogLine.Marker?, String)? { statement(Array(line.utf8)) }

    /// The annotation of a line, as the kind and the text of each range asked for.
    static func annotation(_ line: String) -> SQLDebugLogAnnotation? {
        read(line) { typed -> SQLDebugLogAnnotation? in
            guard case .annotation(let annotation) = typed.kind else { return nil }
            return annotation
        } ?? nil
    }

    // MARK: Markers

    @Test func theMarkerIsFoundWhereverItStands() {
        let sql = "SELECT 0, t0.Z_PK FROM ZITEM t0"
        #expect(Self.statement("faultline: sql: \(sql)")! == (.faultline, sql))
        #expect(Self.statement("CoreData: sql: \(sql)")! == (.coreData, sql))
        // Timestamps, NSLog, a cut prefix, a table cell, Markdown indentation.
        #expect(Self.statement("2014-07-31 15:29:04.797 WordList[73416:2971038] CoreData: sql: \(sql)")! == (.coreData, sql))
        #expect(Self.statement(" oreData: sql: \(sql)")! == (.coreData, sql))
        // A table cell's bars after the statement are no part of it; SQL's `||` is.
        #expect(Self.statement("| 2 Only | CoreData: sql: \(sql) |")! == (.coreData, sql))
        #expect(Self.statement("| CoreData: sql: \(sql) | |")! == (.coreData, sql))
        #expect(Self.statement("CoreData: sql: SELECT a || b")! == (.coreData, "SELECT a || b"))
        #expect(Self.statement("    CoreData: sql: \(sql)")! == (.coreData, sql))
        // The unified log: the sender, and the subsystem and category when shown.
        #expect(Self.statement("2024-01-10 11:14:38.831786-0800 0x724d65 Debug 0x0 18248 14 MyApp: (CoreData) [com.apple.coredata:sql] sql: \(sql)")! == (.coreData, sql))
        #expect(Self.statement("MyApp: (CoreData) sql: \(sql)")! == (.coreData, sql))
        // Faultline's marker wins where both stand.
        #expect(Self.statement("CoreData: x faultline: sql: \(sql)")! == (.faultline, sql))
        // No marker: no typed line.
        #expect(Self.read("sql: \(sql)") { _ in true } == nil)
        #expect(Self.read("app: request 3 handled") { _ in true } == nil)
        #expect(Self.read("CoreDat: sql: \(sql)") { _ in true } == nil)
    }

    // MARK: Kinds

    @Test func eachKindOfLineIsTyped() throws {
        // A statement, trimmed.
        #expect(Self.statement("faultline: sql:   BEGIN DEFERRED \t")! == (.faultline, "BEGIN DEFERRED"))
        // Bound values: Faultline's and Core Data's.
        try Self.read("faultline: details: bind[2] = 'it''s'") { line in
            guard case .bind(let index, let value) = line.kind else { throw Failure.kind(line.kind) }
            #expect(index == 2 && line.text.string(value) == "'it''s'")
        }
        try Self.read("CoreData: details: SQLite bind[0] = \"s\"") { line in
            guard case .bind(let index, let value) = line.kind else { throw Failure.kind(line.kind) }
            #expect(index == 0 && line.text.string(value) == "\"s\"")
        }
        try Self.read("CoreData: details: bound intarray _Z_intarray0 values: 1,2,3") { line in
            guard case .boundIntarray(let values) = line.kind else { throw Failure.kind(line.kind) }
            #expect(line.text.string(values) == "_Z_intarray0 values: 1,2,3")
        }
        #expect(Self.read("CoreData: details: SQLite: EXPLAIN QUERY PLAN SELECT 1") { $0.kind } == .explainQueryPlan)
        // Plan rows: Faultline's, marked or not, indented; Core Data's in a detail.
        try Self.read("faultline: plan:   SCAN t0  [full scan]") { line in
            guard case .planRow(let row) = line.kind else { throw Failure.kind(line.kind) }
            #expect(line.text.string(row.detail) == "SCAN t0  [full scan]")
            #expect(line.text.string(row.row) == "SCAN t0" && row.isMarked)
        }
        try Self.read("CoreData: details: SQLite: 0 0 0 SCAN TABLE ZITEM AS t0") { line in
            guard case .planRow(let row) = line.kind else { throw Failure.kind(line.kind) }
            #expect(line.text.string(row.row) == "SCAN TABLE ZITEM AS t0" && !row.isMarked)
        }
        // Faultline's level 3 values: never read for phrases.
        try Self.read("faultline: details: fetched Post/p1 {title = \"SCAN bind[0] = EXPLAIN QUERY PLAN\"}") { line in
            guard case .fetchedObject(let object, let values) = line.kind else { throw Failure.kind(line.kind) }
            #expect(line.text.string(object) == "Post/p1")
            #expect(values.map(line.text.string) == "{title = \"SCAN bind[0] = EXPLAIN QUERY PLAN\"}")
        }
        try Self.read("faultline: details: values of Post/p1: {title = \"bound intarray \"}") { line in
            guard case .objectValues(let object, let values) = line.kind else { throw Failure.kind(line.kind) }
            #expect(line.text.string(object) == "Post/p1" && line.text.string(values) == "{title = \"bound intarray \"}")
        }
        #expect(Self.read("CoreData: details: something else") { $0.kind } == .detail)
        // Core Data's own errors and warnings: their message.
        try Self.read("CoreData: error: exception handling request |") { line in
            guard case .message(.error, let text) = line.kind else { throw Failure.kind(line.kind) }
            #expect(line.text.string(text) == "exception handling request")
        }
        try Self.read("CoreData: warning: CoreData+CloudKit: x") { line in
            guard case .message(.warning, let text) = line.kind else { throw Failure.kind(line.kind) }
            #expect(line.text.string(text) == "CoreData+CloudKit: x")
        }
        // Lines of no kind: Core Data's other levels and subsystems.
        for other in ["CoreData: debug: x", "CoreData: fault: Declared Objective-C type", "CoreData: CloudKit: x"] {
            #expect(Self.read(other) { $0.kind } == .other, "\(other)")
        }
    }

    @Test func annotationsAreTyped() throws {
        let time = try #require(Self.annotation("faultline: annotation: sql execution time: 0.000031s, rows: 2, changed: 0, scanned: 3, sorts: 1, purpose: fetch Selfie"))
        guard case .statementTime = time.kind else { throw Failure.annotation(time.kind) }
        let statement = "faultline: annotation: sql execution time: 0.000031s, rows: 2, changed: 0, scanned: 3, sorts: 1, purpose: fetch Selfie"
        let figures = try #require(Self.read(statement) { SQLDebugLogAnnotation.StatementTime(time, in: $0.text) })
        #expect(figures.time == .seconds(0.000031) && figures.rows == 2 && figures.changed == 0 && figures.scanned == 3 && figures.sorts == 1)
        #expect(time.isWhole)
        // Core Data's times and counts.
        #expect(Self.annotation("CoreData: annotation: sql connection fetch time: 0.0002s")?.kind == .connectionFetchTime(.seconds(0.0002)))
        #expect(Self.annotation("CoreData: annotation: total count request execution time: 0.0254s for count of 18988.")?.kind
            == .countRequestTime(.seconds(0.0254)))
        #expect(Self.annotation("CoreData: annotation: total fetch execution time: 0.0004s for 190 rows.")?.kind
            == .totalFetchTime(.seconds(0.0004), rows: 190))
        let intarray = try #require(Self.annotation("CoreData: annotation: Bound intarray _Z_intarray0"))
        guard case .boundIntarray = intarray.kind else { throw Failure.annotation(intarray.kind) }
        // Core Data's faults: the entity of the URI, or none (its URI on the next line).
        let uri = "x-coredata://0783522F-1851-4BC7-AE0D-AB4C83489E8B"
        let line = "CoreData: annotation: fault fulfilled from database for : 0xd000000000100002 <\(uri)/Country/p4>"
        try Self.read(line) { typed in
            guard case .annotation(let annotation) = typed.kind, case .fault = annotation.kind else { throw Failure.kind(typed.kind) }
            let fault = SQLDebugLogAnnotation.Fault(annotation, in: typed.text)
            #expect(fault.source == .database && fault.entity.map(typed.text.string) == "Country" && fault.primaryKey == 4 && !fault.awaitsObject)
            #expect(fault.lazyLoad == nil)
        }
        try Self.read("CoreData: annotation: fault fulfilled from database for : 0xd000000000100002") { typed in
            guard case .annotation(let annotation) = typed.kind, case .fault = annotation.kind else { throw Failure.kind(typed.kind) }
            let fault = SQLDebugLogAnnotation.Fault(annotation, in: typed.text)
            #expect(fault.entity == nil && fault.awaitsObject)
        }
        try Self.read("CoreData: annotation: to-many relationship fault \"tags\" for objectID 0xa7ab <\(uri)/Item/p1> fulfilled from database.  Got 3 rows") {
            typed in
            guard case .annotation(let annotation) = typed.kind, case .relationshipFault = annotation.kind else { throw Failure.kind(typed.kind) }
            let fault = SQLDebugLogAnnotation.RelationshipFault(annotation, in: typed.text)
            #expect(typed.text.string(fault.name) == "tags" && fault.entity.map(typed.text.string) == "Item" && fault.got == 3 && !fault.fromRowCache)
            #expect(fault.destinationCount == nil && annotation.isWhole)
        }
        try Self.read("CoreData: annotation: Prefetching with key 'attachments'.  Got 1581 rows.") { typed in
            guard case .annotation(let annotation) = typed.kind, case .prefetchingWithKey(let key) = annotation.kind else { throw Failure.kind(typed.kind) }
            #expect(typed.text.string(key) == "attachments")
        }
        // Levels 2 and 3: `fetch using`, its SQL, its rows, its values.
        let fetch = "CoreData: annotation: fetch using NSSQLiteStatement <0x81d3400> on entity 'Person' with sql text "
            + "'SELECT 0, t0.Z_PK FROM ZPERSON t0 WHERE t0.ZNAME = 'a returned 3 rows' ' returned 3 rows with values: ("
        try Self.read(fetch) { typed in
            guard case .annotation(let annotation) = typed.kind, case .fetchUsing = annotation.kind else { throw Failure.kind(typed.kind) }
            let read = SQLDebugLogAnnotation.FetchUsing(annotation, in: typed.text)
            #expect(read.entity.map(typed.text.string) == "Person")
            #expect(read.sql.map(typed.text.string) == "SELECT 0, t0.Z_PK FROM ZPERSON t0 WHERE t0.ZNAME = 'a returned 3 rows'")
            #expect(read.rows == 3 && read.values.map(typed.text.string) == "(")
            #expect(annotation.kind == .fetchUsing(rows: 3))
            #expect(annotation.isWhole)
        }
        // A count request's annotation at level 3 is of no kind the reader uses.
        #expect(Self.annotation("CoreData: annotation: count request <NSFetchRequest: 0x7fc6> (entity: Word) returned 18988")?.kind == .other)
    }

    /// An annotation that does not end as annotations end may go on on the
    /// next line (a wrap): it is not whole.
    @Test func anAnnotationCutByAWrapIsNotWhole() {
        #expect(Self.annotation("CoreData: annotation: total fetch execution time: 0.0004s for 190 rows.")?.isWhole == true)
        #expect(Self.annotation("CoreData: annotation: total fetch execution time: 0.0004s for 190")?.isWhole == true)
        #expect(Self.annotation("CoreData: annotation: to-many relationship fault \"tags\" for objectID 0xa7ab fulfilled from")?.isWhole == false)
        #expect(Self.annotation("faultline: annotation: sql execution time: 0.1s, rows: 1, changed: 0, purpose: fetch of the")?.isWhole == true)
        // A held annotation is read again whole, joined to its next line.
        var joined = "to-many relationship fault \"tags\" for objectID <x-coredata://A/Item/p1> fulfilled from database.  Got 3 rows"
        let (kind, fault) = joined.withUTF8 { buffer in
            let text = SQLDebugLogBytes(UnsafeRawBufferPointer(buffer))
            let annotation = SQLDebugLogAnnotation(text)
            return (annotation.kind, SQLDebugLogAnnotation.RelationshipFault(annotation, in: text))
        }
        #expect(kind == .relationshipFault)
        #expect(fault.got == 3)
    }

    // MARK: Bytes

    @Test func textBeyondASCIIIsReadByTheSameRules() throws {
        try Self.read("faultline: annotation: fault fulfilled from database for Café/p7 in 0.000020s (absent; read at Ünïcode/Sé.swift:9)") { typed in
            guard case .annotation(let annotation) = typed.kind, case .fault = annotation.kind else { throw Failure.kind(typed.kind) }
            let fault = SQLDebugLogAnnotation.Fault(annotation, in: typed.text)
            #expect(fault.entity.map(typed.text.string) == "Café" && fault.primaryKey == 7)
            let lazyLoad = SQLDebugLogLazyLoad(typed.text, try #require(fault.lazyLoad))
            #expect(lazyLoad.read.map { typed.text.string($0.file) } == "Ünïcode/Sé.swift" && lazyLoad.read?.line == 9)
            #expect(lazyLoad.reason == .absent)
        }
        #expect(Self.statement("faultline: sql: SELECT t0.pk FROM \"名前\" t0 WHERE t0.\"é\" = ?")! == (.faultline, "SELECT t0.pk FROM \"名前\" t0 WHERE t0.\"é\" = ?"))
        // Unicode's spaces around a plan row are trimmed.
        try Self.read("CoreData: details: \u{2003}0|0|0|SCAN TABLE ZÉ\u{00A0}") { typed in
            guard case .planRow(let row) = typed.kind else { throw Failure.kind(typed.kind) }
            #expect(typed.text.string(row.row) == "SCAN TABLE ZÉ")
        }
    }

    @Test func invalidUTF8IsReadAsReplacementCharacters() {
        // A lone continuation byte and a truncated sequence in a statement.
        let line = Array("faultline: sql: SELECT 'a".utf8) + [0x80] + Array("b' FROM t WHERE x = '".utf8) + [0xE2, 0x82] + Array("'".utf8)
        #expect(Self.statement(line)! == (.faultline, "SELECT 'a\u{FFFD}b' FROM t WHERE x = '\u{FFFD}'"))
        // Invalid bytes before the marker do not hide it.
        #expect(Self.statement([0xFF, 0xFE, 0x20] + Array("CoreData: sql: SELECT 1".utf8))! == (.coreData, "SELECT 1"))
    }

    @Test func aLineEndingInACarriageReturnReadsAsWithoutIt() throws {
        for end in ["\r", ""] {
            #expect(Self.statement("faultline: sql: SELECT 1\(end)")! == (.faultline, "SELECT 1"))
            try Self.read("faultline: annotation: sql execution time: 0.1s, rows: 1, changed: 0, purpose: fault\(end)") { typed in
                guard case .annotation(let annotation) = typed.kind, case .statementTime = annotation.kind else { throw Failure.kind(typed.kind) }
                let time = SQLDebugLogAnnotation.StatementTime(annotation, in: typed.text)
                #expect(time.purpose.map(typed.text.string) == "fault")
            }
            try Self.read("faultline: annotation: fault fulfilled from database for A/p1 in 0.1s (absent; read at A.swift:3)\(end)") { typed in
                guard case .annotation(let annotation) = typed.kind, case .fault = annotation.kind else { throw Failure.kind(typed.kind) }
                let fault = SQLDebugLogAnnotation.Fault(annotation, in: typed.text)
                #expect(fault.lazyLoad.map(typed.text.string) == "absent; read at A.swift:3")
            }
            try Self.read("faultline: details: bind[0] = 3\(end)") { typed in
                guard case .bind(_, let value) = typed.kind else { throw Failure.kind(typed.kind) }
                #expect(typed.text.string(value) == "3")
            }
        }
    }

    @Test func colourCodesAreRemoved() {
        #expect(Self.statement("\u{1B}[32mCoreData: sql: \u{1B}[1mSELECT 1\u{1B}[0m")! == (.coreData, "SELECT 1"))
    }

    // MARK: Lines without a marker

    static func unmarked<T>(_ line: String, _ body: (SQLDebugLogUnmarkedLine) -> T) -> T {
        Array(line.utf8).withUnsafeBytes { SQLDebugLogUnmarkedLine.read($0, body) }
    }

    @Test func unmarkedLinesAreReadAsTheReaderAsks() throws {
        // The sqlite3 shell's plan rows, in each form.
        for (line, row) in [
            ("0|0|0|SCAN TABLE ZPERSON AS t0", "SCAN TABLE ZPERSON AS t0"), ("0 0 1 SEARCH TABLE Z_1TAGS AS t1 USING INDEX i (a=?)", "SEARCH TABLE Z_1TAGS AS t1 USING INDEX i (a=?)"),
            ("|--SCAN t0", "SCAN t0"), ("`--USE TEMP B-TREE FOR DISTINCT", "USE TEMP B-TREE FOR DISTINCT"), ("0     EXECUTE LIST SUBQUERY 1", "EXECUTE LIST SUBQUERY 1"),
        ] {
            #expect(Self.unmarked(line) { line in line.planRow.map { line.text.string($0.row) } } == row, "\(line)")
        }
        #expect(Self.unmarked("app: request 3 handled") { $0.planRow } == nil)
        // A cut prefix, and a paste without one.
        let recovered = Self.unmarked("ata: sql: BEGIN EXCLUSIVE") { line in
            line.withCutPrefix.map { recovered -> String in
                guard case .statement(let sql) = recovered.kind else { return "\(recovered.kind)" }
                return "\(recovered.marker!) \(recovered.text.string(sql))"
            }
        }
        #expect(recovered == "coreData BEGIN EXCLUSIVE")
        #expect(Self.unmarked("ine: plan: SCAN t0") { $0.withCutPrefix?.marker } == .faultline)
        #expect(Self.unmarked("Core: sql: SELECT 1") { $0.withCutPrefix } == nil)
        #expect(Self.unmarked("    sql: SELECT 1") { line in line.withoutPrefix.map { $0.marker == nil } } == true)
        #expect(Self.unmarked("sequel: SELECT 1") { $0.withoutPrefix } == nil)
        // What continues a statement or an annotation, and what starts a line of its own.
        #expect(Self.unmarked("  FROM ZGEOGRAPHICREGION t0") { $0.continuesStatement })
        #expect(Self.unmarked("VALUES(?, ?)") { $0.continuesStatement })
        #expect(!Self.unmarked("FROMAGE") { $0.continuesStatement })
        #expect(Self.unmarked("<x-coredata://A/Country/p4>") { $0.isObjectURI })
        for line in ["2024-01-10 x", "٣ things", "sqlite> .mode", "x: sql: SELECT", "sql: x: annotation: y", "CoreData stuff", "faultline"] {
            #expect(Self.unmarked(line) { $0.startsLikeALogLine }, "\(line)")
        }
        for line in ["(", "a", "sql: x", ": sq", "x:sql: SELECT"] {
            #expect(!Self.unmarked(line) { $0.startsLikeALogLine }, "\(line)")
        }
        #expect(!Self.unmarked("ORDER BY t0.ZNAME") { $0.startsLikeALogLine })
        // A plan row a page wrapped.
        #expect(Self.unmarked("USING INDEX ZMOOD_ZDATE (ZDATE>?)") { SQLDebugLogPlanRow.continues("SEARCH TABLE ZMOOD AS t0", with: $0) })
        #expect(Self.unmarked("ZMOOD_ZDATE") { SQLDebugLogPlanRow.continues("SEARCH TABLE ZMOOD AS t0 USING INDEX", with: $0) })
        #expect(!Self.unmarked("ZMOOD ZDATE") { SQLDebugLogPlanRow.continues("SEARCH TABLE ZMOOD AS t0 USING INDEX", with: $0) })
        #expect(!Self.unmarked("0|0|0|SCAN TABLE ZX") { SQLDebugLogPlanRow.continues("SEARCH TABLE ZMOOD AS t0 USING INDEX", with: $0) })
        #expect(SQLDebugLogPlanRow.kept("  SCAN t0 [full scan] ") == "SCAN t0")
        #expect(SQLDebugLogPlanRow.kept("SCAN t0") == "SCAN t0")
    }

    @Test func statementsLeftUnfinishedAreKnown() {
        func unfinished(_ sql: String) -> Bool {
            var sql = sql
            return sql.withUTF8 { SQLDebugLogContinuation.isUnfinished(SQLDebugLogBytes(UnsafeRawBufferPointer($0))) }
        }
        #expect(unfinished("SELECT t0.Z_ENT, t0.Z_PK FROM"))
        #expect(unfinished("SELECT (a, b"))
        #expect(unfinished("SELECT a,"))
        #expect(!unfinished("SELECT a FROM t WHERE b = ')('"))
        #expect(!unfinished("SELECT a FROM ZFROM"))
    }

    @Test func levelThreeValuesAreFollowedToTheirClosingParenthesis() {
        var values = SQLDebugLogContinuation.Values()
        for line in ["(", "    \"<NSManagedObject: 0x1> (entity: Person; id: 0x2 ; data: \\\"(\\\")\",", ")"] {
            Array(line.utf8).withUnsafeBytes { values.scan($0) }
        }
        #expect(values.depth == 0)
    }

    enum Failure: Error {
        case kind(SQLDebugLogLine.Kind)
        case annotation(SQLDebugLogAnnotation.Kind)
    }
}
