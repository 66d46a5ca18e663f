import Foundation
import SQLLogViewer
import Testing

/// The SQL debug log viewer on what people paste: each case issue 17 found
/// in real logs, with one that reads and one that must not change.
@Suite struct SQLLogRealInputTests {
    func analyze(_ text: String) -> SQLLogAnalysis {
        var analyzer = SQLLogAnalyzer()
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) { analyzer.consume(line: Data(line.utf8)) }
        return analyzer.finish()
    }

    func analyze(file data: Data) throws -> SQLLogAnalysis {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-log-\(UUID()).log")
        defer { try? FileManager.default.removeItem(at: url) }
        try data.write(to: url)
        var analyzer = SQLLogAnalyzer()
        try analyzer.consume(try FileHandle(forReadingFrom: url), path: url.path)
        return analyzer.finish()
    }

    @Test func boundIntarraysAreCountedAsCoreDataPrintsThem() {
        let log = """
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZTAG t0 WHERE  t0.Z_PK IN (SELECT * FROM _Z_intarray0)
            CoreData: annotation: Bound intarray _Z_intarray0
            CoreData: details: bound intarray _Z_intarray1 values: 1, 2
            """
        #expect(analyze(log).boundIntarrays == 2)
    }

    /// Core Data prints a prefetch's SELECT and all its annotations between
    /// the fetch's SELECT and the fetch's own total (fatbobman's log,
    /// corpus file 02): each total goes to the SELECT it closes.
    @Test func aFetchsRowsGoToItsOwnSelectNotTheLastPrefetch() throws {
        let log = """
            CoreData: sql: SELECT 0, t0.Z_PK, t0.ZNAME FROM ZPOST t0
            CoreData: annotation: sql connection fetch time: 0.0100s
            CoreData: annotation: Bound intarray _Z_intarray0
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZTAG t0 WHERE  t0.Z_PK IN (SELECT * FROM _Z_intarray0)
            CoreData: annotation: sql connection fetch time: 0.0010s
            CoreData: annotation: total fetch execution time: 0.0012s for 40 rows.
            CoreData: annotation: Prefetching with key 'tags'.  Got 40 rows.
            CoreData: annotation: total fetch execution time: 0.0200s for 1581 rows.
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZCOMMENT t0 WHERE  t0.ZPOST = ?
            CoreData: annotation: sql connection fetch time: 0.0001s
            CoreData: annotation: total fetch execution time: 0.0002s for 4 rows.
            CoreData: annotation: to-many relationship fault "comments" for objectID 0x1 <x-coredata://A/Post/p1> fulfilled from database.  Got 4 rows
            CoreData: sql: SELECT COUNT( DISTINCT t0.Z_PK) FROM ZPOST t0
            CoreData: annotation: total count request execution time: 0.0010s for count of 1581.
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZTAG t0 WHERE t0.Z_PK = ?
            CoreData: annotation: total fetch execution time: 0.0010s for 1 rows.
            """
        let analysis = analyze(log)
        let rows = Dictionary(uniqueKeysWithValues: analysis.statements.map { ($0.shape, $0.rows) })
        #expect(rows.count == 5)
        #expect(rows["SELECT ?, t0.Z_PK, t0.ZNAME FROM ZPOST t0"] == 1581)
        #expect(rows["SELECT ?, t0.Z_PK FROM ZTAG t0 WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0)"] == 40)
        #expect(rows["SELECT ?, t0.Z_PK FROM ZTAG t0 WHERE t0.Z_PK = ?"] == 1)
        // The to-many fault's SELECT has its own total; the count request has none.
        #expect(rows["SELECT ?, t0.Z_PK FROM ZCOMMENT t0 WHERE t0.ZPOST = ?"] == 4)
        #expect(rows["SELECT COUNT( DISTINCT t0.Z_PK) FROM ZPOST t0"] == 0)
        #expect(analysis.relationshipFaults.map(\.count) == [1])
        #expect(analysis.rowCountAnnotations == 4)
        #expect(analysis.fetchesWithRows == 4)
        #expect(analysis.rowsReported == 1626)
        #expect(analysis.countRequests == 1)
    }

    @Test func aLogWithoutPrefixesIsReadAndPrefixedLogsIgnoreUnprefixedLines() {
        let plain = """
            Some text around the log.
                sql: SELECT 0, t0.Z_PK FROM ZSTOP t0 LIMIT 100
                annotation: sql connection fetch time: 0.0008s
                annotation: total fetch execution time: 0.0013s for 15 rows.
            """
        let read = analyze(plain)
        #expect(read.formats == ["unprefixed"])
        #expect(read.statements.map(\.count) == [1])
        #expect(read.rowsReported == 15)
        let prefixed = analyze("CoreData: sql: SELECT 1\nsql: SELECT 2 is prose here\n")
        #expect(prefixed.statements.map(\.count) == [1])
    }

    @Test func aPrefixCutAtTheStartIsRecovered() {
        let analysis = analyze("ata: sql: BEGIN EXCLUSIVE\nCoreData: sql: COMMIT\n")
        #expect(analysis.recoveredLines == 1)
        #expect(analysis.statements.reduce(0) { $0 + $1.count } == 2)
        // Only a cut of CoreData or faultline, and only as the first log line.
        #expect(analyze("Data: sql: SELECT 1").statements.count == 1)
        #expect(analyze("Xata: sql: SELECT 1").statements.isEmpty)
        #expect(analyze("CoreData: sql: SELECT 1\nata: sql: SELECT 2").statements.map(\.count) == [1])
    }

    @Test func rowsWithoutTheirStatementAreCountedAndSaid() {
        let log = """
            CoreData: annotation: total fetch execution time: 0.0040s for 42 rows.
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZNOTE t0
            CoreData: annotation: fetch using NSSQLiteStatement <0x6000> on entity 'Note' with sql text 'SELECT 0, t0.Z_PK FROM ZNOTE t0' returned 7 rows
            """
        let analysis = analyze(log)
        #expect(analysis.rowCountAnnotations == 2)
        #expect(analysis.fetchesWithRows == 2)
        #expect(analysis.rowsReported == 49)
        #expect(analysis.annotationsWithoutStatement == 1)
        #expect(analysis.statements.first?.rows == 7)
    }

    @Test func aWrappedStatementIsJoinedAndShortLinesAreNot() {
        let log = """
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZIDENTIFIER, t0.ZNAME FROM ZSTOP t0
            WHERE t0.ZNAME = ? LIMIT 200
            CoreData: annotation: total fetch execution time: 0.0013s for 15 rows.
            CoreData: sql: SELECT 1
            this is program output
            """
        let analysis = analyze(log)
        #expect(analysis.statements.map(\.shape) == [
            "SELECT ?, t0.Z_PK, t0.Z_OPT, t0.ZIDENTIFIER, t0.ZNAME FROM ZSTOP t0 WHERE t0.ZNAME = ? LIMIT ?", "SELECT ?",
        ])
        #expect(analysis.joinedLines == 1)
        #expect(analysis.skippedLines == 1)
    }

    @Test func anAnnotationWrappedMidPhraseIsJoined() {
        // Wrapped at 80 columns: the count request's phrase runs on.
        let log = """
            2014-07-30 11:45:15.647 App[658:2586] CoreData: sql: SELECT COUNT( DISTINCT t0.Z_P
            K) FROM ZPERSON t0 WHERE  t0.ZAGE > ?
            2014-07-30 11:45:15.648 App[658:2586] CoreData: annotation: total count request
            execution time: 0.0004s for count of 1.
            CoreData: annotation: total fetch execution time: 0.0025s for 3 rows.
            App output that follows a complete annotation
            """
        let analysis = analyze(log)
        #expect(analysis.countRequests == 1)
        #expect(analysis.joinedLines == 2)
        #expect(analysis.rowsReported == 3)
        #expect(analysis.skippedLines == 1)
    }

    @Test func utf16LogsAreReadAndBinaryFilesAreSaid() throws {
        let text = "CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0\nCoreData: annotation: total fetch execution time: 0.0010s for 3 rows.\n"
        for encoding in [String.Encoding.utf16, .utf16LittleEndian, .utf16BigEndian] {
            let analysis = try analyze(file: text.data(using: encoding)!)
            #expect(analysis.encoding == "UTF-16", "\(encoding)")
            #expect(analysis.statements.map(\.count) == [1], "\(encoding)")
            #expect(analysis.rowsReported == 3)
        }
        let binary = try analyze(file: Data([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x3E]))
        #expect(binary.encoding == "binary")
        #expect(try analyze(file: Data(text.utf8)).encoding == nil)
    }

    @Test func sqliteShellPlansAreReadInTreeAndColumnForms() {
        let tree = """
            sqlite> EXPLAIN QUERY PLAN SELECT species, avg(body_mass_g)
               ...> FROM penguins GROUP BY species;
            QUERY PLAN
            |--SCAN penguins
            `--USE TEMP B-TREE FOR GROUP BY
            """
        #expect(analyze(tree).fullScans == ["SCAN penguins"])
        let columns = """
            sqlite> EXPLAIN QUERY PLAN SELECT 0, t0.Z_PK FROM ZRECIPE t0 WHERE NOT ( t0.Z_PK
            IN (SELECT n1_t0.Z_PK FROM ZRECIPE n1_t0 GROUP BY n1_t0.ZSOURCE));
            sele  order          from  deta
            ----  -------------  ----  ----
            0     SCAN TABLE ZRECIPE AS t0
            0     SCAN TABLE ZRECIPE AS n1_t0 USING COVERING INDEX ZRECIPE_ZSOURCE
            0|0|0|SCAN TABLE ZSTOP AS t0
            """
        #expect(analyze(columns).fullScans == ["SCAN TABLE ZRECIPE AS t0", "SCAN TABLE ZSTOP AS t0"])
        // Without an EXPLAIN nearby, a line that mentions SCAN is prose.
        #expect(analyze("We SCAN the table here.\nCoreData: sql: SELECT 1").fullScans.isEmpty)
    }

    /// The unified log (`log stream`, `log show`, Console.app) prints the
    /// sender and the subsystem and category where Xcode's console prints
    /// `CoreData: `. The first line is the one real Core Data line in this
    /// format the corpus has (file 25); the statement lines follow its
    /// layout, with the messages of a level 1 fetch.
    @Test func unifiedLogLinesAreReadLikeTheConsolesPrefix() {
        let header = "2024-01-10 11:14:38.831786-0800 0x724d65   Debug       0x0                  18248  14   MyApp: (CoreData) "
        let log = """
            2024-01-10 11:14:38.831786-0800 0x724d65   Error       0x0                  18248  14   knowledgeconstructiond: (CoreData) [com.apple.coredata:error] error:   file is not a symbolic link
            \(header)[com.apple.coredata:sql] sql: SELECT 0, t0.Z_PK, t0.ZNAME FROM ZPOST t0 WHERE  t0.ZRATING > ?
            \(header)[com.apple.coredata:sql] annotation: sql connection fetch time: 0.0012s
            \(header)[com.apple.coredata:sql] annotation: total fetch execution time: 0.0020s for 12 rows.
            \(header)sql: SELECT 0, t0.Z_PK, t0.ZNAME FROM ZPOST t0 WHERE  t0.ZRATING > ?
            """
        let analysis = analyze(log)
        #expect(analysis.logLines == 5)
        #expect(analysis.formats == ["coredata"])
        #expect(analysis.statements.map(\.count) == [2])
        #expect(analysis.statements.first?.shape == "SELECT ?, t0.Z_PK, t0.ZNAME FROM ZPOST t0 WHERE t0.ZRATING > ?")
        #expect(analysis.rowsReported == 12)
        // A bracket that does not close leaves the message where it starts.
        #expect(analyze("\(header)[com.apple.coredata:sql sql: SELECT 1").statements.isEmpty)
    }
}
