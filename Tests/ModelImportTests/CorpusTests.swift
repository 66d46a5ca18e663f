import Foundation
import ObjectGraph
import Testing
@testable import ModelImport

/// Real Core Data models from public repositories (Fixtures/coredata-models,
/// with manifest.json saying where each came from): each must be read
/// whole and give a model, and what it gives is kept in expected.json
/// (FAULTLINE_UPDATE_GOLDEN=1 rewrites it; review the diff).
@Suite struct CorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/coredata-models")

    struct Entry: Decodable {
        var folder: String
        var repository: String
        var entities: Int
        var versions: Int
        var features: [String]
    }

    /// What an import gave, for the golden file.
    struct Outcome: Codable, Equatable {
        var folder: String
        var entities: [String]
        var attributes: Int
        var relationships: Int
        var skipped: [String]
        var notes: Int
    }

    static func model(in folder: String) throws -> String {
        let root = Self.folder.appendingPathComponent(folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        let model = try #require(names.first { $0.hasSuffix(".xcdatamodeld") } ?? names.first { $0.hasSuffix(".xcdatamodel") })
        return root.appendingPathComponent(model).path
    }

    @Test func everyModelOfTheCorpusIsReadWholeAndGivesAModel() throws {
        let manifest = try JSONDecoder().decode([Entry].self, from: Data(contentsOf: Self.folder.appendingPathComponent("manifest.json")))
        #expect(manifest.count >= 10)
        #expect(Set(manifest.map(\.repository)).count >= 8)
        var outcomes: [Outcome] = []
        for entry in manifest {
            let (contents, versions) = try CoreDataModelFile.locate(try Self.model(in: entry.folder))
            let xml = try CoreDataModelXML.read(contents)
            // The parser sees every entity the manifest counted by hand.
            #expect(xml.entities.count == entry.entities, "\(entry.folder)")
            #expect(max(1, versions.count) == entry.versions, "\(entry.folder)")
            let imported = CoreDataModelImport.importModel(xml)
            #expect(imported.model != nil, "\(entry.folder): \(imported.error ?? "")")
            #expect(imported.skipped.allSatisfy { !$0.reason.isEmpty })
            let description = ModelDescription(imported, source: contents, versions: versions)
            outcomes.append(Outcome(
                folder: entry.folder, entities: description.entities.map(\.name),
                attributes: description.entities.reduce(0) { $0 + $1.attributes.count },
                relationships: description.entities.reduce(0) { $0 + $1.relationships.count },
                skipped: imported.skipped.map(\.element), notes: imported.notes.count))
        }
        let golden = Self.folder.appendingPathComponent("expected.json")
        if ProcessInfo.processInfo.environment["FAULTLINE_UPDATE_GOLDEN"] == "1" {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(outcomes).write(to: golden)
        }
        let expected = try JSONDecoder().decode([Outcome].self, from: Data(contentsOf: golden))
        #expect(expected.count == outcomes.count)
        for (want, got) in zip(expected, outcomes) where want != got {
            Issue.record("\(want.folder):\n expected \(want)\n got      \(got)")
        }
    }

    /// Features the corpus must cover, so that each mapping meets a real model.
    @Test func theCorpusCoversWhatTheImportMaps() throws {
        let manifest = try JSONDecoder().decode([Entry].self, from: Data(contentsOf: Self.folder.appendingPathComponent("manifest.json")))
        let features = Set(manifest.flatMap(\.features))
        for feature in ["inheritance", "ordered", "uniqueness", "fetchIndex", "transformable", "fetchedProperty", "configuration", "versions"] {
            #expect(features.contains(feature), "no model with \(feature)")
        }
        #expect(manifest.contains { $0.entities >= 15 }, "no large model")
        #expect(manifest.contains { $0.entities <= 3 }, "no small model")
    }
}
