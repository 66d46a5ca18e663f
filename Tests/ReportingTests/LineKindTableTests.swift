import Foundation
@testable import SQLLogViewer
import Testing

/// docs/sql-debug-log.md lists every line form the reader knows ("Core
/// Data's lines, as the reader takes them"), each with a line of the
/// corpus: every example is a line of the file it names, and the reader
/// reads it as a log line (the file read without it has fewer).
@Suite struct LineKindTableTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The table's rows: the form, and each example with its corpus file's number.
    static func rows() throws -> [(form: String, examples: [(text: String, file: String)])] {
        let doc = try String(contentsOf: root.appendingPathComponent("docs/sql-debug-log.md"), encoding: .utf8)
        let start = try #require(doc.range(of: "### Core Data's lines, as the reader takes them"))
        let section = doc[start.upperBound...]
        let bar = "\u{0}"
        var rows: [(String, [(String, String)])] = []
        for line in section.split(separator: "\n").drop(while: { !$0.hasPrefix("| form") }).dropFirst(2) {
            guard line.hasPrefix("| ") else { break }
            let cells = line.replacingOccurrences(of: "\\|", with: bar).split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let form = cells[0].replacingOccurrences(of: bar, with: "|"), example = cells[cells.count - 1]
            let spans = try Regex("``\\s?(.+?)\\s?``|`([^`]+)`")
            let files = try Regex("\\((\\d\\d)[^)]*\\)")
            let fileMatches = example.matches(of: files).map { (at: $0.range.lowerBound, number: String(example[$0.output[1].range!])) }
            var examples: [(String, String)] = []
            for match in example.matches(of: spans) {
                let range = match.output[1].range ?? match.output[2].range!
                guard let file = fileMatches.first(where: { $0.at >= match.range.upperBound })?.number else { continue }
                examples.append((String(example[range]).replacingOccurrences(of: bar, with: "|"), file))
            }
            rows.append((form, examples))
        }
        return rows
    }

    static func logLines(_ lines: [Substring]) -> Int {
        var analyzer = SQLLogAnalyzer()
        for line in lines { analyzer.consume(line: Data(line.utf8)) }
        return analyzer.finish().logLines
    }

    @Test func everyListedLineFormIsReadFromTheCorpus() throws {
        let rows = try Self.rows()
        #expect(rows.count >= 27)
        let corpus = Self.root.appendingPathComponent("Tests/ReportingTests/Fixtures/sqldebug-corpus")
        let names = try FileManager.default.contentsOfDirectory(atPath: corpus.path)
        for row in rows {
            #expect(!row.examples.isEmpty, "\(row.form): no example from the corpus")
            var read = false
            for example in row.examples {
                let name = try #require(names.first { $0.hasPrefix(example.file + "-") }, "\(row.form): no corpus file \(example.file)")
                let lines = try String(contentsOf: corpus.appendingPathComponent(name), encoding: .utf8)
                    .split(separator: "\n", omittingEmptySubsequences: false)
                // `…` stands for what the example leaves out.
                let pieces = example.text.components(separatedBy: "…").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                let index = lines.firstIndex { line in
                    var rest = Substring(line)
                    for piece in pieces {
                        guard let found = rest.range(of: piece) else { return false }
                        rest = rest[found.upperBound...]
                    }
                    return true
                }
                guard let index else {
                    Issue.record("\(row.form): `\(example.text)` is no line of \(name)")
                    continue
                }
                var without = lines
                without.remove(at: index)
                if Self.logLines(without) < Self.logLines(lines) { read = true }
            }
            #expect(read, "\(row.form): no example read as a log line")
        }
    }
}
