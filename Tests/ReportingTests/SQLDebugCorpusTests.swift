import Foundation
import SQLLogViewer
import Testing

/// Real SQLDebug output from public sources (Fixtures/sqldebug-corpus, kept
/// as the sources printed it, and one log composed from their lines): the
/// viewer's counts against the hand counts of manifest.json, for every file,
/// the rows of every statement and the plan rows included.
@Suite struct SQLDebugCorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/sqldebug-corpus")

    struct Entry: Decodable {
        var file: String
        var statements: Int
        var selects: Int
        var fetchesWithRows: Int
        var rows: Int
        var faults: Int
        var fullScans: Int
        var planRows: Int
        /// Every statement shape's rows, at the line where it first appears.
        var statementRows: [StatementRows]
    }

    struct StatementRows: Decodable, Equatable, CustomStringConvertible {
        var line: Int
        var rows: Int
        var description: String { "line \(line): \(rows)" }
    }

    /// The viewer's counts, in the manifest's terms.
    struct Counts: Equatable, CustomStringConvertible {
        var statements, selects, fetchesWithRows, rows, faults, fullScans, planRows: Int
        var statementRows: [StatementRows]
        var description: String {
            "statements \(statements), selects \(selects), fetches with rows \(fetchesWithRows), rows \(rows), faults \(faults), "
                + "full scans \(fullScans), plan rows \(planRows), rows per statement \(statementRows)"
        }
    }

    static func counts(_ analysis: SQLLogAnalysis) -> Counts {
        Counts(
            statements: analysis.statements.reduce(0) { $0 + $1.count },
            selects: analysis.statements.filter { $0.shape.uppercased().hasPrefix("SELECT") }.reduce(0) { $0 + $1.count },
            fetchesWithRows: analysis.fetchesWithRows, rows: analysis.rowsReported,
            faults: analysis.faults.reduce(0) { $0 + $1.count }, fullScans: analysis.fullScans.count,
            planRows: analysis.planRows.reduce(0) { $0 + $1.count },
            statementRows: analysis.statements.map { StatementRows(line: $0.firstLine, rows: $0.rows) }.sorted { $0.line < $1.line })
    }

    static func analyze(_ file: String) throws -> SQLLogAnalysis {
        var analyzer = SQLLogAnalyzer()
        let handle = try FileHandle(forReadingFrom: folder.appendingPathComponent(file))
        try analyzer.consume(handle, path: file)
        return analyzer.finish()
    }

    @Test func everyLogOfTheCorpusCountsAsByHand() throws {
        let manifest = try JSONDecoder().decode([Entry].self, from: Data(contentsOf: Self.folder.appendingPathComponent("manifest.json")))
        #expect(manifest.count == 31)
        for entry in manifest {
            let got = Self.counts(try Self.analyze(entry.file))
            let want = Counts(
                statements: entry.statements, selects: entry.selects, fetchesWithRows: entry.fetchesWithRows, rows: entry.rows,
                faults: entry.faults, fullScans: entry.fullScans, planRows: entry.planRows, statementRows: entry.statementRows)
            #expect(got == want, "\(entry.file):\n  by hand: \(want)\n  viewer:  \(got)")
        }
    }
}
