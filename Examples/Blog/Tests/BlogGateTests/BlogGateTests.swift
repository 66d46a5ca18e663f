import Blog
import Faultline
import Foundation
import Testing

/// The blog's gates as its tests write them with the Faultline product
/// alone (this target depends on nothing else of Faultline's): a gate per
/// rule, insight settings, and what the rules leave out (the engine's own
/// loads, a small table).
@Suite struct BlogGateTests {
    /// A seeded store that allows measurement (20 authors, 100 posts).
    static func store() throws -> Store {
        var configuration = StoreConfiguration()
        configuration.allowsMeasurement = true
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("blog-gates-\(UUID().uuidString).sqlite").path
        let store = try Blog.open(path, configuration: configuration)
        try Blog.seed(store)
        return store
    }

    @Test func theListScreensNPlusOneFailsItsGateHere() throws {
        let store = try Self.store()
        let measured = try Faultline.measure(store) { _ = try PostList.load(in: ObjectContext(store: store), prefetching: false) }
        let line = #line + 1
        try withKnownIssue { try measured.requireNoInsight(.nPlusOne) } matching: { $0.sourceLocation?.line == line }
        // Accepted in the settings at the list's fetch, the gate passes.
        let site = try #require(measured.insights.first { $0.rule == .nPlusOne }?.callSite)
        let accepted = InsightSettings(accepted: ["n-plus-one/Post/author@\(site)", "n-plus-one/Post/comments@\(site)"])
        let known = try Faultline.measure(store, insights: accepted) { _ = try PostList.load(in: ObjectContext(store: store), prefetching: false) }
        try known.requireNoInsight(.nPlusOne)
        // With a threshold no load reaches, too.
        let lenient = InsightSettings(thresholds: [.nPlusOne: 1_000])
        try Faultline.measure(store, insights: lenient) { _ = try PostList.load(in: ObjectContext(store: store), prefetching: false) }
            .requireNoInsight(.nPlusOne)
    }

    @Test func movingPostsLoadsTheInversesForTheEngineOnly() throws {
        let store = try Self.store()
        var moved = 0
        let measured = try Faultline.measure(store) { moved = try Moderation.spreadUnliked(below: 10, in: ObjectContext(store: store)) }
        #expect(moved == 10)
        // The posts of each author a move touches (the old and the new
        // one: 13 of the 20), loaded to keep `posts` in step: counted…
        #expect(measured.counters.relationshipFaultsFired == 13)
        // …and no insight: the authors' sort and scan are of 20 rows, and
        // the loads are the engine's.
        try measured.requireNoInsights()
    }

    @Test func theSearchIsAScanNoIndexServes() throws {
        let store = try Self.store()
        let measured = try Faultline.measure(store) { _ = try Search.posts(containing: "AUTHOR 1", in: ObjectContext(store: store)) }
        let scan = try #require(measured.insights.first { $0.rule == .fullScan })
        #expect(scan.noIndexServes == true)
        withKnownIssue { try measured.requireNoFullScan() }
        let known = try Faultline.measure(store, insights: InsightSettings(accepted: ["full-scan/Post/title@\(scan.callSite)"])) {
            _ = try Search.posts(containing: "AUTHOR 1", in: ObjectContext(store: store))
        }
        try known.requireNoFullScan()
    }
}
