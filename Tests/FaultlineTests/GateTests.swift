import Faultline
import Foundation
import Testing

/// A shelf of books, for the gates' workloads.
final class Shelf: ManagedObject, EntityNamed {
    static let entityName = "Shelf"
    var name: String { self[attribute: "name"] }
    var books: [Book] { self[toMany: "books"] }
}

/// A book, its title indexed.
final class Book: ManagedObject, EntityNamed {
    static let entityName = "Book"
    var title: String { self[attribute: "title"] }
    var pages: Int64 { self[attribute: "pages"] }
}

/// The gates see what the rules see: a gate per rule, failing at the line
/// that called it with the insight's message; `requireNoFullScan` as the
/// `full-scan` rule judges (a list in an index's order, a small table:
/// none); a block sees its contexts' unused prefetches and the objects
/// registered however long the contexts live. This file imports Faultline
/// alone: what a test needs comes with it.
@Suite struct GateTests {
    static let model = try! Model([
        Entity("Shelf", Shelf.self, properties: [.attribute("name", .string), .toMany("books", "Book", inverse: "shelf")]),
        Entity("Book", Book.self, properties: [
            .attribute("title", .string, indexed: true), .attribute("pages", .int64, default: 0), .toOne("shelf", "Shelf", inverse: "books"),
        ]),
    ])

    /// 5 shelves of 20 books each.
    static func store() throws -> Store {
        var configuration = StoreConfiguration()
        configuration.sinks = []
        configuration.allowsMeasurement = true
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-gates-\(UUID().uuidString).sqlite").path
        let store = try Store(model: model, location: .file(path), configuration: configuration)
        let context = ObjectContext(store: store)
        try context.perform {
            for s in 1...5 {
                let shelf = try context.insert(entityName: "Shelf")
                try shelf.setValue(.string("Shelf \(s)"), forKey: "name")
                for b in 1...20 {
                    let book = try context.insert(entityName: "Book")
                    try book.setValue(.string(String(format: "Book %03d", s * 100 + b)), forKey: "title")
                    try book.setValue(.integer(Int64(100 + b)), forKey: "pages")
                    try book.setObject(shelf, forKey: "shelf")
                }
            }
            try context.save()
        }
        return store
    }

    @Test func aListInIndexOrderAndASmallTableAreNoFullScan() throws {
        let store = try Self.store()
        var counts: [Int] = []
        let measured = try Faultline.measure(store) {
            let context = ObjectContext(store: store)
            counts = try context.perform {
                [
                    // Every book in the title index's order, and those of
                    // more than 100 pages (all of them) in that order.
                    try context.fetch(FetchRequest<Book>(sortKeys: [SortKey("title")])).count,
                    try context.fetch(FetchRequest<Book>(predicate: Key("pages") > 100, sortKeys: [SortKey("title")])).count,
                    // One shelf by its name, of 5: a small table.
                    try context.fetch(FetchRequest<Shelf>(predicate: Key("name") == "Shelf 2")).count,
                ]
            }
        }
        #expect(counts == [100, 100, 1])
        // SQLite stepped through whole tables (what the gate failed on before)…
        #expect(measured.counters.fullScanSteps > 0)
        // …but the rule sees no full scan to fix, and neither does the gate.
        #expect(measured.insights.filter { $0.rule == .fullScan }.isEmpty)
        try measured.requireNoFullScan()
        // Counted as every scan, the shelf's is one.
        let strict = try Faultline.measure(store, insights: InsightSettings(smallTableRows: 1)) {
            let context = ObjectContext(store: store)
            _ = try context.perform { try context.fetch(FetchRequest<Shelf>(predicate: Key("name") == "Shelf 2")) }
        }
        let failure = try #require(try recordedFailure(line: #line) { try strict.requireNoFullScan() })
        #expect(failure.hasPrefix("expected no full table scan, but 1 statement shape stepped through whole tables:\n"
            + "  full table scans of Shelf: 4 rows stepped in 1 execution; an index on Shelf.name would serve"))
    }

    /// The search: no index serves CONTAINS, though the title has one.
    static func search(_ context: ObjectContext) throws -> Int {
        try context.perform { try context.fetch(FetchRequest<Book>(predicate: try ObjectPredicate(format: "title CONTAINS '05'"))).count }
    }

    @Test func aGateListsWhatCanBeFixedFirst() throws {
        let store = try Self.store()
        let measured = try Faultline.measure(store) {
            let context = ObjectContext(store: store)
            #expect(try Self.search(context) == 5)
            // An index on pages would serve.
            _ = try context.perform { try context.fetch(FetchRequest<Book>(predicate: Key("pages") == 105)) }
        }
        let scans = measured.insights.filter { $0.rule == .fullScan }
        #expect(scans.map(\.keyPath).sorted() == ["pages", "title"])
        #expect(scans.first { $0.keyPath == "title" }?.noIndexServes == true)
        #expect(scans.first { $0.keyPath == "pages" }?.canBeFixed == true)
        let failure = try #require(try recordedFailure(line: #line) { try measured.requireNoFullScan() })
        let lines = failure.split(separator: "\n").map(String.init)
        #expect(lines.count > 3)
        #expect(lines[1].hasPrefix("  full table scans of Book: 99 rows stepped in 1 execution; an index on Book.pages would serve"))
        #expect(lines[2].hasPrefix("  full table scans of Book: 99 rows stepped in 1 execution; no index serves a pattern from a wildcard"))
        #expect(lines[2].hasSuffix(" [no index serves it]"))
        // The same order in the gate of every rule.
        let all = try #require(try recordedFailure(line: #line) { try measured.requireNoInsights() })
        // (The block also counts what both fetches returned without reading it.)
        #expect(all.hasPrefix("expected no insight, found 4:\n  full table scans of Book: 99 rows stepped in 1 execution; an index on Book.pages"))
        #expect(all.split(separator: "\n")[4].hasSuffix(" [no index serves it]"))
        // Accepted at its site, the search passes the gate; the other does not.
        let site = try #require(scans.first { $0.keyPath == "title" }?.callSite)
        let accepting = try Faultline.measure(store, insights: InsightSettings(accepted: ["full-scan/Book/title@\(site)"])) {
            _ = try Self.search(ObjectContext(store: store))
        }
        try accepting.requireNoFullScan()
    }

    /// The line of saveEach's save.
    static let saveLine = #line + 8

    /// Saves each new book on its own.
    static func saveEach(_ store: Store) throws {
        let context = ObjectContext(store: store)
        try context.perform {
            for number in 1...3 {
                try context.insert(entityName: "Book").setValue(.string("New \(number)"), forKey: "title")
                try context.save()
            }
        }
    }

    @Test func aGatePerRuleFailsAtItsLineWithTheInsightsMessage() throws {
        let store = try Self.store()
        let measured = try Faultline.measure(store) { try Self.saveEach(store) }
        let failure = try #require(try recordedFailure(line: #line) { try measured.requireNoInsight(.saveInLoop) })
        #expect(failure.hasPrefix("expected no save-in-loop insight, found 1:\n  3 saves from one call site (3 objects in all), a transaction each; "
            + "save once after the loop, or use a batch insert (3 saves, 3 objects in all, in context context first; "
            + "at FaultlineTests/GateTests.swift:\(Self.saveLine))"))
        // The other rules' gates pass.
        try measured.requireNoInsight(.nPlusOne)
        try measured.requireNoInsight(.unusedPrefetch)
        // A rule no build has fails, never passes in silence.
        let unknown = try #require(try recordedFailure(line: #line) { try measured.requireNoInsight(InsightRuleID("n-plus-on")) })
        #expect(unknown.hasPrefix("no insight rule n-plus-on: the rules are count-by-fetch, fetch-without-batch-size, full-scan, n-plus-one,"))
        // With a threshold the saves do not reach, the gate passes.
        let lenient = try Faultline.measure(store, insights: InsightSettings(thresholds: [.saveInLoop: 4])) { try Self.saveEach(store) }
        try lenient.requireNoInsight(.saveInLoop)
    }

    @Test func aBlockSeesTheUnusedPrefetchesOfAContextThatLivesOn() throws {
        let store = try Self.store()
        let context = ObjectContext(store: store)
        let unused = try Faultline.measure(store) {
            try context.perform {
                var request = FetchRequest<Shelf>()
                request.relationshipKeyPathsForPrefetching = ["books"]
                for shelf in try context.fetch(request) { _ = shelf.name }
            }
        }
        // The context is alive and was never reset: the block's end asked it.
        #expect(unused.insights.filter { $0.rule == .unusedPrefetch }.map(\.subject) == ["unused-prefetch/Shelf/books"])
        #expect(try recordedFailure(line: #line) { try unused.requireNoInsight(.unusedPrefetch) }?
            .hasPrefix("expected no unused-prefetch insight, found 1:\n  Shelf.books was prefetched for 5 objects and read for none") == true)
        let read = try Faultline.measure(store) {
            try context.perform {
                var request = FetchRequest<Shelf>()
                request.relationshipKeyPathsForPrefetching = ["books"]
                for shelf in try context.fetch(request) { _ = shelf.books.count }
            }
        }
        try read.requireNoInsight(.unusedPrefetch)
        withExtendedLifetime(context) {}
    }

    @Test func aBlockSeesTheObjectsRegisteredAtItsPeak() throws {
        let store = try Self.store()
        let context = ObjectContext(store: store)
        let books = try context.perform { Array(try context.fetch(FetchRequest<Book>())) }
        let measured = try Faultline.measure(store) {
            let shelves = try context.perform { Array(try context.fetch(FetchRequest<Shelf>())) }
            #expect(shelves.count == 5)
        }
        // The 100 books registered before the block, and the 5 shelves:
        // no context event said so during the block.
        #expect(measured.counters.objectsRegisteredPeak == 105)
        #expect(books.count == 100)
    }
}
