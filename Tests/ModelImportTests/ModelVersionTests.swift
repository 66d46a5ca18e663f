import Foundation
@testable import ModelImport
import Testing
import ToolSupport

/// The versions of a `.xcdatamodeld`: the current one by default, another
/// by name (`--version`, `Model.xcdatamodeld:Name`), and what an unknown
/// name says.
@Suite struct ModelVersionTests {
    static let currentVersion = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Shop 2.xcdatamodel</string></dict></plist>
        """

    /// Versions 1, 2 and 10; 2 is current.
    static func shop() throws -> URL {
        try CoreDataModelImportTests.write([
            "Shop.xcdatamodeld/Shop.xcdatamodel/contents": "<model><entity name=\"V1\"/></model>",
            "Shop.xcdatamodeld/Shop 2.xcdatamodel/contents": "<model><entity name=\"V2\"/></model>",
            "Shop.xcdatamodeld/Shop 10.xcdatamodel/contents": "<model><entity name=\"V10\"/></model>",
            "Shop.xcdatamodeld/.xccurrentversion": currentVersion,
            "Single.xcdatamodel/contents": "<model><entity name=\"Only\"/></model>",
        ])
    }

    @Test func theCurrentVersionIsReadUnlessAnotherIsNamed() throws {
        let model = try Self.shop().appendingPathComponent("Shop.xcdatamodeld").path
        let current = try CoreDataModelFile.resolve(model)
        #expect(current.versions == ["Shop.xcdatamodel", "Shop 2.xcdatamodel", "Shop 10.xcdatamodel"])
        #expect(current.version == "Shop 2.xcdatamodel")
        #expect(current.currentVersion == "Shop 2.xcdatamodel")
        #expect(current.isCurrent)
        #expect(try CoreDataModelXML.read(current.contents).entities.map(\.name) == ["V2"])
        for name in ["Shop 10", "Shop 10.xcdatamodel"] {
            let tenth = try CoreDataModelFile.resolve(model, version: name)
            #expect(tenth.contents == model + "/Shop 10.xcdatamodel/contents")
            #expect(tenth.versionName == "Shop 10")
            #expect(!tenth.isCurrent)
            #expect(try CoreDataModelXML.read(tenth.contents).entities.map(\.name) == ["V10"])
        }
        // The old entry point still answers with the current version.
        #expect(try CoreDataModelFile.locate(model).contents == model + "/Shop 2.xcdatamodel/contents")
    }

    @Test func anUnknownVersionNamesTheVersionsThereAre() throws {
        let root = try Self.shop()
        let model = root.appendingPathComponent("Shop.xcdatamodeld").path
        #expect(throws: ModelVersionError(model: model, requested: "Shop 3", versions: ["Shop.xcdatamodel", "Shop 2.xcdatamodel", "Shop 10.xcdatamodel"])) {
            _ = try CoreDataModelFile.resolve(model, version: "Shop 3")
        }
        #expect(ModelVersionError(model: model, requested: "Shop 3", versions: ["Shop.xcdatamodel", "Shop 2.xcdatamodel"]).description
            == "\(model) has no version Shop 3 (its versions: Shop, Shop 2)")
        let single = root.appendingPathComponent("Single.xcdatamodel").path
        #expect(throws: ModelVersionError(model: single, requested: "Single 2", versions: [])) {
            _ = try CoreDataModelFile.resolve(single, version: "Single 2")
        }
        #expect(ModelVersionError(model: single, requested: "Single 2", versions: []).description
            == "\(single) has no versions (only a .xcdatamodeld has): there is no version Single 2")
    }

    @Test func aVersionIsNamedAfterAColon() throws {
        let root = try Self.shop()
        let model = root.appendingPathComponent("Shop.xcdatamodeld").path
        #expect(CoreDataModelReference(argument: model + ":Shop 10") == CoreDataModelReference(path: model, version: "Shop 10"))
        #expect(CoreDataModelReference(argument: model) == CoreDataModelReference(path: model))
        #expect(try CoreDataModelReference(argument: model + ":Shop").resolve().version == "Shop.xcdatamodel")
        // A path that exists is taken whole, colon and all.
        let colon = root.appendingPathComponent("a:b.xcdatamodel")
        try FileManager.default.createDirectory(at: colon, withIntermediateDirectories: true)
        #expect(CoreDataModelReference(argument: colon.path) == CoreDataModelReference(path: colon.path))
        // Not a .xcdatamodeld before the colon: the whole text is the path.
        #expect(CoreDataModelReference(argument: "/nonexistent/M.xcdatamodeld:V") == CoreDataModelReference(path: "/nonexistent/M.xcdatamodeld:V"))
        #expect(CoreDataModelReference(argument: model + ":") == CoreDataModelReference(path: model + ":"))
    }

    @Test func aVersionGivenTwiceDifferentlyIsBadUsage() throws {
        let reference = CoreDataModelReference(path: "M.xcdatamodeld", version: "M 2")
        #expect(try reference.with(version: nil, option: "--version-a") == reference)
        #expect(try reference.with(version: "M 2", option: "--version-a") == reference)
        #expect(try CoreDataModelReference(path: "M.xcdatamodeld").with(version: "M 3", option: "--version-a")
            == CoreDataModelReference(path: "M.xcdatamodeld", version: "M 3"))
        #expect(throws: UsageError(option: "--version-a", "M 3: M.xcdatamodeld:M 2 already names a version; give it once")) {
            _ = try reference.with(version: "M 3", option: "--version-a")
        }
    }

    @Test func theDescriptionSaysWhichVersionWasRead() throws {
        let model = try Self.shop().appendingPathComponent("Shop.xcdatamodeld").path
        let first = try CoreDataModelFile.resolve(model, version: "Shop")
        let imported = CoreDataModelImport.importModel(try CoreDataModelXML.read(first.contents))
        #expect(ModelDescription(imported, location: first).text.hasPrefix(
            "model:     \(first.contents) (version 1 of 3; the current one is Shop 2)\n"))
        let current = try CoreDataModelFile.resolve(model)
        #expect(ModelDescription(imported, location: current).text.hasPrefix("model:     \(current.contents) (current of 3 versions)\n"))
    }
}
