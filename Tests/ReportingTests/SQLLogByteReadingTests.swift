import Foundation
import Probes
@testable import SQLLogViewer
import Scenarios
import Testing

/// `perf-run log` reads every line through the SQL debug log's one
/// tokenizer (Probes' `SQLDebugLogLine`, whose own tests read each kind of
/// line): a line is bytes, and what the bytes hold beyond its text (colour
/// codes, a carriage return before the newline, a table's bars, bytes that
/// are not UTF-8) does not change what the line says. Checked here on
/// random logs made of real lines (a seeded generator, so a failure
/// repeats), and on what the analyzer keeps from one statement text to
/// the next.
@Suite struct SQLLogByteReadingTests {
    static let uri = "x-coredata://0783522F-1851-4BC7-AE0D-AB4C83489E8B"

    /// Log lines of both formats, each a line the corpus or the writer has.
    static let lines = [
        "faultline: sql: SELECT t0.pk, t0.\"name\" FROM \"Network\" t0 WHERE t0.pk = ?", "faultline: details: bind[0] = 1", "faultline: details: bind[0] = 2",
        "faultline: annotation: sql execution time: 0.000012s, rows: 1, changed: 0, purpose: fault",
        "faultline: annotation: fault fulfilled from database for Network/p1 in 0.000020s (absent; from fetch 3 of Selfie at App/List.swift:12 through networks; read at App/List.swift:14)",
        "faultline: annotation: fault fulfilled from row cache for Network/p2 in 0.000002s",
        "faultline: sql: SELECT t0.pk, t0.\"name\", t0.\"rating\" FROM \"Selfie\" t0 WHERE t0.\"rating\" < ? ORDER BY t0.\"name\"",
        "faultline: plan: SCAN t0  [full scan]", "faultline: plan: USE TEMP B-TREE FOR ORDER BY",
        "faultline: annotation: sql execution time: 0.000031s, rows: 2, changed: 0, scanned: 3, sorts: 1, purpose: fetch Selfie",
        "faultline: annotation: fetch of Selfie where rating < 3 sorted by name ASC: 2 objects in 0.000210s at App/List.swift:12",
        "faultline: annotation: to-many relationship fault \"networks\" for Selfie/p1 fulfilled from database: 2 Network in 0.000030s (absent; from fetch 3 of Selfie at App/List.swift:12 through networks; read at App/List.swift:14)",
        "faultline: sql: BEGIN IMMEDIATE", "faultline: annotation: sql execution time: 0.000004s, rows: 0, changed: 0, purpose: transaction",
        "faultline: sql: COMMIT", "faultline: annotation: save of context main: 0 inserted, 1 updated, 0 deleted in 0.000100s at App/Edit.swift:17",
        "CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZPERSON t0 WHERE  t0.ZAGE >  ? ORDER BY t0.ZNAME",
        "CoreData: details: SQLite bind[0] = 21", "CoreData: annotation: sql connection fetch time: 0.0020s",
        "CoreData: annotation: total fetch execution time: 0.0025s for 3 rows.",
        "CoreData: details: SQLite: EXPLAIN QUERY PLAN SELECT 0, t0.Z_PK FROM ZPERSON t0", "0|0|0|SCAN TABLE ZPERSON AS t0", "0 0 0 USE TEMP B-TREE FOR ORDER BY",
        "CoreData: annotation: fault fulfilled from database for : 0xd000000000100002 <\(uri)/Country/p4>",
        "CoreData: annotation: to-many relationship fault \"tags\" for objectID 0xa7ab2d44ebb9106e <\(uri)/Item/p1> fulfilled from database.  Got 0 rows",
        "CoreData: annotation: Prefetching with key 'attachments'.  Got 1581 rows.", "CoreData: annotation: Bound intarray _Z_intarray0",
        "CoreData: annotation: total count request execution time: 0.0254s for count of 18988.",
        "app: request 3 handled, rendering the next view",
    ]

    /// A random log of `count` of ``lines``.
    static func log(_ count: Int, _ generator: inout SeededGenerator) -> [String] {
        (0..<count).map { _ in lines.randomElement(using: &generator)! }
    }

    static func analyze(_ lines: [[UInt8]]) -> SQLLogAnalysis {
        var analyzer = SQLLogAnalyzer()
        analyzer.consume(chunk: Data(lines.joined(separator: [0x0A])))
        analyzer.flush()
        return analyzer.finish()
    }

    /// A line's bytes with colour codes around its marker and its text
    /// after the marker, as a terminal's log viewer copies them.
    static func coloured(_ line: String) -> [UInt8] {
        for marker in ["faultline: ", "CoreData: "] where line.hasPrefix(marker) {
            return Array("\u{1B}[32m\(marker)\u{1B}[1m\(line.dropFirst(marker.count))\u{1B}[0m".utf8)
        }
        return Array(line.utf8)
    }

    @Test func colourCodesAndLineEndsChangeNothing() {
        var generator = SeededGenerator(seed: 1)
        for _ in 0..<300 {
            let log = Self.log(Int.random(in: 1...40, using: &generator), &generator)
            let plain = Self.analyze(log.map { Array($0.utf8) })
            #expect(plain.logLines > 0 || log.allSatisfy { $0.hasPrefix("app:") })
            #expect(Self.analyze(log.map(Self.coloured)) == plain, "\(log)")
            #expect(Self.analyze(log.map { Array($0.utf8) + [0x0D] }) == plain, "\(log)")
        }
    }

    /// Names beyond ASCII are read as ASCII ones are: the same counts, the
    /// names kept as written.
    @Test func namesBeyondASCIIAreReadByTheSameRules() throws {
        var generator = SeededGenerator(seed: 2)
        for _ in 0..<200 {
            let log = Self.log(Int.random(in: 1...40, using: &generator), &generator)
            let ascii = Self.analyze(log.map { Array($0.utf8) })
            let renamed = log.map { $0.replacingOccurrences(of: "Network", with: "Réseau").replacingOccurrences(of: "Country", with: "Länd") }
            let other = Self.analyze(renamed.map { Array($0.utf8) })
            #expect(other.statements.map(\.count) == ascii.statements.map(\.count), "\(log)")
            #expect(other.faults.map(\.count) == ascii.faults.map(\.count), "\(log)")
            #expect(other.faults.map { $0.entity.replacingOccurrences(of: "Réseau", with: "Network").replacingOccurrences(of: "Länd", with: "Country") }
                == ascii.faults.map(\.entity))
            #expect(other.insights.map(\.rule) == ascii.insights.map(\.rule), "\(log)")
            #expect((other.lines, other.logLines, other.skippedLines, other.fetchesWithRows, other.rowsReported)
                == (ascii.lines, ascii.logLines, ascii.skippedLines, ascii.fetchesWithRows, ascii.rowsReported))
        }
    }

    /// Bytes that are not UTF-8 are read as U+FFFD: the line still counts,
    /// and what it says is read.
    @Test func invalidUTF8IsReadNotDropped() throws {
        let lines: [[UInt8]] = [
            Array("faultline: sql: SELECT t0.pk FROM \"T\" t0 WHERE t0.\"name\" = ?".utf8),
            Array("faultline: details: bind[0] = '".utf8) + [0xC3, 0x28] + Array("'".utf8),
            Array("faultline: annotation: sql execution time: 0.000010s, rows: 1, changed: 0, purpose: fetch T".utf8),
            [0xFF] + Array(" CoreData: annotation: fault fulfilled from database for : 0xd0 <x-coredata://A/".utf8) + [0xE2, 0x82] + Array("Ding/p4>".utf8),
        ]
        let analysis = Self.analyze(lines)
        #expect(analysis.logLines == 4 && analysis.skippedLines == 0)
        #expect(analysis.statements.map(\.count) == [1])
        #expect(analysis.statements.first?.rows == 1)
        #expect(analysis.faults.map(\.entity) == ["\u{FFFD}Ding"])
    }

    /// A paste from a Markdown table keeps its cell's bars: the statement
    /// is read from the marker on, as far as the cell goes.
    @Test func tableResidueAroundALineIsRead() throws {
        let analysis = Self.analyze([
            Array("| 2 Only | CoreData: annotation: fetch using NSSQLiteStatement <0x60800008bf40> on entity 'Person' with sql text 'SELECT 0, t0.Z_PK FROM ZPERSON t0 WHERE t0.ZAGE > ? ' returned 688187 rows |".utf8)
        ])
        #expect(analysis.statementsFromFetchAnnotations == 1)
        #expect(analysis.rowsReported == 688_187)
        #expect(analysis.statements.map(\.shape) == ["SELECT ?, t0.Z_PK FROM ZPERSON t0 WHERE t0.ZAGE > ?"])
    }

    /// A snapshot (what `--follow` prints) shares the analyzer's table of
    /// statement texts: reading on after it gives what reading straight
    /// through gives.
    @Test func aSnapshotLeavesTheAnalyzerAsItWas() {
        let lines = (0..<40).flatMap { index in
            [
                "faultline: sql: SELECT t0.pk, t0.\"name\" FROM \"Person\" t0 WHERE t0.pk = ?", "faultline: details: bind[0] = \(index % 3)",
                "faultline: annotation: sql execution time: 0.000010s, rows: 1, changed: 0, purpose: fault",
                "faultline: sql: SELECT count(*) FROM \"Person\" t0 WHERE t0.\"name\" LIKE ?", "faultline: details: bind[0] = '%\(index % 2)'",
                "faultline: annotation: sql execution time: 0.000020s, rows: 1, changed: 0, purpose: count Person",
                "faultline: annotation: count of Person where name like: 1 in 0.000030s at App/List.swift:\(10 + index % 4)",
            ]
        }
        var straight = SQLLogAnalyzer()
        var stopped = SQLLogAnalyzer()
        for (index, line) in lines.enumerated() {
            straight.consume(line: Data(line.utf8))
            stopped.consume(line: Data(line.utf8))
            if index % 50 == 3 {
                var snapshot = stopped
                _ = snapshot.finish()
            }
        }
        let expected = straight.finish()
        #expect(stopped.finish() == expected)
        #expect(expected.statements.map(\.count) == [40, 40])
        #expect(expected.insights.contains { $0.rule == .repeatedStatement })
    }

    /// Statement texts equal as characters but not as bytes (the Kelvin
    /// sign is a K) are one text to the repetition counts, as they are to
    /// Swift's strings: counted together, and no two entries for one text.
    @Test func textsEqualAsCharactersAreOneTextToTheRepetitionCounts() throws {
        let ascii = "SELECT t0.pk FROM \"T\" t0 WHERE t0.\"unit\" = 'K'"
        let kelvin = "SELECT t0.pk FROM \"T\" t0 WHERE t0.\"unit\" = '\u{212A}'"
        #expect(ascii == kelvin && Array(ascii.utf8) != Array(kelvin.utf8))
        var analyzer = SQLLogAnalyzer()
        for sql in [ascii, kelvin, ascii, kelvin] {
            analyzer.consume(line: Data("faultline: sql: \(sql)".utf8))
            analyzer.consume(line: Data("faultline: annotation: sql execution time: 0.000010s, rows: 1, changed: 0, purpose: fetch T".utf8))
            analyzer.consume(line: Data("faultline: annotation: fetch of T: 1 objects in 0.000020s at App/Units.swift:7".utf8))
        }
        let analysis = analyzer.finish()
        let repeated = try #require(analysis.insights.first { $0.rule == .repeatedStatement })
        #expect(repeated.message.contains("ran 4 times"), "\(repeated.message)")
        #expect(analyzer.evidence.repetitions.count == 1)
    }
}
