import Foundation
@testable import Insights
import Probes
@testable import SQLLogViewer
import Testing

/// The insight rules on logs other tools wrote: Core Data's, which name no
/// call site and no key path, so the reader infers where a lazy load's
/// object came from (the last fetch before it) and reads full scans and
/// sorts from query plans; and Faultline's own, with and without what a
/// lazy load's line says of its object's origin.
@Suite struct LogInsightTests {
    static func analyze(_ lines: [String], settings: InsightSettings = InsightSettings()) -> SQLLogAnalysis {
        var analyzer = SQLLogAnalyzer(sourceName: "app.log", settings: settings)
        for line in lines { analyzer.consume(line: Data(line.utf8)) }
        return analyzer.finish()
    }

    /// Core Data's fetch of posts, then `count` faults of authors, each
    /// with its SELECT by key.
    static func coreDataFetch(thenAuthorFaults count: Int) -> [String] {
        var lines = [
            "CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZAUTHOR FROM ZPOST t0 ORDER BY t0.ZTITLE",
            "CoreData: annotation: sql connection fetch time: 0.0010s",
            "CoreData: annotation: total fetch execution time: 0.0012s for 3 rows.",
        ]
        for key in 1...max(1, count) where count > 0 {
            lines += [
                "CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZAUTHOR t0 WHERE  t0.Z_PK = ? ",
                "CoreData: annotation: sql connection fetch time: 0.0001s",
                "CoreData: annotation: fault fulfilled from database for : 0x8a1c0000000a0002 <x-coredata://9F0C/Author/p\(key)>",
            ]
        }
        return lines
    }

    @Test func coreDataFaultsAfterAFetchAreAnNPlusOneOfItsObjects() throws {
        let analysis = Self.analyze(Self.coreDataFetch(thenAuthorFaults: 3))
        let insight = try #require(analysis.insights.first { $0.rule == .nPlusOne })
        // The key path is not in a Core Data log: the entity it leads to is.
        // No line names the posts' entity: their table stands for it.
        #expect(insight.subject == "n-plus-one/ZPOST/(Author)")
        #expect(insight.count == 3)
        #expect(insight.message == "N+1: Author objects loaded one at a time for the ZPOST objects of one fetch (3 queries); "
            + "prefetch the relationship of ZPOST that leads to them")
        #expect(insight.fix == nil)
        // The fetch's line stands for its call site.
        #expect(insight.callSite == "app.log:1")
        // One fault after the fetch: no pattern.
        #expect(!Self.analyze(Self.coreDataFetch(thenAuthorFaults: 1)).insights.contains { $0.rule == .nPlusOne })
    }

    @Test func coreDataRelationshipFaultsNameTheirKeyPath() throws {
        var lines = Self.coreDataFetch(thenAuthorFaults: 0)
        for key in 1...3 {
            lines += [
                "CoreData: sql: SELECT 0, t0.Z_PK FROM ZCOMMENT t0 WHERE  t0.ZPOST = ? ",
                "CoreData: annotation: sql connection fetch time: 0.0001s",
                "CoreData: annotation: total fetch execution time: 0.0002s for 2 rows.",
                "CoreData: annotation: to-many relationship fault \"comments\" for objectID 0x8a1c <x-coredata://9F0C/Post/p\(key)> fulfilled from database.  Got 2 rows",
                "CoreData: annotation: fault fulfilled from database for : 0x8a1d <x-coredata://9F0C/Comment/p\(key)>",
            ]
        }
        let analysis = Self.analyze(lines)
        // The relationship's SELECT is not a fetch: the relationship faults
        // and the comments' faults after them belong to the posts' fetch.
        #expect(analysis.insights.map(\.subject) == ["n-plus-one/Post/comments"])
        let insight = try #require(analysis.insights.first)
        #expect(insight.count == 6)
        // The posts' table is named as the URIs name its entity.
        #expect(insight.evidence.hasPrefix("6 queries for the objects of one run of the fetch of Post at app.log:1 (3 faults of Comment, "
            + "3 relationship faults of comments"))
        #expect(insight.fix?.keyPath == "comments")
    }

    /// A fetch by key per element in Core Data's log, which names no call
    /// site: the pattern is one statement shape again and again in a row,
    /// with other values each time (level 2 shows them).
    @Test func coreDataQueryInALoopIsARunOfOneShape() throws {
        func fetch(_ key: Int) -> [String] {
            [
                "CoreData: sql: SELECT 0, t0.Z_PK, t0.ZNAME FROM ZRECIPE t0 WHERE  t0.ZKEY = ? ",
                "CoreData: details: SQLite bind[0] = \(key)",
                "CoreData: annotation: sql connection fetch time: 0.0001s",
                "CoreData: annotation: total fetch execution time: 0.0002s for 1 rows.",
            ]
        }
        let loop = Self.analyze((1...6).flatMap(fetch))
        let insight = try #require(loop.insights.first { $0.rule == .queryInLoop }, "\(loop.insights.map(\.identity))")
        #expect(insight.subject == "query-in-loop/ZRECIPE/SELECT ?, t0.Z_PK, t0.ZNAME FROM ZRECIPE t0 WHERE t0.ZKEY = ?")
        #expect(insight.count == 6)
        #expect(insight.callSite == "")
        #expect(insight.message.hasPrefix("query in a loop: the same ZRECIPE statement ran 6 times in a row (the log names no call site)"))
        #expect(loop.insights.count == 1)
        // Four statements of other shapes between two lookups: no run.
        let other = (0..<4).flatMap { table in
            [
                "CoreData: sql: SELECT 0, t0.Z_PK FROM ZOTHER\(table) t0 ",
                "CoreData: annotation: sql connection fetch time: 0.0001s",
                "CoreData: annotation: total fetch execution time: 0.0002s for 0 rows.",
            ]
        }
        #expect(!Self.analyze((1...6).flatMap { fetch($0) + other }).insights.contains { $0.rule == .queryInLoop })
        // Three statements between: still a loop (a body that reads a row
        // and two of its relationships).
        #expect(Self.analyze((1...6).flatMap { fetch($0) + other.prefix(9) }).insights.contains { $0.rule == .queryInLoop })
        // One key six times: a repeated statement, not a loop over keys.
        #expect(Self.analyze((1...6).flatMap { _ in fetch(1) }).insights.map(\.rule) == [.repeatedStatement])
    }

    /// Each post's author (a to-one: a fault by key) and each post's
    /// comments (a to-many): two N+1s, named as the log's URIs name the
    /// entities (Post, not ZPOST), or as the model does.
    @Test func coreDataToOneAndToManyPerRowAreTwoInsights() throws {
        var lines = Self.coreDataFetch(thenAuthorFaults: 0)
        for key in 1...3 {
            lines += [
                "CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZAUTHOR t0 WHERE  t0.Z_PK = ? ",
                "CoreData: annotation: sql connection fetch time: 0.0001s",
                "CoreData: annotation: fault fulfilled from database for : 0x8a1c0000000a0002 <x-coredata://9F0C/Author/p\(key)>",
                "CoreData: sql: SELECT 0, t0.Z_PK FROM ZCOMMENT t0 WHERE  t0.ZPOST = ? ",
                "CoreData: annotation: sql connection fetch time: 0.0001s",
                "CoreData: annotation: total fetch execution time: 0.0002s for 2 rows.",
                "CoreData: annotation: to-many relationship fault \"comments\" for objectID 0x8a1c <x-coredata://9F0C/Post/p\(key)> "
                    + "fulfilled from database.  Got 2 rows",
                "CoreData: annotation: fault fulfilled from database for : 0x8a1d <x-coredata://9F0C/Comment/p\(key)>",
            ]
        }
        let insights = Self.analyze(lines).insights
        #expect(insights.filter { $0.rule == .nPlusOne }.map(\.subject) == ["n-plus-one/Post/(Author)", "n-plus-one/Post/comments"])
        // Three authors; three relationship faults and three comments.
        #expect(insights.filter { $0.rule == .nPlusOne }.map(\.count) == [3, 6])
        #expect(!insights.contains { $0.rule == .queryInLoop }, "\(insights.map(\.identity))")
        // A model's name wins over the table's.
        var analyzer = SQLLogAnalyzer(sourceName: "app.log")
        analyzer.entityNames = ["ZPOST": "BlogPost"]
        for line in Self.coreDataFetch(thenAuthorFaults: 3) { analyzer.consume(line: Data(line.utf8)) }
        #expect(analyzer.finish().insights.map(\.subject) == ["n-plus-one/BlogPost/(Author)"])
    }

    @Test func coreDataPlansShowFullScansAndSorts() throws {
        let lines = [
            "CoreData: sql: SELECT 0, t0.Z_PK, t0.ZNAME FROM ZPERSON t0 WHERE  t0.ZAGE > ? ORDER BY t0.ZNAME LIMIT 20",
            "CoreData: details: SQLite bind[0] = 30",
            "CoreData: annotation: sql connection fetch time: 0.0020s",
            "CoreData: annotation: total fetch execution time: 0.0025s for 3 rows.",
            "CoreData: details: SQLite: EXPLAIN QUERY PLAN SELECT 0, t0.Z_PK, t0.ZNAME FROM ZPERSON t0 WHERE  t0.ZAGE > ? ORDER BY t0.ZNAME LIMIT 20",
            "0|0|0|SCAN TABLE ZPERSON AS t0",
            "0|0|0|USE TEMP B-TREE FOR ORDER BY",
        ]
        let analysis = Self.analyze(lines)
        #expect(analysis.insights.map(\.subject).sorted() == ["full-scan/ZPERSON/ZAGE", "sort-without-index/ZPERSON/ZNAME"])
        #expect(analysis.insights.first { $0.rule == .fullScan }?.message
            == "full table scans of ZPERSON: 1 execution (the plan scans the table; the log gives no step count); an index on ZPERSON.ZAGE would serve")
        #expect(analysis.insights.first { $0.rule == .sortWithoutIndex }?.message.contains("for a LIMIT of them") == true)
        // The same statement with a plan that uses an index: nothing.
        var indexed = lines
        indexed[5] = "0|0|0|SEARCH TABLE ZPERSON AS t0 USING INDEX ZPERSON_ZAGE (ZAGE>?)"
        indexed[6] = "0|0|0|USE TEMP B-TREE FOR ORDER BY"
        #expect(Self.analyze(indexed).insights.isEmpty)
    }

    @Test func aRepeatedStatementNeedsItsValuesShown() {
        let repeated = (0..<3).flatMap { _ in
            ["CoreData: sql: SELECT 0, t0.Z_PK FROM ZPERSON t0 WHERE  t0.ZAGE > ? ", "CoreData: details: SQLite bind[0] = 30"]
        }
        #expect(Self.analyze(repeated).insights.map(\.rule) == [.repeatedStatement])
        // At level 1 the values are not shown: nothing says they repeat.
        let unknown = (0..<3).map { _ in "CoreData: sql: SELECT 0, t0.Z_PK FROM ZPERSON t0 WHERE  t0.ZAGE > ? " }
        #expect(Self.analyze(unknown).insights.isEmpty)
    }

    /// Faultline's lines say where each lazily loaded object came from.
    @Test func faultlinesLazyLoadLinesCarryTheirOrigin() throws {
        func fault(_ key: Int, execution: Int) -> [String] {
            [
                "faultline: sql: SELECT t0.pk, t0.\"name\" FROM \"Author\" t0 WHERE t0.pk = ?",
                "faultline: details: bind[0] = \(key)",
                "faultline: annotation: sql execution time: 0.000010s, rows: 1, changed: 0, purpose: fault",
                "faultline: annotation: fault fulfilled from database for Author/p\(key) in 0.000020s "
                    + "(absent; from fetch \(execution) of Post at App/List.swift:12 through author; read at App/List.swift:14)",
            ]
        }
        let one = Self.analyze(fault(1, execution: 1) + fault(2, execution: 1))
        let insight = try #require(one.insights.first)
        #expect(insight.identity == "n-plus-one/Post/author@App/List.swift:12")
        #expect(insight.callSite == "App/List.swift:12")
        #expect(insight.evidence == "2 queries for the objects of one run of the fetch of Post at App/List.swift:12 (2 faults of Author; "
            + "first read at App/List.swift:14)")
        #expect(insight.fix == InsightFix(kind: .prefetch, entity: "Post", keyPath: "author", fetchSites: [CallSite(file: "App/List.swift", line: 12)]))
        // Two runs of the fetch with one lazy load each: no N+1.
        #expect(Self.analyze(fault(1, execution: 1) + fault(2, execution: 2)).insights.isEmpty)
        // A threshold from the settings.
        #expect(Self.analyze(fault(1, execution: 1) + fault(2, execution: 1), settings: InsightSettings(thresholds: [.nPlusOne: 3])).insights.isEmpty)
        // Without the origin (an older log), a fault is no evidence of a pattern.
        let bare = (1...5).map { "faultline: annotation: fault fulfilled from database for Author/p\($0) in 0.000020s" }
        #expect(Self.analyze(bare).insights.isEmpty)
    }

    @Test func faultlinesSaveAndPrefetchLinesFeedTheirRules() {
        let saves = (0..<3).map { _ in "faultline: annotation: save of context main: 1 inserted, 0 updated, 0 deleted in 0.000100s at App/Import.swift:20" }
        #expect(Self.analyze(saves).insights.map(\.identity) == ["save-in-loop/main@App/Import.swift:20"])
        let prefetch = ["faultline: annotation: prefetch of Post.tags in context main: prefetched for 4 objects, read for 0, at App/List.swift:12"]
        #expect(Self.analyze(prefetch).insights.map(\.message) == [
            "Post.tags was prefetched for 4 objects and read for none; drop `tags` from the prefetch key paths",
        ])
    }
}

/// A statement's facts read from its text (a log), as the engine gives
/// them for the statements it generates.
@Suite struct LoggedStatementFactsTests {
    @Test func faultlinesFetchesGiveTheirEntityFiltersAndSortKeys() throws {
        let (facts, _) = try Self.read(
            "SELECT t0.pk, t0.\"name\" FROM \"Selfie\" t0 WHERE (t0.\"rating\" < ? OR faultline_like(t0.\"name\", ?, 0) = 1) "
                + "ORDER BY t0.\"name\" DESC LIMIT ? OFFSET ?", ["5", "'*e*'", "10", "0"])
        #expect(facts.entity == "Selfie")
        #expect(facts.filters.map { "\($0.column.attribute) \($0.use.rawValue)" } == ["rating comparison", "name pattern match"])
        #expect(facts.sortKeys.map(\.attribute) == ["name"])
        #expect(facts.hasDisjunction && facts.hasLimit && !facts.hasOtherConditions)
        #expect(facts.filters.allSatisfy { $0.column.indexed == nil })
    }

    @Test func globsTellAPrefixFromAWildcard() throws {
        let sql = "SELECT t0.pk FROM \"Post\" t0 WHERE t0.\"title\" GLOB ?"
        #expect(try Self.read(sql, ["'Intro*'"]).facts.filters.map(\.use) == [.comparison])
        #expect(try Self.read(sql, ["'*intro*'"]).facts.filters.map(\.use) == [.wildcardPattern])
        #expect(try Self.read("SELECT t0.pk FROM \"Post\" t0 WHERE faultline_fold(t0.\"title\", 1) GLOB ?", ["'*a*'"]).facts.filters.map(\.use)
            == [.function])
    }

    @Test func keysJoinsAndSubqueriesAreOtherConditions() throws {
        let key = try Self.read("SELECT t0.pk, t0.\"name\" FROM \"Person\" t0 WHERE t0.pk = ?", ["1"]).facts
        #expect(key.filters.isEmpty && key.hasOtherConditions)
        let subquery = try Self.read(
            "SELECT t0.pk FROM \"Person\" t0 WHERE EXISTS (SELECT 1 FROM \"Person_selfies\" s1_j WHERE s1_j.source = t0.pk AND s1_j.destination = ?)",
            ["3"]).facts
        #expect(subquery.filters.isEmpty && subquery.hasOtherConditions)
        let joined = try Self.read(
            "SELECT t0.pk FROM \"Post\" t0 LEFT JOIN \"Author\" t1 ON t1.pk = t0.\"author_pk\" WHERE t1.\"name\" = ?", ["'Ada'"]).facts
        #expect(joined.filters.isEmpty && joined.hasOtherConditions)
        // A count of a limited query: the inner query's facts.
        let count = try Self.read("SELECT count(*) FROM (SELECT t0.pk FROM \"Post\" t0 WHERE t0.\"likes\" > ? LIMIT ? OFFSET ?)", ["1", "5", "0"]).facts
        #expect(count.entity == "Post" && count.filters.map(\.column.attribute) == ["likes"] && count.hasLimit)
    }

    @Test func coreDataStatementsKeepCoreDatasNames() throws {
        let facts = try Self.read("SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZPERSON t0 WHERE  t0.ZAGE >  ? ORDER BY t0.ZNAME", ["30"]).facts
        #expect(facts.entity == "ZPERSON")
        #expect(facts.filters.map(\.column.attribute) == ["ZAGE"])
        #expect(facts.sortKeys.map(\.attribute) == ["ZNAME"])
        let like = try Self.read("SELECT 0, t0.Z_PK FROM ZPERSON t0 WHERE  t0.ZNAME LIKE ? ESCAPE '\\'", ["\"%bob%\""]).facts
        #expect(like.filters.map(\.use) == [.comparison])  // the value is not SQL-quoted: not known to start with a wildcard
        // Not a SELECT, or no alias to tell this table's columns: no facts.
        #expect(Self.facts("UPDATE ZPERSON SET ZNAME = ? WHERE Z_PK = ?", []) == nil)
        #expect(Self.facts("SELECT destination FROM \"Person_selfies\" WHERE source = ?", ["1"]) == nil)
    }

    static func facts(_ sql: String, _ arguments: [String]) -> StatementFacts? {
        LoggedStatementFacts.facts(sql: sql, arguments: arguments)
    }

    static func read(_ sql: String, _ arguments: [String]) throws -> (facts: StatementFacts, sql: String) {
        (try #require(facts(sql, arguments)), sql)
    }
}
