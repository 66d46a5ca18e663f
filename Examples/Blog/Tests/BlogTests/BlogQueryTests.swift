import Blog
import Faultline
import Foundation
import ModelImport
import ObjectGraph
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
        var rows: [PostList.Row] = []
        let measurement = try Faultline.measure(store) { rows = try PostList.load(in: ObjectContext(store: store), prefetching: false) }
        #expect(rows.count == 50)
        #expect(throws: MeasurementFailure.self) { try measurement.requireNoFaultStorm() }
        #expect(measurement.counters.relationshipFaultsFired == 50)
    }

    @Test func prefetchingKeepsTheListScreenToFourStatements() throws {
        let store = try Self.store()
        var rows: [PostList.Row] = []
        let measurement = try Faultline.measure(store) { rows = try PostList.load(in: ObjectContext(store: store), prefetching: true) }
        #expect(rows.count == 50)
        #expect(rows.allSatisfy { $0.comments.count == 3 })
        try measurement.requireNoFaultStorm()
        // The posts, their authors, their comments, and the BEGIN of the
        // context's first read after the seed's write.
        try measurement.requireAtMost(statements: 4)
        try measurement.requireAtMost(0, of: "faultsFired")
    }

    @Test func theSearchIsOneQueryAndAKnownFullScan() throws {
        let store = try Self.store()
        var found = 0
        let measurement = try Faultline.measure(store) { found = try Search.posts(containing: "AUTHOR 1", in: ObjectContext(store: store)) }
        // Authors 1 and 10 to 19 wrote 5 posts each.
        #expect(found == 55)
        // The count, and the BEGIN of the first read after the seed's write.
        try measurement.requireAtMost(statements: 2)
        // No index serves CONTAINS[c]: a full scan, on purpose at this size.
        #expect(throws: MeasurementFailure.self) { try measurement.requireNoFullScan() }
    }

    @Test func theBulkEditInOneUpdateRunsAFixedNumberOfStatements() throws {
        let store = try Self.store()
        var published = 0
        let byObject = try Faultline.measure(store) { published = try BulkEdit.publishAll(in: ObjectContext(store: store)) }
        #expect(published == 100)
        // Each post written, and its derived commentCount written again: the
        // engine recomputes the derived attributes of every row it writes.
        #expect(byObject.counters.rowsWritten == 200)
        #expect(throws: MeasurementFailure.self) { try byObject.requireAtMost(statements: 10) }
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
    /// model file today.
    @Test func theModelSourceIsTheImportOfTheModelFile() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let package = here.deletingLastPathComponent().deletingLastPathComponent()
        let (contents, _) = try CoreDataModelFile.locate(package.appendingPathComponent("Model/Blog.xcdatamodeld").path)
        let imported = CoreDataModelImport.importModel(try CoreDataModelXML.read(contents))
        let source = try String(contentsOf: package.appendingPathComponent("Sources/Blog/Model.swift"), encoding: .utf8)
        #expect(source.hasSuffix(ModelSwiftSource.render(imported.declarations)))
        #expect(imported.skipped.map(\.element) == ["Post.theme"])
    }
}
