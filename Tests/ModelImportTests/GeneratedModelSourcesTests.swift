import Foundation
import Testing
@testable import ModelImport

/// The generated classes committed in Tests/GeneratedModels, which
/// GeneratedModelTests run, are what `perf-run model import --swift` makes
/// of their corpus models now: a change of the generator that is not
/// committed there fails here, and regenerating gives the same bytes.
@Suite struct GeneratedModelSourcesTests {
    /// Each committed file and the model it was generated from (the
    /// `.xcdatamodeld` as the command is given it).
    static let sources = [
        ("BookStoreModel.swift", "09-Apress-pro-ios-persistence-BookStore/BookStore.xcdatamodeld"),
        ("BookmarksAndFoldersModel.swift", "14-duckduckgo-iOS-BookmarksAndFolders/BookmarksAndFolders.xcdatamodeld"),
    ]

    /// The source the command prints for the model at `path`, as
    /// ModelCommand makes it.
    static func generated(_ path: String) throws -> String {
        let location = try CoreDataModelReference(argument: path).resolve()
        let imported = CoreDataModelImport.importModel(try CoreDataModelXML.read(location.contents))
        let document = ModelImportDocument(ModelDescription(imported, location: location), imported: imported)
        return try document.render(.swift)
    }

    @Test(arguments: sources)
    func theCommittedSourceIsWhatTheGeneratorMakesNow(file: String, model: String) throws {
        let committed = CorpusSwiftTypeCheckTests.packageRoot.appendingPathComponent("Tests/GeneratedModels/\(file)")
        let path = CorpusTests.folder.appendingPathComponent(model).path
        let source = try Self.generated(path)
        #expect(try String(contentsOf: committed, encoding: .utf8) == source,
                "regenerate it: perf-run model import \(path) --swift > \(committed.path)")
        // Generating again gives the same bytes.
        #expect(try Self.generated(path) == source)
    }

    /// The benchmark's generated classes (its generated-classes variant),
    /// Examples/Blog's and the recipes app's are the generator's output too.
    @Test(arguments: [
        ("Benchmarks/Sources/GeneratedSelfies/SelfiesModel.swift", "Benchmarks/Model/Selfies.xcdatamodeld"),
        ("Examples/Blog/Sources/Blog/Model.swift", "Examples/Blog/Model/Blog.xcdatamodeld"),
        // The recipes app SeededMistakeTests runs (Apple's model, version 2).
        ("Tests/RecipesApp/RecipesModel.swift", "Tests/RecipesApp/Model/Recipes.xcdatamodeld"),
    ])
    func theOtherCommittedClassesAreCurrent(file: String, model: String) throws {
        let root = CorpusSwiftTypeCheckTests.packageRoot
        let source = try Self.generated(root.appendingPathComponent(model).path)
        #expect(try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8) == source,
                "regenerate it: perf-run model import \(model) --swift > \(file)")
    }
}
