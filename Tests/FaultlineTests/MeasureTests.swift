@testable import Faultline
import Foundation
import Insights
import ObjectGraph
import Probes
import Synchronization
import Testing

/// The failure a check records at the line that called it (`line`), as
/// Swift Testing shows it; nil when it recorded none there.
func recordedFailure(line: Int, _ check: () throws -> Void) throws -> String? {
    let text = Mutex<String?>(nil)
    try withKnownIssue {
        try check()
    } matching: { issue in
        guard issue.sourceLocation?.line == line else { return false }
        text.withLock { $0 = issue.comments.map(\.rawValue).joined(separator: "\n") }
        return true
    }
    return text.withLock { $0 }
}

final class Author: ManagedObject, EntityNamed {
    static let entityName = "Author"
    var name: String {
        get { self[attribute: "name"] }
        set { self[attribute: "name"] = newValue }
    }
    var posts: [Post] {
        get { self[toMany: "posts"] }
        set { self[toMany: "posts"] = newValue }
    }
}

final class Post: ManagedObject, EntityNamed {
    static let entityName = "Post"
    var title: String {
        get { self[attribute: "title"] }
        set { self[attribute: "title"] = newValue }
    }
    var author: Author? {
        get { self[toOne: "author"] }
        set { self[toOne: "author"] = newValue }
    }
}

/// Faultline.measure in an application's test: a small blog model, an N+1
/// list screen and its prefetching fix, and the checks' failure messages.
@Suite struct MeasureTests {
    static let model = try! Model([
        Entity("Author", Author.self, properties: [.attribute("name", .string), .toMany("posts", "Post", inverse: "author")]),
        Entity("Post", Post.self, properties: [.attribute("title", .string), .toOne("author", "Author", inverse: "posts")]),
    ])

    /// 20 authors with 3 posts each.
    static func store(measurable: Bool = true) throws -> Store {
        var configuration = StoreConfiguration()
        configuration.sinks = []
        configuration.allowsMeasurement = measurable
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-measure-\(UUID().uuidString).sqlite").path
        let store = try Store(model: model, location: .file(path), configuration: configuration)
        let context = ObjectContext(store: store)
        try context.perform {
            for a in 1...20 {
                let author = try context.insert(Author.self)
                author.name = "Author \(a)"
                for p in 1...3 {
                    let post = try context.insert(Post.self)
                    post.title = "Post \(a).\(p)"
                    post.author = author
                }
            }
            try context.save()
        }
        return store
    }

    /// The line of listScreen that reads each post's title.
    static let titleLine = #line + 10

    /// The list screen: every author with the titles of their posts.
    static func listScreen(_ context: ObjectContext, prefetching: Bool) throws -> Int {
        try context.perform {
            var request = FetchRequest<Author>()
            if prefetching { request.relationshipKeyPathsForPrefetching = ["posts"] }
            var titles = 0
            for author in try context.fetch(request) {
                _ = author.name
                for post in author.posts { titles += post.title.isEmpty ? 0 : 1 }  // titleLine
            }
            return titles
        }
    }

    @Test func anNPlusOneFailsWithTheStatementsAndTheFixPasses() throws {
        let store = try Self.store()
        var titles = 0
        let slow = try Faultline.measure(store) { titles = try Self.listScreen(ObjectContext(store: store), prefetching: false) }
        #expect(titles == 60)
        // One fetch, a relationship fault per author, a fault per post, and
        // the BEGIN DEFERRED that opens the read transaction the context's
        // faults share.
        #expect(slow.counters.fetches == 1)
        #expect(slow.counters.relationshipFaultsFired == 20)
        #expect(slow.counters.faultsFired == 80)
        #expect(slow.counters.sqlStatements == 82)
        // Recorded at the line that called the check, with the statements.
        let failure = try #require(try recordedFailure(line: #line) { try slow.requireNoNPlusOne() })
        #expect(failure.hasPrefix("expected no n-plus-one insight, found 1:\n  N+1: `posts` loaded one object at a time for the Author objects of one fetch (80 queries)"))
        #expect(failure.contains("statements (82 in all):"))
        #expect(failure.contains("  60 × SELECT t0.pk, t0.\"title\", t0.\"author_pk\" FROM \"Post\" t0 WHERE t0.pk = ?"))
        // The posts' faults were fired by a typed property: their statement
        // is attributed to the line that read it, in listScreen.
        #expect(failure.contains("(60 rows; first at FaultlineTests/MeasureTests.swift:\(Self.titleLine))"))
        #expect(try recordedFailure(line: #line) { try slow.requireAtMost(statements: 10) }?.hasPrefix("expected at most 10 sqlStatements, got 82") == true)

        let fast = try Faultline.measure(store) { titles = try Self.listScreen(ObjectContext(store: store), prefetching: true) }
        #expect(titles == 60)
        try fast.requireNoNPlusOne()
        try fast.requireAtMost(statements: 3)
        try fast.requireAtMost(0, of: .faultsFired)
        // The context's read transaction (BEGIN), the fetch and the prefetch
        // of every author's posts.
        #expect(fast.counters.sqlStatements == 3)
    }

    @Test func checksSayWhatFailed() throws {
        let store = try Self.store()
        let measured = try Faultline.measure(store) {
            let context = ObjectContext(store: store)
            try context.perform {
                _ = try context.fetch(FetchRequest<Post>(predicate: try ObjectPredicate(format: "title BEGINSWITH 'Post 1.'")))
            }
        }
        let scan = try #require(try recordedFailure(line: #line) { try measured.requireNoFullScan() })
        #expect(scan.hasPrefix("expected no full table scan, but 1 statement shape stepped through whole tables:\n"
            + "  full table scans of Post: 59 rows stepped in 1 execution; an index on Post.title would serve"))
        #expect(scan.contains("\nstatements (2 in all):\n> 1 × SELECT"))
        #expect(scan.contains("59 full-scan steps"))
        let limit = try #require(try recordedFailure(line: #line) { try measured.requireAtMost(0, of: .rowsRead) })
        #expect(limit.hasPrefix("expected at most 0 rowsRead, got 3"))
        try measured.requireNoRepeatedStatement()
    }

    @Test func onlyTheBlockIsCountedAndOneMeasurementAtATime() throws {
        let store = try Self.store()
        _ = try Self.listScreen(ObjectContext(store: store), prefetching: false)
        let measured = try Faultline.measure(store) {
            let nested = try #require(throws: MeasurementFailure.self) { _ = try Faultline.measure(store) {} }
            #expect(nested.description == "another measurement is running on this store: measure one block at a time")
            let context = ObjectContext(store: store)
            _ = try context.perform { try context.count(for: FetchRequest<Author>()) }
        }
        // BEGIN and the count: a new context begins its own read transaction.
        #expect(measured.counters.sqlStatements == 2)
        #expect(measured.counters.fetches == 1)
        // After the block the store records nothing, and a new measurement may start.
        let empty = try Faultline.measure(store) {}
        #expect(empty.counters == Counters())
    }

    /// Row-cache faults are counted in each context and read as totals: a
    /// measurement inside a `perform` block counts those of its own block,
    /// not the context's earlier or later ones.
    @Test func aMeasurementInsideAPerformCountsOnlyItsOwnRowCacheFaults() throws {
        let store = try Self.store()
        let context = ObjectContext(store: store)
        try context.perform {
            let authors = Array(try context.fetch(FetchRequest<Author>()))
            for author in authors { _ = author.name }
            for author in authors { context.refresh(author, mergeChanges: false) }
            let inside = try Faultline.measure(store) {
                for author in authors { _ = author.name }
            }
            #expect(inside.counters.cacheHits == 20)
            #expect(inside.counters.faultsFired == 20)
            #expect(inside.counters.sqlStatements == 0)
            for author in authors { context.refresh(author, mergeChanges: false) }
            for author in authors { _ = author.name }
            let next = try Faultline.measure(store) {
                for author in authors.prefix(5) {
                    context.refresh(author, mergeChanges: false)
                    _ = author.name
                }
            }
            #expect(next.counters.cacheHits == 5)
            #expect(next.counters.faultsFired == 5)
        }
    }

    @Test func aStoreMustAllowMeasurement() throws {
        let store = try Self.store(measurable: false)
        let failure = try #require(throws: MeasurementFailure.self) { _ = try Faultline.measure(store) {} }
        #expect(failure.description == "the store does not allow measurement: set StoreConfiguration.allowsMeasurement = true when opening it")
        // What the block throws comes out, and the slot is free again.
        let measurable = try Self.store()
        struct Stop: Error {}
        #expect(throws: Stop.self) { _ = try Faultline.measure(measurable) { throw Stop() } }
        _ = try Faultline.measure(measurable) {}
    }
}

/// In Swift Testing a failing check is an issue at the line that called it.
@Suite struct RequireLineTests {
    @Test func aFailingCheckNamesTheCallingLine() throws {
        let store = try MeasureTests.store()
        let measurement = try Faultline.measure(store) { _ = try MeasureTests.listScreen(ObjectContext(store: store), prefetching: false) }
        let line = #line + 1
        let failure = try recordedFailure(line: line) { try measurement.requireNoNPlusOne() }
        #expect(failure?.hasPrefix("expected no n-plus-one insight, found 1:") == true)
        // Outside a test the check throws its failure.
        let thrown = MeasurementFailure("x")
        #expect(thrown.description == "x")
    }

    /// A check that holds records nothing, and an accepted insight is no failure.
    @Test func anAcceptedInsightPasses() throws {
        let store = try MeasureTests.store()
        let accepted = InsightSettings(accepted: ["n-plus-one/Author/posts"])
        let (titles, measurement) = try Faultline.measure(store, insights: accepted) {
            try MeasureTests.listScreen(ObjectContext(store: store), prefetching: false)
        }
        #expect(titles == 60)
        #expect(measurement.insights.first { $0.rule == .nPlusOne }?.accepted == true)
        try measurement.requireNoNPlusOne()
        // A threshold above what one fetch loaded: no insight at all.
        let lenient = try Faultline.measure(store, insights: InsightSettings(thresholds: [.nPlusOne: 100])) {
            _ = try MeasureTests.listScreen(ObjectContext(store: store), prefetching: false)
        }
        #expect(!lenient.insights.contains { $0.rule == .nPlusOne })
    }
}
