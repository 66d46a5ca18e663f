import Foundation
import GeneratedModels
import ObjectGraph
import Probes
import Testing

/// A fault fired by a generated class's property is placed at the line of
/// the application's that read it, however it was read: the property, a
/// key path applied by `map`, a key path object, a to-one or a to-many;
/// never at the generated accessor or a key path's thunk in the model's
/// file.
@Suite struct TypedReadCallSiteTests {
    static let file = "GeneratedModelTests/TypedReadCallSiteTests.swift"

    /// The sites of the faults and relationship faults `read` fires on
    /// the books of a populated store, each a fault in a fresh context.
    static func faultSites(_ read: ([Book]) -> Void) throws -> [String] {
        let populated = try BookStoreClassTests.populatedStore()
        let recorder = Recorder(bufferCapacity: 1_000)
        var configuration = StoreConfiguration()
        configuration.sinks = [recorder]
        let store = try Store(model: BookStoreModel.model, location: .file(populated.path), configuration: configuration)
        let context = ObjectContext(store: store, name: "reader")
        try context.perform {
            var request = Book.fetchRequest()
            request.sortKeys = [SortKey("title")]
            let ids = try context.fetch(request).map(\.objectID)
            context.reset()
            let books = ids.map { context.object(with: $0) as! Book }
            _ = recorder.snapshotAndReset()
            read(books)
        }
        return recorder.snapshot().events.compactMap { event in
            switch event {
            case .fault(let e): e.callSite.description
            case .relationshipFault(let e): e.callSite.description
            default: nil
            }
        }
    }

    @Test func aPropertyReadIsAtItsLine() throws {
        var line = 0
        let sites = try Self.faultSites { books in
            line = #line + 1
            for book in books { _ = book.title }
        }
        #expect(sites == Array(repeating: "\(Self.file):\(line)", count: 3))
    }

    @Test func aKeyPathAppliedByMapIsAtItsLine() throws {
        var line = 0
        let sites = try Self.faultSites { books in
            line = #line + 1
            _ = books.map(\.title)
        }
        #expect(sites == Array(repeating: "\(Self.file):\(line)", count: 3))
    }

    @Test func aKeyPathObjectIsAtTheLineThatAppliesIt() throws {
        let path: KeyPath<Book, String?> = \.title
        var line = 0
        let sites = try Self.faultSites { books in
            line = #line + 1
            for book in books { _ = book[keyPath: path] }
        }
        #expect(sites == Array(repeating: "\(Self.file):\(line)", count: 3))
    }

    @Test func aToOneAndAToManyThroughKeyPathsAreAtTheirLines() throws {
        let category: KeyPath<Book, BookCategory?> = \.category
        var lines = (0, 0)
        let sites = try Self.faultSites { books in
            lines.0 = #line + 1
            let first = books[0][keyPath: category]
            lines.1 = #line + 1
            _ = books.map(\.pages)
            _ = first
        }
        // The book's fault, then its pages' relationship faults.
        #expect(sites.first == "\(Self.file):\(lines.0)")
        #expect(Array(sites.dropFirst(1)).allSatisfy { $0 == "\(Self.file):\(lines.1)" })
        #expect(sites.count == 1 + 2 + 3)
    }
}
