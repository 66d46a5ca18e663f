import Foundation
import Probes
@testable import SQLLogViewer
import Scenarios
import Testing

/// `perf-run log` reads the common lines of an ASCII log over their bytes
/// (SQLLogAnalyzer+Bytes.swift) and other text by characters. Each byte
/// reader gives what its reader by characters gives: checked here on
/// random lines made of the pieces those readers look for (a seeded
/// generator, so a failure repeats), and on what the analyzer keeps from
/// one statement text to the next.
@Suite struct SQLLogByteReadingTests {
    /// A line of `count` pieces drawn from `pieces`.
    static func line(_ pieces: [String], count: Int, _ generator: inout SeededGenerator) -> String {
        (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }

    static func bytes<T>(_ text: String, _ body: (LogBytes) -> T) -> T {
        var text = text
        return text.withUTF8 { body(LogBytes(UnsafeRawBufferPointer($0))) }
    }

    @Test func planRowsOverBytesAreThePlanRowsByCharacters() {
        let pieces = [
            "0", "1", "12", "-3", "+4", "99999999999999999999", "|", "|", " ", "  ", "\t", "SCAN ", "SCAN", "SEARCH ", "USE TEMP B-TREE",
            "EXECUTE LIST SUBQUERY", "EXECUTE SCALAR SUBQUERY", "EXECUTE CORRELATED ", "CORRELATED ", "LIST SUBQUERY", "SCALAR SUBQUERY",
            "TABLE ", "ZITEM", "AS t0", "USING INDEX i", "(a=?)", "S", "C", "E", "L", "U", "SC", "x", "\r", "[full scan]", "`--", "|--",
        ]
        var generator = SeededGenerator(seed: 1)
        var rows = 0
        for _ in 0..<20_000 {
            let line = Self.line(pieces, count: Int.random(in: 0...9, using: &generator), &generator)
            let byCharacters = SQLLogAnalyzer.planRowByCharacters(line)
            #expect(SQLLogAnalyzer.planRow(line) == byCharacters, "\(line.debugDescription)")
            if byCharacters != nil { rows += 1 }
        }
        // Both kinds of line were drawn.
        #expect(rows > 2_000 && rows < 18_000)
        // A line beyond ASCII is read by characters: Unicode's spaces trimmed.
        #expect(SQLLogAnalyzer.planRow("\u{2003}0|0|0|SCAN TABLE ZITEM\u{00A0}") == "SCAN TABLE ZITEM")
    }

    /// Which lines are read over bytes: ASCII without an escape (a colour
    /// code's start), eight bytes at a time, whatever the length.
    @Test func aLineIsReadOverBytesWhenItIsPlainASCII() {
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...40, using: &generator)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0x20...0x7E, using: &generator) }
            if length > 0, Bool.random(using: &generator) {
                bytes[Int.random(in: 0..<length, using: &generator)] = [0x1B, 0x80, 0xC3, 0xFF, 0x7F, 0x1A].randomElement(using: &generator)!
            }
            let plain = bytes.allSatisfy { $0 < 0x80 && $0 != 0x1B }
            #expect(bytes.withUnsafeBytes { SQLLogAnalyzer.isPlainASCII($0) } == plain, "\(bytes)")
            #expect(bytes.withUnsafeBytes { SQLLogAnalyzer.isASCII($0) } == bytes.allSatisfy { $0 < 0x80 }, "\(bytes)")
        }
    }

    @Test func timesCountsAndSearchesOverBytesAreTheirReadingsByCharacters() {
        let pieces = [
            "sql execution time: ", "0", "1", "5", ".", "e", "E", "-", "+", "s", "#", ",", " ", "inf", "nan", "\r", ":", "rows: ", " in ", " in 0",
            " in 1", "/p", "/p/p", " at ", " at at ", "12", "123456789012345678", "0.000012", "1e-05",
        ]
        var generator = SeededGenerator(seed: 2)
        for _ in 0..<20_000 {
            let text = Self.line(pieces, count: Int.random(in: 0...8, using: &generator), &generator)
            Self.bytes(text) { bytes in
                let all = 0..<bytes.count
                #expect(SQLLogAnalyzer.time(in: bytes, all) == SQLLogAnalyzer.time(in: text[...]), "\(text.debugDescription)")
                #expect(bytes.int(all) == Int(text), "\(text.debugDescription)")
                #expect(SQLLogAnalyzer.parseDouble(bytes, all)?.bitPattern == Double(text)?.bitPattern, "\(text.debugDescription)")
                #expect(SQLLogAnalyzer.number(after: "rows: ", in: bytes, all) == SQLLogAnalyzer.number(after: "rows: ", in: text[...]))
                #expect(SQLLogAnalyzer.nanoseconds(in: bytes) == SQLLogAnalyzer.nanoseconds(characters: text[...]), "\(text.debugDescription)")
                #expect(SQLLogAnalyzer.primaryKey(in: bytes) == SQLLogAnalyzer.primaryKey(characters: text[...]), "\(text.debugDescription)")
                for (needle, string) in [(" at " as StaticString, " at "), ("/p", "/p"), (" in 0", " in 0")] {
                    let found = SQLLogAnalyzer.findLast(string, in: text[...]).map {
                        text.utf8.distance(from: text.startIndex, to: $0.lowerBound)
                    }
                    #expect(bytes.findLast(needle, in: all)?.lowerBound == found, "\(string) in \(text.debugDescription)")
                }
            }
        }
    }

    @Test func lazyLoadSuffixesAndCallSitesOverBytesAreTheirReadingsByCharacters() {
        let pieces = [
            " (", ")", ";", " ", "absent", "stale", "read at ", "from fetch ", "12", "x", " of ", "Post", " at ", "App/List.swift", ":", "70",
            " through ", "author.company", "Blog.swift:73", "(", "of", "at",
            " (absent; from fetch 12 of Post at App/List.swift:70 through author.company; read at Blog.swift:73)",
            " (stale; from fetch 3 of Post at App/List.swift:70; read at Blog.swift:73)", "from fetch 7 of Post at Blog.swift:1",
        ]
        var generator = SeededGenerator(seed: 3)
        var origins = 0
        for _ in 0..<20_000 {
            let text = "fault fulfilled from database for Post/p1 in 0.000010s" + Self.line(pieces, count: Int.random(in: 0...14, using: &generator), &generator)
            let byCharacters = LazyLoadSuffix(characters: text[...])
            var texts = LogTextTable()
            let overBytes = Self.bytes(text) { LazyLoadSuffix($0, texts: &texts) }
            #expect(overBytes.reason == byCharacters.reason, "\(text.debugDescription)")
            #expect(overBytes.origin == byCharacters.origin, "\(text.debugDescription)")
            #expect(overBytes.read == byCharacters.read, "\(text.debugDescription)")
            if byCharacters.origin != nil { origins += 1 }
            let site = Self.bytes(text) { SQLLogAnalyzer.callSite($0, 0..<$0.count, texts: &texts) }
            #expect(site == SQLLogAnalyzer.callSite(characters: text[...]), "\(text.debugDescription)")
        }
        #expect(origins > 100)
    }

    @Test func fetchAnnotationsOverBytesAreTheirReadingsByCharacters() {
        let pieces = [
            "fetch using NSSQLiteStatement <0x1>", " on entity '", "Person", "'", " with sql text '", "SELECT 0, t0.Z_PK FROM ZPERSON t0",
            " returned ", "3", " rows", " with values: ", "(", " returned 7 ", " ", "\t",
        ]
        var generator = SeededGenerator(seed: 4)
        var read = 0
        for _ in 0..<20_000 {
            let text = "fetch using " + Self.line(pieces, count: Int.random(in: 0...12, using: &generator), &generator)
            let byCharacters = SQLLogAnalyzer.FetchUsing(text[...])
            let overBytes = Self.bytes(text) { SQLLogAnalyzer.FetchUsing($0, 0..<$0.count) }
            #expect(overBytes?.rows == byCharacters?.rows, "\(text.debugDescription)")
            #expect(overBytes?.entity == byCharacters?.entity, "\(text.debugDescription)")
            #expect(overBytes?.sql == byCharacters?.sql, "\(text.debugDescription)")
            #expect(overBytes?.values.map(String.init) == byCharacters?.values.map(String.init), "\(text.debugDescription)")
            if byCharacters != nil { read += 1 }
        }
        #expect(read > 1_000)
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
