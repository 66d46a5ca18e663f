import Blog
import BlogScenarios
import Faultline
import Foundation
import Insights
import ModelImport
import ObjectGraph
import Probes
import SQLLogViewer
import Scenarios
import Synchronization
import Testing

/// The blog's persistence code under Faultline.measure: the list screen's
/// N+1 is caught and its prefetching fix passes, the search's full scan is
/// known, and the bulk edit's statements are counted.
@Suite struct BlogQueryTests {
    /// A seeded store that allows measurement (20 authors, 100 posts, 300 comments).
    static func store() throws -> Store {
        var configuration = StoreConfiguration()
        configuration.allowsMeasurement = true
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("blog-\(UUID().uuidString).sqlite").path
        let store = try Blog.open(path, configuration: configuration)
        try Blog.seed(store)
        return store
    }

    @Test func theListScreensNPlusOneIsCaught() throws {
        let store = try Self.store()
        let (rows, measurement) = try Faultline.measure(store) { try PostList.load(in: ObjectContext(store: store), prefetching: false) }
        #expect(rows.count == 50)
        #expect(measurement.counters.relationshipFaultsFired == 50)
        // Two N+1s: each post's author (a to-one) and each post's comments.
        let found = measurement.insights.filter { $0.rule == .nPlusOne }
        #expect(found.map(\.subject) == ["n-plus-one/Post/author", "n-plus-one/Post/comments"])
        // The 50 most liked posts have 15 authors: a query each.
        #expect(found.first?.count == 15)
        #expect(found.first?.message == "N+1: `author` loaded one object at a time for the Post objects of one fetch (15 queries); "
            + "prefetch it with the fetch: request.relationshipKeyPathsForPrefetching = [\"author\"]")
        #expect(found.first?.callSite.hasPrefix("Blog/Blog.swift:") == true)
        // The check fails at this line, in this test.
        let line = #line + 1
        try withKnownIssue { try measurement.requireNoNPlusOne() } matching: { $0.sourceLocation?.line == line }
    }

    @Test func prefetchingKeepsTheListScreenToFourStatements() throws {
        let store = try Self.store()
        let (rows, measurement) = try Faultline.measure(store) { try PostList.load(in: ObjectContext(store: store), prefetching: true) }
        #expect(rows.count == 50)
        #expect(rows.allSatisfy { $0.comments.count == 3 })
        try measurement.requireNoNPlusOne()
        // The posts, their authors, their comments, and the BEGIN of the
        // context's first read after the seed's write.
        try measurement.requireAtMost(statements: 4)
        try measurement.requireAtMost(0, of: .faultsFired)
    }

    /// Every blog scenario's insights are the same in `blog-perf run`'s
    /// report and in `perf-run log` of the run's SQL debug log at levels 1
    /// to 3, over a warm-up and two measured iterations (the log marks
    /// them; level 1 names bound values by a digest, so there the rule,
    /// site and count agree, and the words from level 2, but where the run
    /// knows an index the log cannot); and the list screen's N+1 is the same in
    /// Faultline.measure: the same rule, count and fix text.
    @Test func theRunTheMeasurementAndTheLogAgree() throws {
        let logs = (1...3).map { level in
            (level, FileManager.default.temporaryDirectory.appendingPathComponent("blog-\(level)-\(UUID()).log").path)
        }
        defer { for (_, log) in logs { try? FileManager.default.removeItem(atPath: log) } }
        var options = RunOptions()
        options.configuration.scale = 0.1
        options.configuration.iterations = 2
        options.configuration.warmup = 1
        options.sinks = try logs.map { level, log in try SQLDebugLogSink(level: level, destination: .file(log)) }
        let runner = ScenarioRunner(options: options)
        try runner.prepare()
        let reports = runner.run(Scenario.blogScenarios)
        #expect(reports.map(\.status) == Array(repeating: .passed, count: Scenario.blogScenarios.count))
        func identified(_ insights: [Insight]) -> [String] { insights.map { "\($0.identity) ×\($0.count ?? -1)" }.sorted() }
        func described(_ insights: [Insight]) -> [String] { insights.map { "\($0.identity) ×\($0.count ?? -1): \($0.message)" }.sorted() }
        var levelTwo: [Insight] = []
        for (level, log) in logs {
            var analyzer = SQLLogAnalyzer(sourceName: "blog.log")
            try analyzer.consume(try LogFile.open(log), path: log)
            let analysis = analyzer.finish()
            #expect(analysis.scenarios?.map(\.name) == reports.map(\.name), "level \(level)")
            for report in reports {
                let logged = analysis.scenarios?.first { $0.name == report.name }?.insights ?? []
                #expect(identified(logged) == identified(report.insights), "\(report.name) at level \(level)")
                // Words too from level 2, but for the index rules': the
                // run knows Post.likes has an index its plan does not use
                // for the sort, which a log does not say (docs/insights.md).
                let worded = { (insights: [Insight]) in insights.filter { $0.rule != .sortWithoutIndex && $0.rule != .fullScan } }
                if level >= 2 {
                    #expect(described(worded(logged)) == described(worded(report.insights)), "\(report.name) at level \(level)")
                }
            }
            if level == 2 { levelTwo = analysis.scenarios?.first { $0.name == Scenario.postListNPlusOne.name }?.insights ?? [] }
        }
        let report = try #require(reports.first { $0.name == Scenario.postListNPlusOne.name })
        let logged = levelTwo
        let store = try Self.store()
        let measured = try Faultline.measure(store) { _ = try PostList.load(in: ObjectContext(store: store), prefetching: false) }.insights
        func nPlusOne(_ insights: [Insight]) -> [String] {
            insights.filter { $0.rule == .nPlusOne }.map { "\($0.identity) ×\($0.count ?? -1): \($0.message)" }
        }
        #expect(nPlusOne(report.insights).count == 2)
        #expect(nPlusOne(report.insights) == nPlusOne(logged))
        // The measurement's store is seeded alike (20 authors at scale 0.1).
        #expect(nPlusOne(report.insights) == nPlusOne(measured))
    }

    @Test func theSearchIsOneQueryAndAKnownFullScan() throws {
        let store = try Self.store()
        var found = 0
        let measurement = try Faultline.measure(store) { found = try Search.posts(containing: "AUTHOR 1", in: ObjectContext(store: store)) }
        // Authors 1 and 10 to 19 wrote 5 posts each.
        #expect(found == 55)
        // The count, and the BEGIN of the first read after the seed's write.
        try measurement.requireAtMost(statements: 2)
        // No index serves CONTAINS[c] (a function of the title): a full
        // scan, and the insight says why no index would help.
        withKnownIssue { try measurement.requireNoFullScan() }
        #expect(measurement.insights.first { $0.rule == .fullScan }?.message
            == "full table scans of Post: 99 rows stepped in 1 execution; no index serves a function on Post.title: "
            + "put a cheaper, selective term first, or narrow the rows another way")
    }

    @Test func theBulkEditInOneUpdateRunsAFixedNumberOfStatements() throws {
        let store = try Self.store()
        var published = 0
        let byObject = try Faultline.measure(store) { published = try BulkEdit.publishAll(in: ObjectContext(store: store)) }
        #expect(published == 100)
        // Each post written, and its derived commentCount written again: the
        // engine recomputes the derived attributes of every row it writes.
        #expect(byObject.counters.rowsWritten == 200)
        #expect(byObject.counters.sqlStatements > 10)
        let fresh = try Self.store()
        var result: BatchResult?
        let batch = try Faultline.measure(fresh) { result = try BulkEdit.publishAllInOneUpdate(on: fresh) }
        #expect(result == .count(100))
        #expect(batch.counters.rowsWritten == 200)
        // BEGIN, the UPDATE, the derived attributes read and written, COMMIT:
        // the same five for any number of posts.
        try batch.requireAtMost(statements: 5)
    }

    /// Model.swift is what `perf-run model import --swift` prints for the
    /// model file today: the model and its classes, regenerated, not edited.
    @Test func theModelSourceIsTheImportOfTheModelFile() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let package = here.deletingLastPathComponent().deletingLastPathComponent()
        let (contents, versions) = try CoreDataModelFile.locate(package.appendingPathComponent("Model/Blog.xcdatamodeld").path)
        let imported = CoreDataModelImport.importModel(try CoreDataModelXML.read(contents))
        let document = ModelImportDocument(ModelDescription(imported, source: contents, versions: versions), imported: imported)
        let source = try String(contentsOf: package.appendingPathComponent("Sources/Blog/Model.swift"), encoding: .utf8)
        #expect(source == (try document.render(.swift)))
        #expect(imported.skipped.map(\.element) == ["Post.theme"])
    }
}
