import Foundation
@testable import SQLLogViewer
import Testing

/// A statement's tokens read over its bytes are the tokens its characters
/// give (``SQLTokens/init(characters:)``, the reference), whichever text:
/// the corpus's statements, texts beyond ASCII, and texts whose bytes
/// beyond ASCII join a quote or a word into another character (read by
/// characters then).
@Suite struct SQLTokensTests {
    static let texts: [String] = [
        "SELECT t0.pk, t0.\"name\" FROM \"Selfie\" t0 WHERE (t0.\"rating\" < ? OR faultline_like(t0.\"name\", ?, 0) = 1) ORDER BY t0.\"name\" DESC LIMIT ? OFFSET ?",
        "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZPERSON t0 WHERE  t0.ZAGE >  ? ORDER BY t0.ZNAME",
        "select count(*) from (select t0.pk from [Post] t0 where t0.`likes` > 3.5e+2 limit 5)",
        "SELECT t0.pk FROM \"Po\"\"st\" t0 WHERE t0.\"ti\"\"tle\" GLOB '*a''b*' AND t0.x IN (1, 2, 3) ORDER BY t0.y, t0.z",
        "SELECT 0, t0.Z_PK FROM ZPERSON t0 WHERE t0.ZNAME = 'Zoë' AND t0.ZCITY LIKE 'Zürich%' ESCAPE '\\'",
        "SELECT 0, t0.Z_PK FROM ZPERSON t0 WHERE t0.ZNAME = 'a''ë''b' AND t0.ZNOTE = '日本語のテキスト'",
        // Beyond ASCII next to a quote, in a word, in an identifier, outside a literal: read by characters.
        "SELECT t0.pk FROM P t0 WHERE t0.a = '\u{301}x' AND t0.b = 'x\u{301}' AND t0.c = 'é'",
        "SELECT t0.pk FROM P t0 WHERE t0.a\u{301} = ? AND t0.Straße = ? AND t0.\"naïve\" = ?",
        "SELECT t0.pk FROM P t0 WHERE t0.a = ?\u{00A0}ORDER BY t0.b",
        "ſelect t0.pk FROM P t0 WHERE t0.a = ?",
        "SELECT t0.pk FROM P t0 WHERE t0.a = '\r\n' AND\r\nt0.b = ?",
        "SELECT t0.pk FROM P t0 WHERE t0.a = 'unclosed ë",
        "SELECT t0.pk FROM P t0 WHERE t0.a = \"unclosed",
        "SELECT t0.pk FROM P t0 WHERE t0.[a] = ? AND t0.$b = :c AND @d = 1 AND x'0A' = ?",
        "   \tSELECT(t0.pk)FROM P AS t0 WHERE EXISTS(SELECT 1 FROM Q q WHERE q.p = t0.pk)",
        "", "'", "[", "SELECT",
    ]

    @Test func bytesGiveTheTokensCharactersGive() throws {
        var texts = Self.texts
        // The corpus's statements, as the logs print them.
        let folder = SQLDebugCorpusTests.folder
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".log") {
            let log = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for line in log.split(separator: "\n") {
                guard let range = line.range(of: "sql: ") else { continue }
                texts.append(String(line[range.upperBound...]))
            }
        }
        #expect(texts.count > 60)
        for text in texts {
            let read = SQLTokens(text)
            let reference = SQLTokens(characters: text)
            #expect(read.list.count == reference.list.count, "\(text)")
            for (token, expected) in zip(read.list, reference.list) {
                #expect(read.text(token) == reference.text(expected), "\(text)")
                #expect(read.name(token) == reference.name(expected), "\(text)")
                #expect(token.isIdentifier == expected.isIdentifier && token.isStringLiteral == expected.isStringLiteral, "\(text)")
                #expect(token.punctuation == expected.punctuation && token.keyword == expected.keyword, "\(text)")
            }
        }
    }

    @Test func keywordsAreReadInAnyCaseAndOnlyAsWholeWords() {
        let tokens = SQLTokens("select Fromage FROM \"WHERE\" where Or_ oR ſelect")
        #expect(tokens.list.map(\.keyword) == [.select, nil, .from, nil, .where, nil, .or, .select])
        #expect(tokens.list.map { tokens.name($0) } == ["select", "Fromage", "FROM", "WHERE", "where", "Or_", "oR", "ſelect"])
    }

    @Test func aStatementBeyondASCIIHasTheFactsOfItsASCIITwin() throws {
        let facts = try #require(LoggedStatementFacts.facts(
            sql: "SELECT 0, t0.Z_PK FROM ZPERSON t0 WHERE t0.ZNAME = 'Zoë' AND t0.ZCITY LIKE '%ürich' ORDER BY t0.ZNAME", arguments: []))
        #expect(facts.entity == "ZPERSON")
        #expect(facts.filters.map { "\($0.column.attribute) \($0.use.rawValue)" } == ["ZNAME comparison", "ZCITY pattern from a wildcard"])
        #expect(facts.sortKeys.map(\.attribute) == ["ZNAME"])
        #expect(LoggedStatementFacts.startsWithSelect("\u{00A0}SELECT 1") && LoggedStatementFacts.startsWithSelect(" select(1)"))
        #expect(!LoggedStatementFacts.startsWithSelect("SELECTED") && !LoggedStatementFacts.startsWithSelect("UPDATE t SET a = 1"))
    }
}
