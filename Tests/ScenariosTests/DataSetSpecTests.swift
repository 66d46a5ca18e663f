import Foundation
import ObjectGraph
import Testing
@testable import Scenarios

/// Declarative data sets: generators, fan-outs, expected rows, and the same
/// rows from the same seed.
@Suite struct DataSetSpecTests {
    static let model = try! Model([
        Entity("Author", properties: [
            .attribute("name", .string), .attribute("rank", .int64), .attribute("score", .double), .attribute("kind", .string),
            .attribute("joined", .date), .attribute("height", .double),
            .toMany("posts", "Post", inverse: "author"), .toMany("tags", "Tag", inverse: "authors"),
        ]),
        Entity("Post", properties: [.attribute("title", .string), .attribute("likes", .int64), .toOne("author", "Author", inverse: "posts")]),
        Entity("Tag", properties: [.attribute("name", .string), .toMany("authors", "Author", inverse: "tags")]),
    ])

    static func spec(tags: DataSetSpec.FanOut) -> DataSetSpec {
        DataSetSpec(entities: [
            .init("Author", base: 10, attributes: [
                .init("name", .text("Author {n}")), .init("rank", .sequence(start: 100, step: 10)),
                .init("score", .uniformInt(1...1_000, divisor: 10)), .init("kind", .choice([.string("a"), .string("b")])),
                .init("joined", .dates(start: Date(timeIntervalSince1970: 0), step: 86_400)), .init("height", .normal(mean: 170, deviation: 10)),
            ]),
            .init("Post", base: 50, attributes: [.init("title", .text("Post {n}")), .init("likes", .zipfInt(max: 100, exponent: 1.2))]),
            .init("Tag", base: 8, attributes: [.init("name", .text("tag{n}"))]),
        ], relationships: [
            .init("Author", "posts", .roundRobin),
            .init("Author", "tags", tags),
        ])
    }

    /// The path of a store file built from `spec`.
    static func build(_ spec: DataSetSpec, seed: UInt64 = 1, scale: Double = 1) throws -> String {
        var configuration = StoreConfiguration()
        configuration.sinks = []
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-spec-\(UUID().uuidString).sqlite").path
        let store = try Store(model: model, location: .file(path), configuration: configuration)
        try spec.build(into: store, scale: scale, seed: seed) { _, _ in }
        return path
    }

    /// Each row of `sql` (one text column) on the file at `path`.
    static func rows(_ path: String, _ sql: String) throws -> [String] {
        let connection = try Connection(.file(path))
        var rows: [String] = []
        try connection.query(sql) { row in rows.append(row.isNull(0) ? "" : row.string(0)) }
        return rows
    }

    @Test func generatorsGiveTheValuesTheySay() throws {
        let store = try Self.build(Self.spec(tags: .fixed(3)))
        let authors = try Self.rows(store, "SELECT name || '|' || rank || '|' || joined FROM Author ORDER BY pk")
        #expect(authors.count == 10)
        #expect(authors.first?.hasPrefix("Author 1|100|") == true)
        #expect(authors.last?.hasPrefix("Author 10|190|") == true)
        let scores = try Self.rows(store, "SELECT score || '|' || kind || '|' || height FROM Author").map { $0.split(separator: "|").map(String.init) }
        #expect(scores.allSatisfy { Double($0[0])! >= 0.1 && Double($0[0])! <= 100 && ["a", "b"].contains($0[1]) })
        #expect(scores.allSatisfy { abs(Double($0[2])! - 170) < 60 })
        let likes = try Self.rows(store, "SELECT CAST(likes AS TEXT) FROM Post").map { Int($0)! }
        #expect(likes.allSatisfy { (1...100).contains($0) })
        // Zipf: 1 is the most frequent value.
        let ones = likes.filter { $0 == 1 }.count
        #expect(ones >= Dictionary(grouping: likes, by: { $0 }).values.map(\.count).max()!)
    }

    @Test func fanOutsRelateAsDescribed() throws {
        let fixed = try Self.build(Self.spec(tags: .fixed(3)))
        // Round robin: post N to author N mod 10, each post once.
        #expect(try Self.rows(fixed, "SELECT count(*) || '|' || count(DISTINCT author_pk) FROM Post WHERE author_pk IS NOT NULL") == ["50|10"])
        #expect(try Self.rows(fixed, "SELECT CAST(count(*) AS TEXT) FROM Author_tags") == ["30"])
        #expect(try Self.rows(fixed, "SELECT min(c) || '|' || max(c) FROM (SELECT count(*) c FROM Author_tags GROUP BY source)") == ["3|3"])
        let uniform = try Self.build(Self.spec(tags: .uniform(2...4)))
        #expect(try Self.rows(uniform, "SELECT (min(c) >= 2) || '|' || (max(c) <= 4) FROM (SELECT count(*) c FROM Author_tags GROUP BY source)") == ["1|1"])
        let all = try Self.build(Self.spec(tags: .all))
        #expect(try Self.rows(all, "SELECT CAST(count(*) AS TEXT) FROM Author_tags") == ["80"])
        let zipf = try Self.build(Self.spec(tags: .zipf(max: 8, exponent: 1)))
        #expect(try Self.rows(zipf, "SELECT CAST(max(c) <= 8 AS TEXT) FROM (SELECT count(*) c FROM Author_tags GROUP BY source)") == ["1"])
    }

    @Test func theSameSeedGivesTheSameRowsAndExpectedRowsSayHowMany() throws {
        let spec = Self.spec(tags: .uniform(1...5))
        let query = "SELECT a.name || '|' || a.score || '|' || a.kind || '|' || a.height || '|' || ifnull(t.destination, '') FROM Author a LEFT JOIN Author_tags t ON t.source = a.pk ORDER BY a.name, t.destination"
        let first = try Self.rows(try Self.build(spec, seed: 7), query)
        #expect(first == (try Self.rows(try Self.build(spec, seed: 7), query)))
        #expect(first != (try Self.rows(try Self.build(spec, seed: 8), query)))
        // Counts scale; a drawn fan-out's join table is not promised.
        #expect(spec.expectedRows(model: Self.model, scale: 0.5) == ["Author": 5, "Post": 25, "Tag": 4])
        #expect(Self.spec(tags: .fixed(3)).expectedRows(model: Self.model, scale: 1) == ["Author": 10, "Post": 50, "Tag": 8, "Author_tags": 30])
        let store = try Self.build(Self.spec(tags: .fixed(3)), scale: 0.5)
        #expect(try Self.rows(store, "SELECT (SELECT count(*) FROM Author) || '|' || (SELECT count(*) FROM Post) || '|' || (SELECT count(*) FROM Author_tags)") == ["5|25|15"])
    }

    /// To-one relationships are related in bulk too: a many-to-one from its
    /// to-one side, and a one-to-one on both of its sides.
    @Test func toOneAndOneToOneRelationshipsAreBuilt() throws {
        let model = try Model([
            Entity("Person", properties: [.attribute("name", .string), .toOne("passport", "Passport", inverse: "holder")]),
            Entity("Passport", properties: [.attribute("number", .string), .toOne("holder", "Person", inverse: "passport")]),
            Entity("Visit", properties: [.attribute("day", .int64), .toOne("person", "Person", inverse: nil)]),
        ])
        func spec(_ passports: DataSetSpec.FanOut) -> DataSetSpec {
            DataSetSpec(entities: [
                .init("Person", base: 3, attributes: [.init("name", .text("P{n}"))]),
                .init("Passport", base: 3, attributes: [.init("number", .text("N{n}"))]),
                .init("Visit", base: 5, attributes: [.init("day", .sequence())]),
            ], relationships: [.init("Person", "passport", passports), .init("Visit", "person", .fixed(1))])
        }
        var configuration = StoreConfiguration()
        configuration.sinks = []
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-spec-\(UUID().uuidString).sqlite").path
        let store = try Store(model: model, location: .file(path), configuration: configuration)
        try spec(.fixed(1)).build(into: store, scale: 1, seed: 1) { _, _ in }
        // Both sides of the one-to-one hold each other; visit n goes to person n mod 3.
        #expect(try Self.rows(path, "SELECT p.name || '-' || q.number || '-' || h.name FROM Person p JOIN Passport q ON q.pk = p.passport_pk JOIN Person h ON h.pk = q.holder_pk ORDER BY p.pk")
            == ["P1-N1-P1", "P2-N2-P2", "P3-N3-P3"])
        #expect(try Self.rows(path, "SELECT v.day || ':' || p.name FROM Visit v JOIN Person p ON p.pk = v.person_pk ORDER BY v.pk")
            == ["1:P1", "2:P2", "3:P3", "4:P1", "5:P2"])
        // A fan-out that gives a person two passports is refused, naming the relationship.
        let other = try Store(model: model, location: .memory, configuration: configuration)
        #expect(throws: ScenarioFailure.self) { try spec(.fixed(2)).build(into: other, scale: 1, seed: 1) { _, _ in } }
        let error = #expect(throws: ScenarioFailure.self) {
            try spec(.all).build(into: try Store(model: model, location: .memory, configuration: configuration), scale: 1, seed: 1) { _, _ in }
        }
        #expect(error.map { "\($0)" }?.contains(
            "data set: Person.passport is a one-to-one relationship: its fan-out must give each source and each destination at most one partner") == true)
    }
}
