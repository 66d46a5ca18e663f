import Foundation
import Reporting
import SQLLogViewer
import Testing

/// Core Data's SQL debug log as its levels write it: each annotation goes
/// to the statement it follows (prefetches nest), one fetch counts once at
/// any level, level 3's SQL and values are read, statements and plan rows
/// written over several lines are joined, and what the log lacks is said.
@Suite struct CoreDataLogLevelsTests {
    func analyze(_ text: String) -> SQLLogAnalysis {
        var analyzer = SQLLogAnalyzer()
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) { analyzer.consume(line: Data(line.utf8)) }
        return analyzer.finish()
    }

    /// Each statement's rows and total time, by shape.
    func byShape(_ analysis: SQLLogAnalysis) -> [String: (rows: Int, seconds: Double)] {
        Dictionary(uniqueKeysWithValues: analysis.statements.map { ($0.shape, ($0.rows, $0.totalSeconds)) })
    }

    // MARK: 1. Rows go to their statement

    /// A store opened (its metadata SELECT has no annotation), then a fetch
    /// of items prefetching `attachments.tags` and `owner`: the attachments'
    /// prefetch runs the tags' inside it, as Core Data nests fetches.
    static let nestedPrefetches = """
        CoreData: sql: pragma cache_size=200
        CoreData: sql: SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA
        CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZOWNER FROM ZITEM t0
        CoreData: annotation: sql connection fetch time: 0.0003s
        CoreData: annotation: Bound intarray _Z_intarray0
        CoreData: annotation: Bound intarray values.
        CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZITEM FROM ZATTACHMENT t0 WHERE  t0.ZITEM IN (SELECT * FROM _Z_intarray0)  ORDER BY t0.ZITEM
        CoreData: annotation: sql connection fetch time: 0.0021s
        CoreData: annotation: Bound intarray _Z_intarray1
        CoreData: annotation: Bound intarray values.
        CoreData: sql: SELECT 0, t0.Z_PK, t1.Z_3ATTACHMENTS FROM ZTAG t0 JOIN Z_3TAGS t1 ON t0.Z_PK = t1.Z_5TAGS WHERE  t1.Z_3ATTACHMENTS IN (SELECT * FROM _Z_intarray1)
        CoreData: annotation: sql connection fetch time: 0.0004s
        CoreData: annotation: total fetch execution time: 0.0006s for 37 rows.
        CoreData: annotation: Prefetching with key 'tags'.  Got 37 rows.
        CoreData: annotation: total fetch execution time: 0.0031s for 1581 rows.
        CoreData: annotation: Prefetching with key 'attachments'.  Got 1581 rows.
        CoreData: annotation: Bound intarray _Z_intarray2
        CoreData: annotation: Bound intarray values.
        CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZOWNER t0 WHERE  t0.Z_PK IN (SELECT * FROM _Z_intarray2)
        CoreData: annotation: sql connection fetch time: 0.0002s
        CoreData: annotation: total fetch execution time: 0.0003s for 12 rows.
        CoreData: annotation: Prefetching with key 'owner'.  Got 12 rows.
        CoreData: annotation: total fetch execution time: 0.0060s for 190 rows.
        CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0 WHERE  t0.ZTITLE = ?
        CoreData: annotation: sql connection fetch time: 0.0001s
        CoreData: annotation: total fetch execution time: 0.0001s for 2 rows.
        """

    @Test func nestedPrefetchesGiveEveryStatementItsOwnRowsAndTime() throws {
        let analysis = analyze(Self.nestedPrefetches)
        let statements = byShape(analysis)
        let expected: [(shape: String, rows: Int, seconds: Double)] = [
            ("pragma cache_size=?", 0, 0),
            ("SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA", 0, 0),
            ("SELECT ?, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZOWNER FROM ZITEM t0", 190, 0.0003),
            ("SELECT ?, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZITEM FROM ZATTACHMENT t0 WHERE t0.ZITEM IN (SELECT * FROM _Z_intarray0) ORDER BY t0.ZITEM",
             1581, 0.0021),
            ("SELECT ?, t0.Z_PK, t1.Z_3ATTACHMENTS FROM ZTAG t0 JOIN Z_3TAGS t1 ON t0.Z_PK = t1.Z_5TAGS WHERE t1.Z_3ATTACHMENTS IN (SELECT * FROM _Z_intarray1)",
             37, 0.0004),
            ("SELECT ?, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZOWNER t0 WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray2)", 12, 0.0002),
            ("SELECT ?, t0.Z_PK FROM ZITEM t0 WHERE t0.ZTITLE = ?", 2, 0.0001),
        ]
        #expect(statements.count == expected.count)
        for statement in expected {
            let got = try #require(statements[statement.shape], "\(statement.shape)")
            #expect(got.rows == statement.rows, "\(statement.shape)")
            #expect(abs(got.seconds - statement.seconds) < 1e-9, "\(statement.shape)")
        }
        #expect(analysis.fetchesWithRows == 5)
        #expect(analysis.rowsReported == 190 + 1581 + 37 + 12 + 2)
        #expect(analysis.annotationsWithoutStatement == 0)
        #expect(analysis.prefetches.map(\.entity).sorted() == ["attachments", "owner", "tags"])
    }

    @Test func theMetadataSelectOfAStoreBeingOpenedGetsNoRows() {
        let analysis = analyze("""
            CoreData: sql: pragma cache_size=1000
            CoreData: sql: SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZAUTHOR, t0.ZTITLE, t0.ZCOPYRIGHT FROM ZBOOK t0 ORDER BY t0.ZAUTHOR, t0.ZTITLE
            CoreData: annotation: sql connection fetch time: 0.0001s
            CoreData: annotation: total fetch execution time: 0.0010s for 20 rows.
            """)
        let statements = byShape(analysis)
        #expect(statements["SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA"]?.rows == 0)
        #expect(statements["SELECT ?, t0.Z_PK, t0.Z_OPT, t0.ZAUTHOR, t0.ZTITLE, t0.ZCOPYRIGHT FROM ZBOOK t0 ORDER BY t0.ZAUTHOR, t0.ZTITLE"]?.rows == 20)
    }

    /// A save between two fetches ends whatever fetch was left open: the
    /// next total is the next fetch's, the one before had no total.
    @Test func aSaveEndsTheFetchesLeftOpen() {
        let analysis = analyze("""
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0 WHERE  t0.Z_PK = ?
            CoreData: annotation: sql connection fetch time: 0.0001s
            CoreData: sql: BEGIN EXCLUSIVE
            CoreData: sql: COMMIT
            CoreData: annotation: total fetch execution time: 0.0002s for 3 rows.
            """)
        #expect(analysis.statements.first { $0.shape.hasPrefix("SELECT") }?.rows == 0)
        #expect(analysis.annotationsWithoutStatement == 1)
        #expect(analysis.rowsReported == 3)
    }

    // MARK: 2. One fetch counts once

    @Test func aLevelTwoFetchThatPrintsBothRowCountsCountsOnce() {
        let analysis = analyze("""
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZAGE FROM ZPERSON t0 WHERE t0.ZAGE > ?
            CoreData: details: SQLite bind[0] = 18
            CoreData: annotation: sql connection fetch time: 0.4789s.
            CoreData: annotation: fetch using NSSQLiteStatement <0x60800008bf40> on entity 'Person' with sql text 'SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZAGE FROM ZPERSON t0 WHERE t0.ZAGE > ? ' returned 688187 rows
            CoreData: annotation: total fetch execution time: 0.5130s for 688187 rows.
            """)
        #expect(analysis.fetchesWithRows == 1)
        #expect(analysis.rowsReported == 688_187)
        #expect(analysis.rowCountAnnotations == 2)
        #expect(analysis.statements.map(\.count) == [1])
        #expect(analysis.statements.map(\.rows) == [688_187])
        #expect(SQLLogText.render(analysis).contains("1 fetch reported 688,187 rows\n"))
    }

    @Test func aLevelTwoPrefetchCountsEachFetchOnce() {
        let analysis = analyze("""
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0
            CoreData: annotation: sql connection fetch time: 0.0003s
            CoreData: annotation: fetch using NSSQLiteStatement <0x1> on entity 'Item' with sql text 'SELECT 0, t0.Z_PK FROM ZITEM t0' returned 190 rows
            CoreData: annotation: Bound intarray _Z_intarray0
            CoreData: sql: SELECT 0, t0.Z_PK, t0.ZITEM FROM ZATTACHMENT t0 WHERE  t0.ZITEM IN (SELECT * FROM _Z_intarray0)
            CoreData: annotation: sql connection fetch time: 0.0021s
            CoreData: annotation: fetch using NSSQLiteStatement <0x2> on entity 'Attachment' with sql text 'SELECT 0, t0.Z_PK, t0.ZITEM FROM ZATTACHMENT t0 WHERE  t0.ZITEM IN (SELECT * FROM _Z_intarray0)' returned 1581 rows
            CoreData: annotation: total fetch execution time: 0.0024s for 1581 rows.
            CoreData: annotation: Prefetching with key 'attachments'.  Got 1581 rows.
            CoreData: annotation: total fetch execution time: 0.0053s for 190 rows.
            """)
        #expect(analysis.fetchesWithRows == 2)
        #expect(analysis.rowCountAnnotations == 4)
        #expect(analysis.rowsReported == 1771)
        #expect(byShape(analysis)["SELECT ?, t0.Z_PK FROM ZITEM t0"]?.rows == 190)
        #expect(byShape(analysis)["SELECT ?, t0.Z_PK, t0.ZITEM FROM ZATTACHMENT t0 WHERE t0.ZITEM IN (SELECT * FROM _Z_intarray0)"]?.rows == 1581)
    }

    // MARK: 3. Level 3: the SQL and the values

    static let levelThree = """
        2013-01-07 14:46:17.561 App[3913:c07] CoreData: annotation: fetch using NSSQLiteStatement <0x81d3400> on entity 'Entity1' with sql text 'SELECT 0, t0.Z_PK, t0.Z_OPT FROM ZENTITY1 t0 WHERE t0.ZNAME = ? ' returned 2 rows with values: (
            "<NSManagedObject: 0x748bd50> (entity: Entity1; id: 0x7486f80 <x-coredata://5BB0/Entity1/p1> ; data: {\\n    name = \\"a (b\\";\\n})",
            "<NSManagedObject: 0x748c010> (entity: Entity1; id: 0x7472790 <x-coredata://5BB0/Entity1/p2> ; data: <fault>)"
        )
        2013-01-07 14:46:17.562 App[3913:c07] CoreData: annotation: total fetch execution time: 0.0030s for 2 rows.
        App output after the log
        """

    @Test func aLevelThreeAnnotationWithoutItsSQLLineIsAStatement() throws {
        let analysis = analyze(Self.levelThree)
        #expect(analysis.statements.map(\.shape) == ["SELECT ?, t0.Z_PK, t0.Z_OPT FROM ZENTITY1 t0 WHERE t0.ZNAME = ?"])
        #expect(analysis.statements.map(\.rows) == [2])
        #expect(analysis.statementsFromFetchAnnotations == 1)
        #expect(analysis.fetchesWithRows == 1)
        #expect(analysis.rowsReported == 2)
        #expect(analysis.skippedLines == 1)
        // The values, up to their closing parenthesis (a quoted one does not close them).
        let values = try #require(analysis.fetchValues.first)
        #expect(analysis.fetchValues.count == 1)
        #expect(values.line == 1)
        #expect(values.entity == "Entity1")
        #expect(values.rows == 2)
        #expect(values.lines == 4)
        #expect(values.shape == "SELECT ?, t0.Z_PK, t0.Z_OPT FROM ZENTITY1 t0 WHERE t0.ZNAME = ?")
        #expect(values.values.hasPrefix("( \"<NSManagedObject: 0x748bd50> (entity: Entity1;"))
        #expect(values.values.hasSuffix("data: <fault>)\" )"))
    }

    @Test func aLevelThreeAnnotationAfterItsSQLLineIsNotASecondStatement() {
        let analysis = analyze("""
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT FROM ZENTITY1 t0 WHERE t0.ZNAME = ?
            CoreData: details: SQLite bind[0] = "a"
            CoreData: annotation: sql connection fetch time: 0.0010s
            \(Self.levelThree)
            """)
        #expect(analysis.statements.map(\.count) == [1])
        #expect(analysis.statementsFromFetchAnnotations == 0)
        #expect(analysis.fetchesWithRows == 1)
        #expect(analysis.statements.first?.rows == 2)
        #expect(analysis.fetchValues.map(\.lines) == [4])
    }

    @Test func levelThreeValuesAreShownWithTheirFetchEscapedEverywhere() throws {
        let hostile = """
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZNOTE t0
            CoreData: annotation: sql connection fetch time: 0.0010s
            CoreData: annotation: fetch using NSSQLiteStatement <0x1> on entity 'Note' with sql text 'SELECT 0, t0.Z_PK FROM ZNOTE t0' returned 1 rows with values: (
                "<Note: 0x1> (entity: Note; id: 0x2 <x-coredata://A/Note/p1> ; data: {\\n    title = \\"<script>alert(1)</script> \u{1B}[31mred\\";\\n})"
            )
            """
        let analysis = analyze(hostile)
        let values = try #require(analysis.fetchValues.first?.values)
        #expect(values.contains("<script>alert(1)</script>"))
        let text = try SQLLogDocument(analysis, title: "t").render(.text)
        #expect(text.contains("Fetched values (level 3)\n  line 3: Note, 1 rows: ( \"<Note: 0x1>"))
        let html = try SQLLogDocument(analysis, title: "t").render(.html)
        #expect(html.contains("<h2>Fetched values (level 3)</h2>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!html.contains("<script>alert(1)</script>"))
        let json = try SQLLogDocument(analysis, title: "t").render(.json)
        let decoded = try JSONDecoder().decode(SQLLogAnalysis.self, from: Data(json.utf8))
        #expect(decoded.fetchValues == analysis.fetchValues)
        // Colour codes are taken out as from every line read.
        #expect(!values.contains("\u{1B}"))
        #expect(values.contains("</script> red"))
    }

    /// A value on the annotation's own line that holds " returned " does
    /// not move the row count: it is the one before the values.
    @Test func aValueSayingReturnedDoesNotMoveTheRowCount() throws {
        let log = """
            CoreData: sql: SELECT 0, t0.Z_PK, t0.ZTITLE FROM ZNOTE t0
            CoreData: annotation: sql connection fetch time: 0.0010s
            CoreData: annotation: fetch using NSSQLiteStatement <0x1> on entity 'Note' with sql text 'SELECT 0, t0.Z_PK, t0.ZTITLE FROM ZNOTE t0' returned 2 rows with values: ( "title = it returned 99 rows" )
            """
        let analysis = analyze(log)
        #expect(analysis.rowsReported == 2)
        #expect(analysis.fetchValues.first?.values.contains("it returned 99 rows") == true)
    }

    @Test func levelThreeValuesAreKeptCutAndTheirFetchesBounded() throws {
        var lines = [
            "CoreData: sql: SELECT 0, t0.Z_PK FROM ZNOTE t0", "CoreData: annotation: sql connection fetch time: 0.0010s",
            "CoreData: annotation: fetch using NSSQLiteStatement <0x1> on entity 'Note' with sql text 'SELECT 0, t0.Z_PK FROM ZNOTE t0' returned 20000 rows with values: (",
        ]
        lines += (1...20_000).map { "    \"<Note: 0x\($0)> (entity: Note; id: 0x\($0) <x-coredata://A/Note/p\($0)> ; data: <fault>)\"," }
        lines += [")", "CoreData: annotation: total fetch execution time: 0.0020s for 20000 rows."]
        let analysis = analyze(lines.joined(separator: "\n"))
        let values = try #require(analysis.fetchValues.first)
        #expect(values.lines == 20_002)
        #expect(values.values.utf8.count < SQLLogAnalyzer.maximumStoredTextBytes + 100)
        #expect(values.values.hasSuffix("… (\((lines[3...20_003].map { $0.trimmingCharacters(in: .whitespaces).utf8.count }.reduce(0, +) + 20_002).groupedDigits) bytes in 20,002 lines)"))
        #expect(analysis.limitsReached == ["level 3 values longer than 4,096 bytes: 1 kept cut, ending with their length in bytes and lines"])
        #expect(analysis.fetchesWithRows == 1)
        #expect(analysis.skippedLines == 0)
        // Beyond 1,000 fetches, values are not kept, and that is said.
        let many = (0...SQLLogAnalyzer.maximumFetchValues).map { _ in
            "CoreData: annotation: fetch using NSSQLiteStatement <0x1> on entity 'Note' with sql text 'SELECT 0, t0.Z_PK FROM ZNOTE t0' returned 0 rows with values: ()"
        }
        let bounded = analyze(many.joined(separator: "\n"))
        #expect(bounded.fetchValues.count == SQLLogAnalyzer.maximumFetchValues)
        #expect(bounded.limitsReached.contains("1,000 fetches with level 3 values: 1 later fetches' values not kept"))
    }

    // MARK: 4. Statements written over several lines

    @Test func aStatementWhoseFirstLineIsShortIsJoined() {
        let analysis = analyze("""
            sql: SELECT t0.Z_ENT, t0.Z_PK
            FROM ZGEOGRAPHICREGION t0
            WHERE t0.ZMARKEDFORDELETIONDATE = ?
            ORDER BY t0.ZUPDATEDAT DESC
            annotation: sql connection fetch time: 0.0004s
            annotation: total fetch execution time: 0.0007s for 5 rows.
            """)
        #expect(analysis.statements.map(\.shape) == [
            "SELECT t0.Z_ENT, t0.Z_PK FROM ZGEOGRAPHICREGION t0 WHERE t0.ZMARKEDFORDELETIONDATE = ? ORDER BY t0.ZUPDATEDAT DESC",
        ])
        #expect(analysis.statements.map(\.rows) == [5])
        #expect(analysis.joinedLines == 3)
        // The shape has its table: the insight rules see the fetch's sort.
        let prefixed = analyze("""
            CoreData: sql: SELECT t0.Z_ENT, t0.Z_PK
            FROM ZMOOD t0
            WHERE t0.ZCOUNTRY = ?
            CoreData: annotation: sql connection fetch time: 0.0004s
            """)
        #expect(prefixed.statements.map(\.shape) == ["SELECT t0.Z_ENT, t0.Z_PK FROM ZMOOD t0 WHERE t0.ZCOUNTRY = ?"])
    }

    @Test func anUnfinishedStatementTakesItsNextLineAndProseStaysProse() {
        let analysis = analyze("""
            CoreData: sql: INSERT INTO ZMOOD(Z_PK, Z_ENT, Z_OPT, ZCOUNTRY)
            VALUES(?,?,?,?)
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZMOOD t0 WHERE (
            t0.ZCOUNTRY = ?)
            CoreData: sql: SELECT 1
            And this line is the app's.
            CoreData: sql: COMMIT
            the program printed this
            """)
        #expect(analysis.statements.map(\.shape).sorted() == [
            "COMMIT", "INSERT INTO ZMOOD(Z_PK, Z_ENT, Z_OPT, ZCOUNTRY) VALUES(?,?,?,?)", "SELECT ?",
            "SELECT ?, t0.Z_PK FROM ZMOOD t0 WHERE ( t0.ZCOUNTRY = ?)",
        ])
        #expect(analysis.joinedLines == 2)
        #expect(analysis.skippedLines == 2)
    }

    // MARK: 5. Plan rows

    @Test func wrappedPlanRowsAreJoinedAndTheRowsAfterThemRead() {
        let analysis = analyze("""
            sqlite> EXPLAIN QUERY PLAN
            SELECT t0.Z_ENT, t0.Z_PK
            FROM ZGEOGRAPHICREGION t0
            WHERE t0.ZMARKEDFORDELETIONDATE = ?
            ORDER BY t0.ZUPDATEDAT DESC;

            0|0|0|SEARCH TABLE ZGEOGRAPHICREGION AS t0 
            USING INDEX ZGEOGRAPHICREGION_ZMARKEDFORDELETIONDATE_INDEX (ZMARKEDFORDELETIONDATE=?)
            0|0|0|USE TEMP B-TREE FOR ORDER BY
            """)
        #expect(analysis.planRows.map(\.row) == [
            "SEARCH TABLE ZGEOGRAPHICREGION AS t0 USING INDEX ZGEOGRAPHICREGION_ZMARKEDFORDELETIONDATE_INDEX (ZMARKEDFORDELETIONDATE=?)",
            "USE TEMP B-TREE FOR ORDER BY",
        ])
        #expect(analysis.planRows.map(\.firstLine) == [7, 9])
        #expect(analysis.fullScans.isEmpty)
        #expect(analysis.formats == ["sqlite3"])
    }

    @Test func planRowsKeepTheirWordsAfterACoreDataExplain() {
        let analysis = analyze("""
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZRECIPE t0 WHERE  NOT ( t0.Z_PK IN (SELECT n1_t0.Z_PK FROM ZRECIPE n1_t0 GROUP BY n1_t0.ZSOURCE)) ORDER BY t0.ZNAME
            CoreData: annotation: sql connection fetch time: 0.0010s
            CoreData: annotation: total fetch execution time: 0.0020s for 3 rows.
            CoreData: details: SQLite: EXPLAIN QUERY PLAN SELECT 0, t0.Z_PK FROM ZRECIPE t0 WHERE  NOT ( t0.Z_PK IN (SELECT n1_t0.Z_PK FROM ZRECIPE n1_t0 GROUP BY n1_t0.ZSOURCE)) ORDER BY t0.ZNAME
            0 0 0 SCAN TABLE ZRECIPE AS t0
            0 0 0 EXECUTE LIST SUBQUERY 1
            1 0 0 SCAN TABLE ZRECIPE AS n1_t0 USING COVERING INDEX ZRECIPE_ZSOURCE
            0 0 0 USE TEMP B-TREE FOR ORDER BY
            0 0 0 EXECUTE CORRELATED SCALAR SUBQUERY 2
            """)
        #expect(analysis.planRows.map(\.row) == [
            "SCAN TABLE ZRECIPE AS t0", "EXECUTE LIST SUBQUERY 1", "SCAN TABLE ZRECIPE AS n1_t0 USING COVERING INDEX ZRECIPE_ZSOURCE",
            "USE TEMP B-TREE FOR ORDER BY", "EXECUTE CORRELATED SCALAR SUBQUERY 2",
        ])
        #expect(analysis.fullScans == ["SCAN TABLE ZRECIPE AS t0"])
        #expect(analysis.formats == ["coredata"])
        let text = SQLLogText.render(analysis)
        #expect(text.contains("       1  EXECUTE LIST SUBQUERY 1 (line 6)\n"))
        #expect(text.contains("       1  USE TEMP B-TREE FOR ORDER BY (line 8)\n"))
    }

    // MARK: 6. What the text says

    @Test func aFetchWithoutItsStatementIsInTheText() {
        let analysis = analyze("CoreData: annotation: total fetch execution time: 0.0287s for 1 rows.")
        #expect(SQLLogText.render(analysis) == """
            1 log lines (coredata) of 1 read
            0 statements in 0 shapes; 0 transactions holding 0 statements
            1 fetch reported 1 row, with no statement line in the log (the paste starts after its SELECT)

            """)
        let two = analyze("""
            CoreData: annotation: total fetch execution time: 0.0287s for 1 rows.
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZNOTE t0
            CoreData: annotation: total fetch execution time: 0.0100s for 1000 rows.
            """)
        #expect(SQLLogText.render(two).contains(
            "\n2 fetches reported 1,001 rows; 1 of them with no statement line in the log (the paste starts after their SELECT)\n"))
    }

    @Test func linesWithNoFormatSayNoEmptyFormat() {
        let analysis = analyze("""
            sqlite> EXPLAIN QUERY PLAN SELECT * FROM penguins;
            QUERY PLAN
            `--SCAN penguins
            """)
        let text = SQLLogText.render(analysis)
        #expect(text.hasPrefix("1 log lines (sqlite3) of 3 read, 2 skipped\n"))
        #expect(!text.contains("()"))
        let empty = analyze("CoreData: sql: SELECT 1\nsome\noutput")
        #expect(SQLLogText.render(empty).hasPrefix("1 log lines (coredata) of 3 read, 2 skipped\n"))
        #expect(SQLLogText.render(analyze("no\nlog\nhere")).hasPrefix("0 log lines of 3 read, 3 skipped\n"))
    }

    @Test func aFaultsObjectOnTheNextLineIsJoined() {
        let analysis = analyze("""
            annotation: fault fulfilled from database for : 0xd000000000100002
            <x-coredata://DE6497F9-8B94-420D-81B7-E25B992E28C2/Country/p4>
            CoreData: annotation: fault fulfilled from database for : 0xd000000000140002
               <x-coredata://DE6497F9-8B94-420D-81B7-E25B992E28C2/Country/p5>
            """)
        #expect(analysis.faults.map { "\($0.entity)/\($0.source)/\($0.count)/\($0.firstLine)" } == ["Country/database/2/1"])
        #expect(analysis.joinedLines == 2)
        #expect(analysis.skippedLines == 0)
    }

    @Test func aFaultWhoseObjectTheLogLacksIsSaidInWords() throws {
        let analysis = analyze("""
            CoreData: annotation: fault fulfilled from database for : 0xd000000000100002
            CoreData: annotation: to-many relationship fault "tags" for objectID 0xd000000000140002 fulfilled from database.  Got 2 rows
            """)
        #expect(analysis.faults.map(\.entity) == [SQLLogAnalysis.unknownEntity])
        let text = SQLLogText.render(analysis)
        #expect(text.contains("\n       1  unknown entity from database (first at line 1)\n"))
        #expect(text.contains("\n       1  unknown entity.tags from database (first at line 2)\n"))
        #expect(!text.contains(" ? from"))
        let html = try SQLLogDocument(analysis, title: "t").render(.html)
        #expect(html.contains("<td>unknown entity</td>"))
    }
}
