import Foundation
@testable import Reporting
@testable import SQLLogViewer
import Testing

/// Every line of a real Core Data log read: consecutive `fetch using`
/// lines, shell plan rows with no EXPLAIN before them, bound values, table
/// residue, Core Data's own error and warning lines, and a headline that
/// counts every statement and shape.
@Suite struct RealLogLineTests {
    static func analyze(_ text: String) -> SQLLogAnalysis {
        var analyzer = SQLLogAnalyzer()
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) { analyzer.consume(line: Data(line.utf8)) }
        return analyzer.finish()
    }

    static func corpus(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/sqldebug-corpus/\(name)")
        return try String(contentsOf: url, encoding: .utf8)
    }

    static func json(_ analysis: SQLLogAnalysis) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: try ReportFile.json(analysis)) as? [String: Any])
    }

    // MARK: 1. Consecutive fetch lines

    /// The corpus's real level 3 log (file 17: one `fetch using … returned
    /// 6 rows with values:` line and its values), pasted twice: two
    /// fetches, two statements, 12 rows.
    @Test func aRealLevel3LogPastedTwiceIsTwoStatementsAndTwelveRows() throws {
        let log = try Self.corpus("17-openradar-fetch-returned-rows-level3.log")
        let once = Self.analyze(log)
        #expect(once.statements.map(\.count) == [1])
        #expect(once.rowsReported == 6)
        let twice = Self.analyze(log + log)
        #expect(twice.statements.map(\.count) == [2])
        #expect(twice.statements.map(\.rows) == [12])
        #expect(twice.rowsReported == 12)
        #expect(twice.fetchesWithRows == 2)
        #expect(twice.statementsFromFetchAnnotations == 2)
        #expect(twice.totalStatements == 2)
        // The JSON agrees with itself: every row count annotation is a fetch's.
        let json = try Self.json(twice)
        #expect(json["rowCountAnnotations"] as? Int == 2)
        #expect(json["fetchesWithRows"] as? Int == 2)
        #expect(twice.limitsReached.isEmpty)
    }

    /// Level 2 `fetch using` lines one after another (an N+1 whose `sql:`
    /// lines were filtered out): each a statement, with its own rows, and
    /// no fetch left open to reach the bound of open fetches.
    @Test func consecutiveLevel2FetchLinesAreStatementsOfTheirOwn() {
        let line = "CoreData: annotation: fetch using NSSQLiteStatement <0x60800008bf40> on entity 'Person' with sql text "
            + "'SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZAGE FROM ZPERSON t0 WHERE  t0.Z_PK = ? ' returned 1 rows"
        let analysis = Self.analyze(Array(repeating: line, count: 500).joined(separator: "\n"))
        #expect(analysis.statements.map(\.count) == [500])
        #expect(analysis.statements.map(\.rows) == [500])
        #expect(analysis.fetchesWithRows == 500)
        #expect(analysis.rowCountAnnotations == 500)
        #expect(analysis.limitsReached.isEmpty)
    }

    /// Not fired: a `fetch using` line after its own `sql:` line, and the
    /// total after it, are one fetch of one statement (levels 2 and 3).
    @Test func aFetchLineAfterItsStatementIsThatStatementsFetch() {
        let analysis = Self.analyze("""
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZPERSON t0 WHERE  t0.Z_PK = ?
            CoreData: details: SQLite bind[0] = 1
            CoreData: annotation: sql connection fetch time: 0.0001s
            CoreData: annotation: fetch using NSSQLiteStatement <0x1> on entity 'Person' with sql text 'SELECT 0, t0.Z_PK FROM ZPERSON t0 WHERE  t0.Z_PK = ? ' returned 1 rows
            CoreData: annotation: total fetch execution time: 0.0002s for 1 rows.
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZPERSON t0 WHERE  t0.Z_PK = ?
            CoreData: details: SQLite bind[0] = 2
            CoreData: annotation: sql connection fetch time: 0.0001s
            CoreData: annotation: fetch using NSSQLiteStatement <0x1> on entity 'Person' with sql text 'SELECT 0, t0.Z_PK FROM ZPERSON t0 WHERE  t0.Z_PK = ? ' returned 1 rows
            CoreData: annotation: total fetch execution time: 0.0002s for 1 rows.
            """)
        #expect(analysis.statements.map(\.count) == [2])
        #expect(analysis.statements.map(\.rows) == [2])
        #expect(analysis.fetchesWithRows == 2)
        #expect(analysis.rowCountAnnotations == 4)
        #expect(analysis.statementsFromFetchAnnotations == 0)
    }

    // MARK: 2. Shell plan rows after a statement

    static let fetchThenShellRow = """
        CoreData: sql: SELECT 0, t0.Z_PK, t0.ZDATE FROM ZMOOD t0 ORDER BY t0.ZDATE
        CoreData: annotation: sql connection fetch time: 0.0001s
        CoreData: annotation: total fetch execution time: 0.0002s for 3 rows.
        0|0|0|SCAN TABLE ZMOOD AS t0
        """

    @Test func aShellPlanRowWithNoExplainBeforeItBelongsToTheStatementBefore() {
        let analysis = Self.analyze(Self.fetchThenShellRow)
        #expect(analysis.planRows.map(\.row) == ["SCAN TABLE ZMOOD AS t0"])
        #expect(analysis.fullScans == ["SCAN TABLE ZMOOD AS t0"])
        #expect(analysis.planRows.first?.firstLine == 4)
        #expect(analysis.skippedLines == 0)
    }

    /// Not fired: a query's result row in the shell's form (`1|Maui|3`), and
    /// a plan row with no statement before it in a log of marked lines.
    @Test func aResultRowOrARowBeforeAnyStatementIsNoPlanRow() {
        let result = Self.analyze("""
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZMOOD t0
            CoreData: annotation: sql connection fetch time: 0.0001s
            1|Maui|3
            """)
        #expect(result.planRows.isEmpty)
        #expect(result.skippedLines == 1)
        let before = Self.analyze("""
            CoreData: annotation: total fetch execution time: 0.0002s for 3 rows.
            0|0|0|SCAN TABLE ZMOOD AS t0
            """)
        #expect(before.planRows.isEmpty)
    }

    // MARK: 3. Bound values

    static let boundValues = """
        CoreData: sql: SELECT 0, t0.Z_PK, t0.ZNAME FROM ZISLAND t0 WHERE  t0.ZNAME = ?
        CoreData: details: SQLite bind[0] = "Maui"
        CoreData: annotation: sql connection fetch time: 0.0001s
        CoreData: annotation: total fetch execution time: 0.0002s for 1 rows.
        CoreData: sql: SELECT 0, t0.Z_PK, t0.ZNAME FROM ZISLAND t0 WHERE  t0.ZNAME = ?
        CoreData: details: SQLite bind[0] = "Maui"
        CoreData: annotation: sql connection fetch time: 0.0001s
        CoreData: annotation: total fetch execution time: 0.0002s for 1 rows.
        CoreData: sql: SELECT 0, t0.Z_PK, t0.ZNAME FROM ZISLAND t0 WHERE  t0.ZNAME = ?
        CoreData: details: SQLite bind[0] = "<script>x\u{07}"
        CoreData: annotation: sql connection fetch time: 0.0001s
        CoreData: annotation: total fetch execution time: 0.0002s for 0 rows.
        """

    @Test func boundValuesAreKeptPerSetOfValuesAndShownEscaped() throws {
        let analysis = Self.analyze(Self.boundValues)
        let shape = try #require(analysis.statements.first)
        #expect(shape.count == 3)
        #expect(shape.duplicates == 1)
        let values = try #require(shape.values)
        #expect(values.map(\.values) == [["\"Maui\""], ["\"<script>x\u{07}\""]])
        #expect(values.map(\.executions) == [2, 1])
        #expect(values.map(\.firstLine) == [1, 9])
        let text = SQLLogText.render(analysis)
        #expect(text.contains("\nBound values (the first 4 distinct sets of each shape; ×N: executions that bound them)\n"))
        #expect(text.contains("        2× line 1: \"Maui\"\n"))
        #expect(text.contains("        1× line 9: \"<script>x"))
        #expect(!text.contains("\u{07}"))
        let html = HTMLLogAnalysis.render(analysis, title: "values")
        #expect(html.contains("<td><code>&quot;&lt;script&gt;x"))
        #expect(!html.contains("\"<script>x"))
        let json = try Self.json(analysis)
        let statement = try #require((json["statements"] as? [[String: Any]])?.first)
        let sets = try #require(statement["values"] as? [[String: Any]])
        #expect(sets.map { $0["executions"] as? Int } == [2, 1])
    }

    /// Bounded: the first 4 distinct sets of a shape, 8 values of each,
    /// each cut at 64 bytes; a statement without values has none.
    @Test func boundValuesAreBounded() throws {
        var lines: [String] = []
        for execution in 0..<10 {
            lines.append("faultline: sql: INSERT INTO \"T\" (a, b, c, d, e, f, g, h, i, j) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
            for index in 0..<10 { lines.append("faultline: details: bind[\(index)] = '\(String(repeating: "x", count: 100))\(execution)'") }
            lines.append("faultline: annotation: sql execution time: 0.000010s, rows: 0, changed: 1, purpose: insert T")
        }
        lines += ["faultline: sql: BEGIN", "faultline: annotation: sql execution time: 0.000010s, rows: 0, changed: 0, purpose: begin"]
        let analysis = Self.analyze(lines.joined(separator: "\n"))
        let insert = try #require(analysis.statements.first { $0.shape.hasPrefix("INSERT") })
        let values = try #require(insert.values)
        #expect(values.count == 4)
        #expect(values.allSatisfy { $0.values.count == 8 && $0.valuesNotShown == 2 && $0.executions == 1 })
        #expect(values.allSatisfy { $0.values.allSatisfy { $0 == "'" + String(repeating: "x", count: 63) + "…" } })
        #expect(analysis.statements.first { $0.shape == "BEGIN" }?.values == nil)
    }

    // MARK: 4. Table residue

    /// The corpus's level table (file 12): ` |` after the statement and its
    /// bound value is no part of them.
    @Test func tableResidueIsNoPartOfAStatementOrItsValues() throws {
        let analysis = Self.analyze(try Self.corpus("12-raymccrae-level-table.log"))
        #expect(analysis.statements.map(\.shape) == ["SELECT ?, t0.Z_PK, t0.Z_OPT, t0.ZAGE, t0.ZFIRSTNAME, t0.ZLASTNAME, t0.ZPERSONID FROM ZPERSON t0 WHERE t0.ZAGE > ?"])
        #expect(analysis.statements.first?.values?.first?.values == ["18"])
        let pasted = Self.analyze("""
            | CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0 WHERE t0.ZA = ? | |
            | CoreData: annotation: sql connection fetch time: 0.0001s | |
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0 WHERE t0.ZA = ?
            CoreData: annotation: sql connection fetch time: 0.0001s
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0 WHERE t0.ZA = ? || 'x'
            CoreData: annotation: sql connection fetch time: 0.0001s
            """)
        #expect(pasted.statements.map(\.count).sorted() == [1, 2])
        #expect(pasted.statements.contains { $0.shape.hasSuffix("|| ?") })
    }

    // MARK: 5. Core Data's errors and warnings

    @Test func coreDataErrorAndWarningLinesAreFindingsWithTheirLines() throws {
        let analysis = Self.analyze(try Self.corpus("13-visionboard-cloudkit-noise.log"))
        let findings = try #require(analysis.findings)
        #expect(findings.map(\.line) == [16, 20, 23, 26])
        #expect(findings.map(\.level) == [.warning, .error, .error, .error])
        #expect(findings[1].message.contains("Failed to set up CloudKit integration for store"))
        #expect(analysis.errorLines == 3)
        #expect(analysis.warningLines == 1)
        let text = SQLLogText.render(analysis)
        #expect(text.contains("\nCore Data's errors and warnings: 3 error lines, 1 warning line\n  line 16 warning: CoreData+CloudKit: "))
        #expect(HTMLLogAnalysis.render(analysis, title: "errors").contains("<li class=\"error\">line 20 error: <code>CoreData+CloudKit: "))
        let json = try Self.json(analysis)
        #expect((json["findings"] as? [[String: Any]])?.map { $0["line"] as? Int } == [16, 20, 23, 26])
    }

    @Test func aDisconnectionAfterAnErrorIsAnErrorOfTheLog() throws {
        let analysis = Self.analyze("""
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0
            CoreData: error: (522) I/O error for database at /tmp/x.sqlite.  SQLite error code:522, 'not an error' errno:1
            CoreData: annotation: Disconnecting from sqlite database due to an error.
            CoreData: annotation: sql connection fetch time: 0.0001s
            """)
        let findings = try #require(analysis.findings)
        #expect(findings.map(\.line) == [2, 3])
        #expect(findings.map(\.level) == [.error, .error])
        #expect(findings[1].message == "Disconnecting from sqlite database due to an error.")
        #expect(analysis.statements.map(\.count) == [1])
    }

    /// Not fired: a log with no error or warning line has no findings, and
    /// an `error:` line without Core Data's marker (Xcode prints it once more
    /// with one) is not read twice.
    @Test func aLogWithoutErrorLinesHasNoFindings() throws {
        #expect(Self.analyze(Self.fetchThenShellRow).findings == nil)
        let analysis = Self.analyze(try Self.corpus("23-dbclient-issue-xcode-console-errors.log"))
        #expect(analysis.findings?.map(\.line) == [2, 4])
        #expect(try Self.json(Self.analyze(Self.fetchThenShellRow))["findings"] == nil)
    }

    // MARK: 7. The headline counts everything

    @Test func theHeadlineCountsEveryStatementAndShapeBeyondTheTable() throws {
        let lines = (0..<20_000).flatMap { SQLLogLimitTests.statement("SELECT t0.c\($0) FROM \"T\" t0") }
        let (_, analysis) = SQLLogLimitTests.analyze(lines)
        #expect(analysis.totalStatements == 20_000)
        #expect(analysis.totalShapes == 20_000)
        let headline = "20,000 statements in 20,000 shapes (10,000 shapes listed; 10,000 statements of later shapes not counted apart)"
        #expect(SQLLogText.render(analysis).contains("\n\(headline); 0 transactions"))
        #expect(HTMLLogAnalysis.render(analysis, title: "shapes").contains(headline))
        // Repeated shapes beyond the table are counted once each.
        let repeated = (0..<10_100).flatMap { SQLLogLimitTests.statement("SELECT t0.c\($0) FROM \"T\" t0") }
            + (10_000..<10_100).flatMap { SQLLogLimitTests.statement("SELECT t0.c\($0) FROM \"T\" t0") }
        let (_, again) = SQLLogLimitTests.analyze(repeated)
        #expect(again.totalStatements == 10_200)
        #expect(again.totalShapes == 10_100)
    }

    /// Not fired: a log within the table says its counts as before.
    @Test func aLogWithinTheTableHasThePlainHeadline() {
        let analysis = Self.analyze(Self.boundValues)
        #expect(SQLLogText.render(analysis).contains("\n3 statements in 1 shapes; 0 transactions"))
    }
}
