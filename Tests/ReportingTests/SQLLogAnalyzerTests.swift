import Foundation
import Testing
@testable import Reporting

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
        #expect(analysis.statementsInTransactions == 3)
        let select = analysis.statements.first { $0.shape.hasPrefix("SELECT") }
        #expect(select?.count == 2)
        #expect(select?.duplicates == 1)
        #expect(select?.rows == 2)
        #expect(abs((select?.totalSeconds ?? 0) - 0.0003) < 1e-9)
        #expect(select?.firstLine == 3)
        #expect(analysis.faults.map { "\($0.entity)/\($0.source)/\($0.count)" } == ["Network/database/2", "Selfie/row cache/1"])
        #expect(analysis.relationshipFaults.map(\.entity) == ["Selfie.networks"])
        // Total, mean and max of the two fault SELECTs.
        #expect(SQLLogText.render(analysis).contains("    0.000300   0.000150   0.000200      2     3  SELECT"))
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

    @Test func faultStormAndNPlusOneAreFound() {
        var lines: [String] = []
        for pk in 1...60 {
            lines.append("faultline: sql: SELECT t0.pk FROM \"Person\" t0 WHERE t0.pk = ?")
            lines.append("faultline: details: bind[0] = \(pk)")
            lines.append("faultline: annotation: fault fulfilled from database for Person/p\(pk) in 0.0001s")
        }
        let analysis = analyze(lines.joined(separator: "\n"))
        #expect(analysis.insights.map(\.rule) == ["fault-storm", "n-plus-one"])
        #expect(analysis.insights.allSatisfy { $0.firstLine == 1 || $0.firstLine == 3 })
        #expect(analysis.statements.first?.duplicates == 0)
    }

    @Test func aLongLineIsCutAndReadingGoesOn() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-log-\(UUID()).log")
        defer { try? FileManager.default.removeItem(at: url) }
        var data = Data("faultline: sql: SELECT 1\n".utf8)
        data.append(Data(repeating: UInt8(ascii: "x"), count: SQLLogAnalyzer.maximumLineBytes * 3))
        data.append(Data("\nfaultline: sql: SELECT 2\n".utf8))
        try data.write(to: url)
        var analyzer = SQLLogAnalyzer()
        analyzer.consume(try FileHandle(forReadingFrom: url))
        let analysis = analyzer.finish()
        #expect(analysis.truncatedLines == 1)
        #expect(analysis.logLines == 2)
        #expect(analysis.statements.map(\.count) == [2])
        #expect(analysis.statements.first?.duplicates == 0)
        #expect(SQLLogText.render(analysis).contains("1 cut at"))
    }
}
