import Foundation
import ObjectGraph
import TestSupport
import Testing
@testable import ModelImport

/// Generated classes whose names would clash with members: a class named
/// like a member of `ManagedObject` or of the generated classes
/// (`MyApp.value`, `context`, `description`, `fetchRequest`, …) and two
/// to-many relationships that differ only in case (`pages`, `Pages`) are
/// renamed, the file says so, and the source compiles.
@Suite struct GeneratedNameClashTests {
    static let declarations: [Entity] = [
        Entity("Book", properties: [
            .attribute("title", .string, optional: true),
            .toMany("pages", "Page", inverse: "book"),
            .toMany("Pages", "Page", inverse: "volume"),
            .toOne("shelf", "context", inverse: "books"),
            .toOne("note", "description", inverse: nil),
            .toOne("request", "fetchRequest", inverse: nil),
            .toOne("score", "value", inverse: nil),
        ]),
        Entity("Page", properties: [
            .toOne("book", "Book", inverse: "pages"),
            .toOne("volume", "Book", inverse: "Pages"),
        ]),
        Entity("context", properties: [.toMany("books", "Book", inverse: "shelf")]),
        Entity("description", properties: [.attribute("text", .string, optional: true)]),
        Entity("fetchRequest", properties: []),
        Entity("value", properties: [.attribute("amount", .double, optional: true)]),
        Entity("Special", properties: [.toOne("other", "Special", inverse: nil)]),
    ]

    static let classNames = ["value": "MyApp.value", "Special": "entityName"]

    static func source() throws -> String {
        ModelSwiftSource.render(
            classesOf: declarations, representedClassNames: classNames, modelName: try SwiftModelName("ClashModel"),
            fetchRequests: [
                ImportedFetchRequest(
                    name: "byTitle", entity: "Book", predicateFormat: "title == $TITLE \"quoted\"", predicate: nil, line: 1),
                ImportedFetchRequest(name: "all", entity: "Page", predicateFormat: nil, predicate: nil, line: 2),
            ])
    }

    @Test func clashingNamesAreRenamedAndSaid() throws {
        #expect(throws: Never.self) { try Model(Self.declarations) }
        let names = ModelSwiftNames(Self.declarations, representedClassNames: Self.classNames, model: try SwiftModelName("ClashModel"))
        #expect(names.className("context") == "contextObject")
        #expect(names.className("description") == "descriptionObject")
        #expect(names.className("fetchRequest") == "fetchRequestObject")
        #expect(names.className("value") == "valueObject")
        #expect(names.className("Special") == "Special")
        #expect(names.className("Book") == "Book")
        #expect(names.methodSuffix("pages", declaredBy: "Book") == "Pages")
        #expect(names.methodSuffix("Pages", declaredBy: "Book") == "Pages_")
        let source = try Self.source()
        #expect(source.contains("// Names changed so that the source compiles:\n"))
        #expect(source.contains("// - entity value: class valueObject, as value is the name of a member of the classes\n"))
        #expect(source.contains("// - entity context: class contextObject, as context is the name of a member of the classes\n"))
        #expect(source.contains("// - Book.Pages: addToPages_/removeFromPages_, as addToPages is taken\n"))
        #expect(source.contains("public final func addToPages(_ value: Page") || source.contains("public func addToPages(_ value: Page"))
        #expect(source.contains("func addToPages_(_ value: Page"))
        #expect(source.contains("    public static let fetchRequestTemplates: [String: (entityName: String, predicate: String?)] = [\n"
            + "        \"byTitle\": (entityName: \"Book\", predicate: \"title == $TITLE \\\"quoted\\\"\"),\n"
            + "        \"all\": (entityName: \"Page\", predicate: nil),\n    ]\n"))
    }

    /// A model whose names need no change has no such note.
    @Test func namesThatDoNotClashAreNotNoted() throws {
        let source = ModelSwiftSource.render(
            classesOf: [Entity("Book", properties: [.toMany("pages", "Page", inverse: nil)]), Entity("Page", properties: [])],
            modelName: try SwiftModelName("PlainModel"))
        #expect(!source.contains("Names changed"))
        #expect(!source.contains("fetchRequestTemplates"))
    }

    @Test func theRenamedSourceTypeChecksAgainstObjectGraph() throws {
        let build = BuildProducts.directory
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-clash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("ClashModel.swift")
        try Self.source().write(to: file, atomically: true, encoding: .utf8)
        let result = try CommandResult.run(
            try CorpusSwiftTypeCheckTests.swiftc(),
            ["-typecheck", "-parse-as-library", "-swift-version", "6", "-module-name", "Clash",
             "-module-cache-path", folder.appendingPathComponent("cache").path]
                + (try CorpusSwiftTypeCheckTests.moduleFlags(build: build)) + [file.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("warning:"), "\(result.stderr)")
    }
}
