import Foundation
import Testing
@testable import ObjectGraph

/// The parser never crashes and never hangs, whatever the input: random
/// token soups, random characters and mutations of real predicates. A short
/// run in `make test`; `make fuzz-predicates` runs a million.
@Suite struct PredicateFuzzTests {
    static var count: Int { Int(ProcessInfo.processInfo.environment["FAULTLINE_FUZZ_COUNT"] ?? "") ?? 20_000 }

    static let vocabulary = [
        "name", "age", "selfies", "company", ".", "@count", "@sum", "@avg", ".rating", "==", "=", "!=", "<>", "<", "<=", ">",
        ">=", "=<", "=>", "AND", "OR", "NOT", "&&", "||", "!", "(", ")", "{", "}", ",", "[c]", "[d]", "[cd]", "[", "]",
        "LIKE", "CONTAINS", "BEGINSWITH", "ENDSWITH", "MATCHES", "IN", "BETWEEN", "ANY", "ALL", "NONE", "SOME",
        "SUBQUERY(", "$x", "$x.rating", "%@", "%K", "%d", "%f", "nil", "NULL", "YES", "NO", "TRUEPREDICATE",
        "FALSEPREDICATE", "'a'", "\"b\"", "'", "\"", "1", "-2", "3.5", "1e3", "CAST(", "\"NSDate\"", "#in", "é", "日本", " ",
    ]

    /// Parses one input; true when it parsed. What parses prints back to
    /// the same tree and compiles or fails with a model error; what does not
    /// parse fails with a column inside the input.
    static func check(_ text: String, _ entity: EntityDescription) -> Bool {
        let result = Result { () throws(PredicateSyntaxError) -> ObjectPredicate in try ObjectPredicate(format: text) }
        switch result {
        case .success(let predicate):
            let again = Result { () throws(PredicateSyntaxError) -> ObjectPredicate in try ObjectPredicate(format: predicate.description) }
            if case .success(let reparsed) = again, reparsed == predicate {} else {
                Issue.record("\(text) printed as \(predicate.description), which gives \(again)")
            }
            var builder = QueryBuilder(model: Fixtures.model, root: entity)
            _ = try? builder.compile(predicate)
            return true
        case .failure(let error):
            if error.column < 1 || error.column > text.unicodeScalars.count + 1 { Issue.record("\(text): \(error)") }
            return false
        }
    }

    @Test func parserNeverCrashesOrHangs() throws {
        var rng = SeededGenerator(seed: 20261122)
        let seeds = PredicateTable.rows(acme: ObjectID(entity: Fixtures.model.entities[3], primaryKey: 1),
                                        ada: ObjectID(entity: Fixtures.model.entities[0], primaryKey: 1)).map(\.format)
        let person = try Fixtures.model.entity("Person")
        var parsed = 0
        let start = Date()
        for iteration in 0..<Self.count {
            let text: String
            switch iteration % 3 {
            case 0:
                text = (0..<Int.random(in: 0...14, using: &rng)).map { _ in Self.vocabulary.randomElement(using: &rng)! }
                    .joined(separator: Bool.random(using: &rng) ? " " : "")
            case 1:
                text = String(String.UnicodeScalarView((0..<Int.random(in: 0...30, using: &rng)).compactMap { _ in
                    Unicode.Scalar(UInt32.random(in: 1...(Bool.random(using: &rng) ? 0x7F : 0x2FFF), using: &rng))
                }))
            default:
                var scalars = Array(seeds.randomElement(using: &rng)!.unicodeScalars)
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    let position = Int.random(in: 0...scalars.count, using: &rng)
                    switch Int.random(in: 0..<3, using: &rng) {
                    case 0 where position < scalars.count: scalars.remove(at: position)
                    case 1: scalars.insert(Self.vocabulary.randomElement(using: &rng)!.unicodeScalars.first ?? " ", at: position)
                    default:
                        if position < scalars.count { scalars[position] = Unicode.Scalar(UInt8.random(in: 32...126, using: &rng)) }
                    }
                }
                text = String(String.UnicodeScalarView(scalars))
            }
            if Self.check(text, person) { parsed += 1 }
        }
        #expect(parsed > 0)
        // A hang would show here long before any time limit.
        #expect(Date().timeIntervalSince(start) < Double(Self.count) * 0.002 + 10)
    }
}
