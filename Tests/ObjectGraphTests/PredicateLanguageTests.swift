import Foundation
import Testing
@testable import ObjectGraph

@Suite struct PredicateLanguageTests {
    struct Expected: Codable, Equatable {
        var entity: String
        var format: String
        var canonical: String
        var sql: String
        var arguments: [String]
        var matches: [String]
    }

    private static let goldenFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden/predicate-table.json")

    /// Every row: the SQL and bound values it compiles to, the objects it
    /// matches through SQL and in memory (the same), and its canonical form
    /// parsing back to the same tree.
    @Test func theTable() throws {
        let store = try Fixtures.store()
        let (acme, ada) = try PredicateTable.populate(store)
        let rows = PredicateTable.rows(acme: acme, ada: ada)
        #expect(rows.count >= 80)
        let context = ObjectContext(store: store)
        var produced: [Expected] = []
        try context.perform {
            for row in rows {
                let predicate = try ObjectPredicate(format: row.format, arguments: row.arguments, variables: row.variables)
                let entity = try store.model.entity(row.entity)
                var builder = QueryBuilder(model: store.model, root: entity)
                let sql = try builder.compile(predicate)
                let fetched = try context.fetch(FetchRequest<ManagedObject>(entityName: row.entity, predicate: predicate))
                let sqlMatches = try fetched.map { try $0.value(forKey: "name") }.map { "\($0)" }.sorted()
                let all = Array(try context.fetch(FetchRequest<ManagedObject>(entityName: row.entity)))
                let memoryMatches = try context.filter(all, predicate).map { try $0.value(forKey: "name") }.map { "\($0)" }.sorted()
                #expect(sqlMatches == memoryMatches, "\(row.format): SQL \(sqlMatches) in memory \(memoryMatches)")
                if !row.arguments.contains(where: { $0 is ObjectID }) {
                    #expect(try ObjectPredicate(format: predicate.description) == predicate, "round trip of \(row.format): \(predicate)")
                }
                produced.append(Expected(
                    entity: row.entity, format: row.format, canonical: predicate.description, sql: sql,
                    arguments: builder.arguments.map(\.description), matches: sqlMatches))
            }
        }
        if ProcessInfo.processInfo.environment["FAULTLINE_UPDATE_GOLDEN"] == "1" {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(produced).write(to: Self.goldenFile)
        }
        let expected = try JSONDecoder().decode([Expected].self, from: Data(contentsOf: Self.goldenFile))
        #expect(expected.count == produced.count)
        for (want, got) in zip(expected, produced) where want != got {
            Issue.record("\(want.format):\n expected \(want)\n got      \(got)")
        }
    }

    @Test func subqueryCountsAboveZeroAreExists() throws {
        let predicate = try ObjectPredicate(format: "SUBQUERY(selfies, $x, $x.rating < 5 OR $x.name LIKE '*e*ie*').@count > 0")
        var builder = QueryBuilder(model: Fixtures.model, root: try Fixtures.model.entity("Person"))
        #expect(try builder.compile(predicate) == "EXISTS (SELECT 1 FROM \"Person_selfies\" s1_j JOIN \"Selfie\" s1_0 ON s1_0.pk = s1_j.destination WHERE s1_j.source = t0.pk AND (s1_0.\"rating\" < ? OR faultline_like(s1_0.\"name\", ?, 0) = 1))")
        #expect(builder.arguments == [.integer(5), .text("*e*ie*")])
    }

    @Test(arguments: [
        ("(rating < 5 OR name LIKE 'x'", "expected ')' at column 29 in \"(rating < 5 OR name LIKE 'x'\""),
        ("rating <", "expected an expression, got the end at column 9 in \"rating <\""),
        ("rating 5", "expected a comparison operator, got '5' at column 8 in \"rating 5\""),
        ("name == 'open", "unterminated string at column 9 in \"name == 'open\""),
        ("name == %q", "unknown format specifier %q at column 9 in \"name == %q\""),
        ("name == %@", "missing argument for %@ (0 given) at column 9 in \"name == %@\""),
        ("rating < 5 5", "unexpected '5'; expected AND, OR or the end at column 12 in \"rating < 5 5\""),
        ("name ==[x] 'a'", "expected c, d or cd between '[' and ']' at column 9 in \"name ==[x] 'a'\""),
        ("AND == 1", "expected an expression, got the keyword AND at column 1 in \"AND == 1\""),
        ("rating € 5", "unexpected character '€' at column 8 in \"rating € 5\""),
    ])
    func syntaxErrorsSayWhatAndWhere(format: String, message: String) {
        #expect(throws: PredicateSyntaxError.self) { try ObjectPredicate(format: format) }
        do {
            _ = try ObjectPredicate(format: format)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func nestingIsLimited() {
        let deep = String(repeating: "(", count: 65) + "rating < 5" + String(repeating: ")", count: 65)
        #expect(throws: PredicateSyntaxError("nesting deeper than 64 levels", column: 65, format: deep)) { try ObjectPredicate(format: deep) }
        let fine = String(repeating: "(", count: 64) + "rating < 5" + String(repeating: ")", count: 64)
        #expect(throws: Never.self) { try ObjectPredicate(format: fine) }
        let nots = String(repeating: "NOT ", count: 100_000) + "rating < 5"
        #expect(throws: PredicateSyntaxError.self) { try ObjectPredicate(format: nots) }
    }

    @Test func modelErrorsNameTheEntityKeyAndTypes() throws {
        let person = try Fixtures.model.entity("Person")
        func compile(_ format: String, _ arguments: any PredicateArgument...) throws -> String {
            var builder = QueryBuilder(model: Fixtures.model, root: person)
            return try builder.compile(ObjectPredicate(format: format, arguments: arguments))
        }
        #expect(throws: ObjectGraphError.unknownKey(entity: "Person", key: "nmae")) { try compile("nmae == 'x'") }
        #expect(throws: ObjectGraphError.unknownKey(entity: "Company", key: "title")) { try compile("company.title == 'x'") }
        #expect(throws: ObjectGraphError.typeMismatch(entity: "Person", key: "age", expected: "int16", got: "string")) {
            try compile("age == 'old'")
        }
        #expect(throws: ObjectGraphError.typeMismatch(entity: "Person", key: "age", expected: "string for LIKE", got: "int16")) {
            try compile("age LIKE '1*'")
        }
        // %K takes keys only: SQL cannot come through it.
        #expect(throws: PredicateSyntaxError("%K needs a key path, got name) OR 1=1 --", column: 1, format: "%K == 'x'")) {
            try ObjectPredicate(format: "%K == 'x'", "name) OR 1=1 --")
        }
        #expect(throws: ObjectGraphError.unknownKey(entity: "Person", key: "secret")) { try compile("%K == 'x'", "secret") }
        #expect(throws: ObjectGraphError.invalidPredicate("variable $who has no value")) { try compile("name == $who") }
        #expect(throws: ObjectGraphError.invalidPredicate("MATCHES: \"(\" is not a valid regular expression")) {
            try compile("name MATCHES '('")
        }
        #expect(throws: ObjectGraphError.invalidPredicate(
            "Person.selfies is a to-many relationship; key path selfies.rating needs ANY, ALL, NONE or @count")) {
            try compile("selfies.rating < 5")
        }
    }

    @Test func swiftBuildersMakeTheSameTrees() throws {
        let built: ObjectPredicate = (Key("rating") < 5) && Key("name").like("*ie*", options: .caseInsensitive)
        #expect(built == (try ObjectPredicate(format: "rating < 5 AND name LIKE[c] '*ie*'")))
        let subquery: ObjectPredicate = AggregateKey.subquery("selfies", "x", Key("$x.rating") < 5) > 0
        #expect(subquery == (try ObjectPredicate(format: "SUBQUERY(selfies, $x, $x.rating < 5).@count > 0")))
        let count: ObjectPredicate = Key("selfies").count == 0
        #expect(count == (try ObjectPredicate(format: "selfies.@count == 0")))
        let any: ObjectPredicate = Key("selfies.rating").any(.greater, 4)
        #expect(any == (try ObjectPredicate(format: "ANY selfies.rating > 4")))
    }
}
