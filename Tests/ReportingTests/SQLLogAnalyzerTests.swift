import Foundation
@testable import Reporting
@testable import SQLLogViewer
import Testing

@Suite struct SQLLogAnalyzerTests {
    private func analyze(_ text: String) -> SQLLogAnalysis {
        var analyzer = SQLLogAnalyzer()
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) { analyzer.consume(line: Data(line.utf8)) }
        return analyzer.finish()
    }

    @Test func faultlineLogGivesShapesFaultsAndTransactions() {
        let log = """
            faultline: sql: BEGIN DEFERRED
            faultline: annotation: sql execution time: 0.000010s, rows: 0, changed: 0, purpose: transaction
            faultline: sql: SELECT t0.pk, t0."name" FROM "Network" t0 WHERE t0.pk = ?
            faultline: details: bind[0] = 1
            faultline: annotation: sql execution time: 0.000200s, rows: 1, changed: 0, purpose: fault
            faultline: annotation: fault fulfilled from database for Network/p1 in 0.000300s
            some unrelated output
            faultline: sql: SELECT t0.pk, t0."name" FROM "Network" t0 WHERE t0.pk = ?
            faultline: details: bind[0] = 1
            faultline: annotation: sql execution time: 0.000100s, rows: 1, changed: 0, purpose: fault
            faultline: annotation: fault fulfilled from database for Network/p1 in 0.000200s
            faultline: annotation: fault fulfilled from row cache for Selfie/p2 in 0.000001s
            faultline: annotation: to-many relationship fault "networks" for Selfie/p1 fulfilled from database: 2 Network in 0.1s
            faultline: sql: COMMIT
            """
        let analysis = analyze(log)
        #expect(analysis.lines == 14)
        #expect(analysis.logLines == 13)
        #expect(analysis.skippedLines == 1)
        #expect(analysis.formats == ["faultline"])
        #expect(analysis.transactions == 1)
        #expect(analysis.statementsInTransactions == 2)
        #expect(analysis.largestTransactions == [.init(firstLine: 1, statements: 2, outcome: "commit")])
        let select = analysis.statements.first { $0.shape.hasPrefix("SELECT") }
        #expect(select?.count == 2)
        #expect(select?.duplicates == 1)
        #expect(select?.rows == 2)
        #expect(abs((select?.totalSeconds ?? 0) - 0.0003) < 1e-9)
        #expect(select?.firstLine == 3)
        #expect(analysis.faults.map { "\($0.entity)/\($0.source)/\($0.count)" } == ["Network/database/2", "Selfie/row cache/1"])
        #expect(analysis.relationshipFaults.map(\.entity) == ["Selfie.networks"])
        // Total, mean and max of the two fault SELECTs.
        #expect(SQLLogText.render(analysis).contains("   300 µs    150 µs    200 µs         2      3  SELECT"))
    }

    @Test func coreDataLogWithPrefixesColoursAndPlans() {
        let log = """
            2026-11-20 10:00:00.000 App[123:456] CoreData: sql: SELECT 0, t0.Z_PK, t0.ZNAME FROM ZPERSON t0 WHERE  t0.ZAGE > ?
            2026-11-20 10:00:00.001 App[123:456] CoreData: details: SQLite bind[0] = 30
            2026-11-20 10:00:00.002 App[123:456] \u{1B}[32mCoreData: annotation: sql connection fetch time: 0.0021s\u{1B}[0m
            oreData: annotation: total fetch execution time: 0.0030s for 12 rows.
            CoreData: details: SQLite: EXPLAIN QUERY PLAN SELECT 0, t0.Z_PK FROM ZPERSON t0
            0|0|0|SCAN TABLE ZPERSON AS t0
            CoreData: annotation: Prefetching with key 'friends'.  Got 12 rows.
            CoreData: annotation: fault fulfilled from database for : 0x8 <x-coredata://UUID/Person/p7>
            """
        let analysis = analyze(log)
        #expect(analysis.formats == ["coredata"])
        #expect(analysis.skippedLines == 0)
        #expect(analysis.statements.count == 1)
        #expect(analysis.statements.first?.rows == 12)
        #expect(abs((analysis.statements.first?.totalSeconds ?? 0) - 0.0021) < 1e-9)
        #expect(analysis.fullScans == ["SCAN TABLE ZPERSON AS t0"])
        #expect(analysis.prefetches.map(\.entity) == ["friends"])
        #expect(analysis.faults.map { "\($0.entity)/\($0.source)" } == ["Person/database"])
    }

    @Test func aLongLineIsCutAndReadingGoesOn() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-log-\(UUID()).log")
        defer { try? FileManager.default.removeItem(at: url) }
        var data = Data("faultline: sql: SELECT 1\n".utf8)
        data.append(Data(repeating: UInt8(ascii: "x"), count: SQLLogAnalyzer.maximumLineBytes * 3))
        data.append(Data("\nfaultline: sql: SELECT 2\n".utf8))
        try data.write(to: url)
        var analyzer = SQLLogAnalyzer()
        try analyzer.consume(try FileHandle(forReadingFrom: url), path: url.path)
        let analysis = analyzer.finish()
        #expect(analysis.truncatedLines == 1)
        #expect(analysis.logLines == 2)
        #expect(analysis.statements.map(\.count) == [2])
        #expect(analysis.statements.first?.duplicates == 0)
        #expect(SQLLogText.render(analysis).contains("1 cut at"))
    }
}

@Suite struct SQLLogCorpusTests {
    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    private func analyze(_ url: URL) throws -> SQLLogAnalysis {
        var analyzer = SQLLogAnalyzer()
        try analyzer.consume(try FileHandle(forReadingFrom: url), path: url.path)
        return analyzer.finish()
    }

    /// Fixtures/coredata-messy.log: leading spaces, NSLog prefixes, a cut
    /// prefix, double spaces in SQL, colour codes, app output and a stack
    /// frame in between, a shell plan row, prefetch, to-many fault, count
    /// request and intarray annotations.
    @Test func messyCoreDataLog() throws {
        let analysis = try analyze(Self.fixtures.appendingPathComponent("coredata-messy.log"))
        #expect(analysis.lines == 24)
        #expect(analysis.skippedLines == 3)
        #expect(analysis.formats == ["coredata"])
        #expect(analysis.statements.map(\.count).reduce(0, +) == 7)
        #expect(analysis.statements.count == 6)
        let ages = analysis.statements.first { $0.shape.contains("ZAGE > ? ORDER BY") }
        #expect(ages?.count == 2)  // double spaces folded, with and without prefixes
        #expect(ages?.duplicates == 1)
        #expect(ages?.rows == 3)
        #expect(analysis.countRequests == 1)
        #expect(analysis.boundIntarrays == 1)
        #expect(analysis.transactions == 1)
        #expect(analysis.statementsInTransactions == 1)
        #expect(analysis.fullScans == ["SCAN TABLE ZPERSON AS t0"])
        #expect(analysis.planRows == [.init(row: "SCAN TABLE ZPERSON AS t0", count: 1, fullScan: true, firstLine: 21)])
        #expect(analysis.prefetches.map { "\($0.entity)/\($0.count)" } == ["friends/1"])
        #expect(analysis.relationshipFaults.map { "\($0.entity)/\($0.source)" } == ["Person.friends/database"])
        #expect(analysis.faults.map { "\($0.entity)/\($0.source)/\($0.firstLine)" } == ["Person/database/16"])
        let count = analysis.statements.first { $0.shape.hasPrefix("SELECT COUNT") }
        #expect(abs((count?.totalSeconds ?? 0) - 0.0004) < 1e-9)
    }

    @Test func badInputIsReadWithoutLogLines() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-bad-logs-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = directory.appendingPathComponent("empty.log")
        try Data().write(to: empty)
        let binary = directory.appendingPathComponent("binary.log")
        try Data((0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }).write(to: binary)
        let emptyAnalysis = try analyze(empty)
        #expect(emptyAnalysis.lines == 0)
        #expect(emptyAnalysis.logLines == 0)
        let binaryAnalysis = try analyze(binary)
        #expect(binaryAnalysis.logLines == 0)
        #expect(binaryAnalysis.skippedLines == binaryAnalysis.lines)
        // Invalid UTF-8 inside a log line: replaced, the line still counts.
        let invalid = directory.appendingPathComponent("invalid.log")
        try (Data("faultline: sql: SELECT \"".utf8) + Data([0xFF, 0xFE]) + Data("\" FROM t\n".utf8)).write(to: invalid)
        let invalidAnalysis = try analyze(invalid)
        #expect(invalidAnalysis.logLines == 1)
        #expect(invalidAnalysis.statements.count == 1)
    }
}

extension SQLLogCorpusTests {
    /// The engine's own golden logs (Tests/ProbesTests/Golden): every level
    /// reads back to the same workload.
    @Test(arguments: 1...4) func faultlineGoldenLog(level: Int) throws {
        let url = Self.fixtures.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ProbesTests/Golden/sql-debug-level-\(level).log")
        let analysis = try analyze(url)
        #expect(analysis.skippedLines == 0)
        #expect(analysis.formats == ["faultline"])
        #expect(analysis.statements.map(\.count).reduce(0, +) == 12)
        #expect(analysis.statements.count == 10)
        #expect(analysis.transactions == 3)
        // A reader's transaction holds the writer's (two connections, one
        // log): the writer's COMMIT ends the innermost.
        #expect(analysis.statementsInTransactions == 7)
        #expect(analysis.largestTransactions.map { "\($0.statements) \($0.outcome)" } == ["5 commit", "1 commit", "1 open"])
        #expect(analysis.faults.map { "\($0.entity)/\($0.source)" } == ["Network/database", "Selfie/row cache"])
        #expect(analysis.relationshipFaults.map { "\($0.entity)/\($0.source)" } == ["Selfie.networks/database"])
        #expect(analysis.fullScans == (level < 4 ? [] : ["SCAN Person", "SCAN t0"]))
        #expect(analysis.planRows.count == (level < 4 ? 0 : 9))
        #expect(analysis.planRows.filter(\.fullScan).map(\.row) == (level < 4 ? [] : ["SCAN t0", "SCAN Person"]))
    }
}

extension SQLLogCorpusTests {
    /// Some megabytes through the streaming path: lines straddle the 1 MiB
    /// reads, and every count still comes out exact.
    @Test func aGeneratedLogOfSomeMegabytes() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-generated-\(UUID()).log")
        defer { try? FileManager.default.removeItem(at: url) }
        var text = ""
        let rounds = 40_000
        for round in 0..<rounds {
            text += "faultline: sql: SELECT t0.pk, t0.\"name\" FROM \"Network\" t0 WHERE t0.pk = ?\n"
            text += "faultline: details: bind[0] = \(round % 1_000)\n"
            text += "faultline: annotation: sql execution time: 0.000010s, rows: 1, changed: 0, purpose: fault\n"
            text += "faultline: annotation: fault fulfilled from database for Network/p\(round % 1_000) in 0.000020s\n"
            text += "app: request \(round) handled\n"
        }
        try Data(text.utf8).write(to: url)
        #expect(text.utf8.count > 10_000_000)
        let analysis = try analyze(url)
        #expect(analysis.lines == rounds * 5)
        #expect(analysis.skippedLines == rounds)
        #expect(analysis.statements.map(\.count) == [rounds])
        #expect(analysis.statements.first?.duplicates == rounds - 1_000)
        #expect(analysis.statements.first?.rows == rounds)
        #expect(analysis.faults.map(\.count) == [rounds])
        #expect(analysis.timeline.map(\.statements).reduce(0, +) == rounds)
    }
}
