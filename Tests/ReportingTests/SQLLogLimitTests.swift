import Foundation
import Probes
@testable import Reporting
@testable import SQLLogViewer
import Testing

/// `perf-run log`'s bounds: memory stays bounded whatever the log, and a
/// bound reached is always said (`limitsReached`), in the text, the JSON
/// and the HTML page. Times that are no finite number are unknown and
/// counted, and never reach the JSON encoder.
@Suite struct SQLLogLimitTests {
    static func analyze(_ lines: [String]) -> (SQLLogAnalyzer, SQLLogAnalysis) {
        var analyzer = SQLLogAnalyzer()
        for line in lines { analyzer.consume(line: Data(line.utf8)) }
        let analysis = analyzer.finish()
        return (analyzer, analysis)
    }

    static func statement(_ sql: String, seconds: String = "0.000010s", rows: Int = 1) -> [String] {
        ["faultline: sql: \(sql)", "faultline: annotation: sql execution time: \(seconds), rows: \(rows), changed: 0, purpose: fetch T"]
    }

    // MARK: Shapes

    @Test func twentyThousandShapesSayTheCapWasReached() throws {
        let lines = (0..<20_000).flatMap { Self.statement("SELECT t0.c\($0) FROM \"T\" t0") }
        let (_, analysis) = Self.analyze(lines)
        #expect(analysis.statements.count == 10_000)
        #expect(analysis.statements.map(\.count).reduce(0, +) == 10_000)
        let limit = "10,000 distinct statement shapes: 10,000 statements of later shapes not counted apart (not in the statements table)"
        #expect(analysis.limitsReached == [limit])
        // Still counted along the log.
        #expect(analysis.timeline.map(\.statements).reduce(0, +) == 20_000)
        #expect(SQLLogText.render(analysis).contains("\nLimits reached (the analysis is incomplete)\n  \(limit)\n"))
        #expect(HTMLLogAnalysis.render(analysis, title: "shapes").contains("<ul class=\"limits\"><li>\(limit)</li></ul>"))
        let json = try JSONSerialization.jsonObject(with: try ReportFile.json(analysis)) as? [String: Any]
        #expect(json?["limitsReached"] as? [String] == [limit])
    }

    /// A Core Data log names no call site: a fetch's line is its site, and
    /// its lazy loads are counted there. Beyond 1,000 such lines, a fetch's
    /// lazy loads go to the first line of its statement's shape, so that the
    /// table of lazy loads (and the time the N+1 rule takes) stays bounded
    /// however many fetches a log has; the limit says how many loads moved.
    @Test func lazyLoadsOfCoreDataFetchesBeyondTheBoundGoToTheirStatementsFirstLine() throws {
        let fetches = SQLLogAnalyzer.maximumFetchSites + 100
        let lines = (0..<fetches).flatMap { index in
            [
                "CoreData: sql: SELECT 0, t0.Z_PK FROM ZPOST t0",
                "CoreData: annotation: sql connection fetch time: 0.0001s",
                "CoreData: annotation: total fetch execution time: 0.0002s for 2 rows.",
                "CoreData: sql: SELECT 0, t0.Z_PK FROM ZCOMMENT t0 WHERE  t0.ZPOST = ?",
                "CoreData: annotation: sql connection fetch time: 0.0001s",
                "CoreData: annotation: total fetch execution time: 0.0001s for 3 rows.",
                "CoreData: annotation: to-many relationship fault \"comments\" for objectID 0x1 <x-coredata://A/Post/p\(index)> "
                    + "fulfilled from database.  Got 3 rows",
                "CoreData: sql: SELECT 0, t0.Z_PK FROM ZCOMMENT t0 WHERE  t0.ZPOST = ?",
                "CoreData: annotation: sql connection fetch time: 0.0001s",
                "CoreData: annotation: total fetch execution time: 0.0001s for 1 rows.",
                "CoreData: annotation: to-many relationship fault \"comments\" for objectID 0x2 <x-coredata://A/Post/p\(index + 1)> "
                    + "fulfilled from database.  Got 1 rows",
            ]
        }
        let (analyzer, analysis) = Self.analyze(lines)
        #expect(analysis.limitsReached == [
            "1,000 Core Data fetch lines that lazy loads come from: 200 later lazy loads counted at the first line of their fetch's statement"
        ])
        // One path per fetch line within the bound; the later fetches' go to
        // the first fetch's line, their statement's first.
        let sites = Set(analyzer.evidence.lazyLoads.keys.map(\.fetchSite.line))
        #expect(sites.count == SQLLogAnalyzer.maximumFetchSites)
        #expect(sites.contains(1))
        let first = try #require(analyzer.evidence.lazyLoads.first { $0.key.fetchSite.line == 1 }?.value)
        // Its own two loads, and the two of each fetch beyond the bound, one run each.
        #expect(first.relationshipFaults == 2 + 200)
        #expect(first.relationshipFaultsPerExecution == [2: 101])
    }

    @Test func aLogWithinEveryBoundSaysNone() throws {
        let (_, analysis) = Self.analyze(Self.statement("SELECT 1") + Self.statement("SELECT 2"))
        #expect(analysis.limitsReached.isEmpty)
        #expect(analysis.timesNotFinite == 0)
        #expect(analysis.firstTimeNotFiniteLine == nil)
        #expect(!SQLLogText.render(analysis).contains("Limits reached"))
        #expect(!HTMLLogAnalysis.render(analysis, title: "small").contains("Limits reached"))
    }

    /// The statement shapes of 1 MiB each that the test below writes.
    static let longShapes = 20

    /// 20 statement shapes of 1 MiB each (a trial's 400 held 442 MB; 20
    /// show the bound, uncut they would hold 20 MB, and take a debug build
    /// 5 s instead of 26 s for 100; long INSERTs: a SELECT's text is also
    /// read for the insight rules, which takes minutes in a debug build):
    /// the analysis keeps 4 KiB and a little of each, in its table and in
    /// the evidence the insight rules read.
    @Test func twentyShapesOfOneMebibyteAreKeptCut() throws {
        let body = String(repeating: "x", count: (1 << 20) - 100)
        var analyzer = SQLLogAnalyzer()
        for index in 0..<Self.longShapes {
            analyzer.consume(line: Data("faultline: sql: INSERT INTO \"T\" (\(body)\(index)) VALUES (1)".utf8))
            analyzer.consume(line: Data("faultline: annotation: sql execution time: 0.000010s, rows: 0, changed: 1, purpose: save".utf8))
        }
        let analysis = analyzer.finish()
        #expect(analysis.statements.count == Self.longShapes)
        #expect(analysis.truncatedLines == 0)
        let bound = SQLLogAnalyzer.maximumStoredTextBytes + 64
        #expect(analysis.statements.allSatisfy { $0.shape.utf8.count <= bound })
        for statement in analysis.statements {
            // `INSERT INTO "T" (` and `) VALUES (?)` around the body and the index.
            let length = 17 + (1 << 20) - 100 + String(statement.firstLine / 2).count + 12
            #expect(statement.shape.hasPrefix("INSERT INTO \"T\" (xxx"))
            #expect(statement.shape.contains("… (\(length) bytes, digest "), "\(statement.shape.suffix(60))")
        }
        // What the insight rules keep: cut too.
        #expect(analyzer.evidence.statements.count == Self.longShapes)
        #expect(analyzer.evidence.statements.allSatisfy { $0.shape.utf8.count <= bound })
        #expect(analysis.limitsReached == [
            "texts longer than 4,096 bytes (statements, bound values, plan rows, names): \(2 * Self.longShapes) kept cut, ending with their length and a "
                + "digest of the whole (texts that differ after the cut stay apart)",
        ])
    }

    @Test func twoLongShapesThatDifferAfterTheCutAreCountedApart() {
        let head = "SELECT " + String(repeating: "x", count: 8_000)
        let lines = Self.statement(head + " FROM a") + Self.statement(head + " FROM b") + Self.statement(head + " FROM a")
        let (_, analysis) = Self.analyze(lines)
        #expect(analysis.statements.map(\.count).sorted() == [1, 2])
        let shapes = analysis.statements.map(\.shape)
        #expect(Set(shapes).count == 2)
        #expect(shapes.allSatisfy { $0.hasPrefix(String(head.prefix(4_096)) + "… (8014 bytes, digest ") })
    }

    @Test func aTextIsCutAtACharacterWithItsLengthAndDigest() {
        // 3-byte characters: 1,365 of them fit in 4,096 bytes.
        #expect(SQLLogAnalyzer.cut(String(repeating: "€", count: 3_000))
            == String(repeating: "€", count: 1_365) + "… (9000 bytes, digest 80b724e51ee51aa5)")
        #expect(SQLLogAnalyzer.cut("SELECT " + String(repeating: "x", count: 5_000))
            == "SELECT " + String(repeating: "x", count: 4_089) + "… (5007 bytes, digest 2d6d44c634ce2b17)")
        var analyzer = SQLLogAnalyzer()
        let short = String(repeating: "y", count: SQLLogAnalyzer.maximumStoredTextBytes)
        #expect(analyzer.keep(short) == short)
        #expect(analyzer.limitsReached.isEmpty)
    }

    // MARK: Other bounds

    @Test func everyOtherBoundReachedIsSaid() {
        func limits(_ lines: [String]) -> [String] { Self.analyze(lines).1.limitsReached }

        // Plan rows: 1,000 distinct, then 2 more.
        #expect(limits(Self.statement("SELECT 1") + (0..<1_002).map { "faultline: plan: SEARCH t\($0) USING INTEGER PRIMARY KEY (rowid=?)" }) == [
            "1,000 distinct query plan rows: 2 later rows not listed", "1,000 query plan rows for one statement: 2 later rows not kept with it",
        ])
        // Bound values of one shape: 4,096 distinct, then 4 more.
        let select = "faultline: sql: SELECT t0.pk FROM \"T\" t0 WHERE t0.pk = ?"
        #expect(limits((0..<4_100).flatMap { [select, "faultline: details: bind[0] = \($0)", "faultline: annotation: sql execution time: 0.000001s, rows: 1, changed: 0, purpose: fault"] }) == [
            "4,096 distinct bound values for one shape: 4 executions with later values counted as similar, not checked for duplicates",
        ])
        // Transactions: 65 open at once.
        #expect(limits((0..<65).map { _ in "faultline: sql: BEGIN DEFERRED" }) == ["64 transactions open at once: 1 ended as unfinished"])
        // Faults: 10,001 entities.
        #expect(limits((0...10_000).map { "faultline: annotation: fault fulfilled from row cache for E\($0)/p1 in 0.000001s" }) == [
            "10,000 entities and sources in a table of faults, relationship faults or prefetches: 1 faults of later ones not listed",
        ])
        // Statement texts checked for repetitions: 20,000, then 1 more (values as literals).
        #expect(limits((0...20_000).flatMap { Self.statement("SELECT t0.pk FROM \"T\" t0 WHERE t0.pk = \($0)") }) == [
            "4,096 distinct bound values for one shape: 15,905 executions with later values counted as similar, not checked for duplicates",
            "20,000 distinct statement texts: 1 executions of later texts not checked for repeated statements",
        ])
        // Bound values of one statement: 32,766, then 2 more.
        #expect(limits(["faultline: sql: SELECT 1"] + (0..<32_768).map { "faultline: details: bind[\($0)] = 1" }) == [
            "32,766 bound values for one statement: 2 later values not kept",
        ])
        // A wrapped statement grows to 64 KiB: then a continuation is not joined.
        let wrapped = ["CoreData: sql: SELECT " + String(repeating: "x", count: 65_536)] + ["t0.ZNAME, t0.ZRATING FROM ZITEM t0 WHERE t0.ZNAME = ?"]
        #expect(limits(wrapped) == ["wrapped lines joined up to 65,536 bytes: 1 continuation lines beyond that not joined", texts(2)])
        // Times adding up beyond the largest Double.
        let hugeTime = "1" + String(repeating: "0", count: 308) + "s"
        let (_, summed) = Self.analyze(Self.statement("SELECT c", seconds: hugeTime) + Self.statement("SELECT c", seconds: hugeTime))
        #expect(summed.statements.first?.totalSeconds == .greatestFiniteMagnitude)
        #expect(summed.limitsReached == [
            "times adding up beyond 1.7976931348623157e+308 s: 2 sums held there",
        ])
        #expect(throws: Never.self) { try ReportFile.json(summed) }
    }

    private func texts(_ count: Int) -> String {
        "texts longer than 4,096 bytes (statements, bound values, plan rows, names): \(count) kept cut, ending with their length and a "
            + "digest of the whole (texts that differ after the cut stay apart)"
    }

    @Test func aCutLineIsABoundReached() throws {
        var analyzer = SQLLogAnalyzer()
        // A line is cut when more than the bound waits for its newline.
        analyzer.consume(chunk: Data("faultline: sql: SELECT 1\n".utf8) + Data(repeating: UInt8(ascii: "x"), count: SQLLogAnalyzer.maximumLineBytes + 1))
        analyzer.consume(chunk: Data("\n".utf8))
        #expect(analyzer.finish().limitsReached == ["lines longer than 1,048,576 bytes: 1 cut there, the rest of each skipped"])
    }

    // MARK: Times

    @Test func timesThatAreNoFiniteNumberAreUnknownAndCounted() throws {
        let huge = String(repeating: "9", count: 400)
        let lines = Self.statement("SELECT c1", seconds: "0.5s")  // lines 1-2
            + ["CoreData: sql: SELECT c2", "CoreData: annotation: sql execution time: inf"]  // 3-4
            + Self.statement("SELECT c3", seconds: "\(huge)s")  // 5-6
            + Self.statement("SELECT c4", seconds: "nan")  // 7-8
            + Self.statement("SELECT c5", seconds: "1e999s")  // 9-10
            + Self.statement("SELECT c6", seconds: "-1s")  // 11-12
            + Self.statement("SELECT c7", seconds: "#.######s")  // masked: unknown, not counted
            + ["CoreData: sql: SELECT c8", "CoreData: annotation: total count request execution time: infinity for count of 3."]  // 15-16
            + Self.statement("SELECT c9", seconds: "2.5e-3s")
        let (_, analysis) = Self.analyze(lines)
        #expect(analysis.statements.count == 9)
        #expect(analysis.statements.allSatisfy { $0.count == 1 && $0.totalSeconds.isFinite && $0.maxSeconds.isFinite })
        #expect(analysis.statements.map(\.totalSeconds).reduce(0, +) == 0.5 + 2.5e-3)
        #expect(analysis.timesNotFinite == 6)
        #expect(analysis.firstTimeNotFiniteLine == 4)
        #expect(analysis.timeline.allSatisfy { $0.seconds.isFinite })
        let note = "6 statement times were not a finite number of seconds (inf, nan, too large), the first at line 4: taken as unknown"
        #expect(SQLLogText.render(analysis).contains("\n" + note + "\n"))
        #expect(HTMLLogAnalysis.render(analysis, title: "times").contains("<p class=\"error\">\(note).</p>"))
        let json = try JSONSerialization.jsonObject(with: try ReportFile.json(analysis)) as? [String: Any]
        #expect(json?["timesNotFinite"] as? Int == 6)
        #expect(json?["firstTimeNotFiniteLine"] as? Int == 4)
    }

    @Test func timesAreReadAsBefore() {
        // The tokenizer's reading of the time after an annotation's first colon.
        func time(_ text: String) -> SQLDebugLogTime {
            var text = text
            return text.withUTF8 { buffer in
                let bytes = SQLDebugLogBytes(UnsafeRawBufferPointer(buffer))
                return SQLDebugLogTime.afterColon(bytes, bytes.all)
            }
        }
        #expect(time("sql execution time: 0.0021s, rows: 3") == .seconds(0.0021))
        #expect(time("sql connection fetch time: 0.0001s") == .seconds(0.0001))
        #expect(time("total count request execution time: 0.0007s for count of 1.") == .seconds(0.0007))
        #expect(time("sql execution time: 1e-05s") == .seconds(1e-05))
        #expect(time("sql execution time: #.######s, rows: 3") == .unknown)
        #expect(time("sql execution time: , rows: 3") == .unknown)
        #expect(time("no time here") == .unknown)
        #expect(time("sql execution time: Inf") == .notFinite)
        #expect(time("sql execution time: -0.5s") == .notFinite)
    }
}
