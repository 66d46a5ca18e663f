import Foundation
import ObjectGraph
import Testing
@testable import ModelImport

/// Real Core Data models from public repositories (Fixtures/coredata-models,
/// with manifest.json saying where each came from): each must be read
/// whole and give a model, and what it gives must be what expected.json
/// says. expected.json holds counts made by reading each model's XML by
/// hand, never the import's output: there is no switch that rewrites it.
///
/// The import maps inheritance one to one: for a model with inheritance or
/// relationships without an inverse, an entry's `withInheritance` holds the
/// hand counts of every entity (abstract ones included) with its parent and
/// the attributes and relationships it declares itself; they are checked
/// against the parsed XML, and the import must give exactly those entities
/// and totals (its per-entity counts, where an entry has them, are each
/// entity's own plus its ancestors').
@Suite struct CorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/coredata-models")

    struct Entry: Decodable {
        var folder: String
        var repository: String
        var entities: Int
        var versions: Int
        var features: [String]
    }

    /// Attributes and relationships of one entity.
    struct Counts: Codable, Equatable {
        var attributes: Int
        var relationships: Int
    }

    /// One entity as a one-to-one mapping of inheritance would import it.
    struct InheritedEntity: Codable, Equatable {
        var name: String
        var parent: String?
        var abstract: Bool
        /// Attributes the entity declares itself that the import maps (not
        /// transient, transformable, object ID, composite, nor derived in a
        /// way Faultline cannot compute).
        var attributes: Int
        /// Every relationship the entity declares itself.
        var relationships: Int
    }

    struct WithInheritance: Codable, Equatable {
        var entities: [InheritedEntity]
        var attributes: Int
        var relationships: Int
    }

    /// What an import gives, as expected.json holds it.
    struct Outcome: Codable, Equatable {
        var folder: String
        var entities: [String]
        var attributes: Int
        var relationships: Int
        var skipped: [String]
        var notes: Int
        /// Per imported entity, for the models whose entries give them.
        var perEntity: [String: Counts]?
        var withInheritance: WithInheritance?
    }

    static func model(in folder: String) throws -> String {
        let root = Self.folder.appendingPathComponent(folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        let model = try #require(names.first { $0.hasSuffix(".xcdatamodeld") } ?? names.first { $0.hasSuffix(".xcdatamodel") })
        return root.appendingPathComponent(model).path
    }

    static func manifest() throws -> [Entry] {
        try JSONDecoder().decode([Entry].self, from: Data(contentsOf: Self.folder.appendingPathComponent("manifest.json")))
    }

    static func expected() throws -> [Outcome] {
        try JSONDecoder().decode([Outcome].self, from: Data(contentsOf: Self.folder.appendingPathComponent("expected.json")))
    }

    @Test func everyModelOfTheCorpusIsReadWholeAndGivesWhatWasCountedByHand() throws {
        let manifest = try Self.manifest()
        #expect(manifest.count >= 19)
        #expect(Set(manifest.map(\.repository)).count >= 14)
        let expected = try Self.expected()
        #expect(expected.map(\.folder) == manifest.map(\.folder))
        for (entry, want) in zip(manifest, expected) {
            let (contents, versions) = try CoreDataModelFile.locate(try Self.model(in: entry.folder))
            let xml = try CoreDataModelXML.read(contents)
            // The parser sees every entity the manifest counted by hand.
            #expect(xml.entities.count == entry.entities, "\(entry.folder)")
            #expect(max(1, versions.count) == entry.versions, "\(entry.folder)")
            let imported = CoreDataModelImport.importModel(xml)
            let model = try #require(imported.model, "\(entry.folder): \(imported.error ?? "")")
            #expect(imported.skipped.allSatisfy { !$0.reason.isEmpty })
            let description = ModelDescription(imported, source: contents, versions: versions)
            var got = Outcome(
                folder: entry.folder, entities: description.entities.map(\.name),
                attributes: description.entities.reduce(0) { $0 + $1.attributes.count },
                relationships: description.entities.reduce(0) { $0 + $1.relationships.count },
                skipped: imported.skipped.map(\.element), notes: imported.notes.count)
            if want.perEntity != nil {
                got.perEntity = Dictionary(uniqueKeysWithValues: model.entities.map {
                    ($0.name, Counts(attributes: $0.attributes.count, relationships: $0.relationships.count))
                })
            }
            got.withInheritance = want.withInheritance
            if got != want { Issue.record("\(entry.folder):\n expected \(want)\n got      \(got)") }
            if let inheritance = want.withInheritance {
                Self.check(inheritance, against: xml, folder: entry.folder)
                #expect(got.entities == inheritance.entities.map(\.name), "\(entry.folder)")
                #expect(got.attributes == inheritance.attributes && got.relationships == inheritance.relationships, "\(entry.folder)")
                #expect(model.entities.map(\.parentName) == inheritance.entities.map(\.parent), "\(entry.folder)")
                #expect(model.entities.map(\.isAbstract) == inheritance.entities.map(\.abstract), "\(entry.folder)")
            }
        }
    }

    /// The hand counts for a one-to-one mapping against what the parser
    /// reads: every entity with its parent and abstract flag, the
    /// attributes it declares that map, and every relationship it declares.
    static func check(_ inheritance: WithInheritance, against xml: CoreDataModelXML, folder: String) {
        let parsed = xml.entities.map { entity in
            InheritedEntity(
                name: entity.name, parent: entity.parent, abstract: entity.isAbstract,
                attributes: entity.attributes.filter {
                    if case .success = CoreDataModelImport.map($0, indexed: false) { return true }
                    return false
                }.count,
                relationships: entity.relationships.count)
        }
        #expect(inheritance.entities == parsed, "\(folder)")
        #expect(inheritance.attributes == inheritance.entities.reduce(0) { $0 + $1.attributes }, "\(folder)")
        #expect(inheritance.relationships == inheritance.entities.reduce(0) { $0 + $1.relationships }, "\(folder)")
    }

    /// Features the corpus must cover, so that each mapping meets a real model.
    @Test func theCorpusCoversWhatTheImportMaps() throws {
        let manifest = try Self.manifest()
        let features = Set(manifest.flatMap(\.features))
        for feature in [
            "inheritance", "inheritanceDepth2", "abstractDestination", "derived", "derivedCountInherited", "noInverse", "transient",
            "ordered", "uniqueness", "fetchIndex", "transformable", "fetchedProperty", "configuration", "versions",
        ] {
            #expect(features.contains(feature), "no model with \(feature)")
        }
        #expect(manifest.contains { $0.entities >= 15 }, "no large model")
        #expect(manifest.contains { $0.entities <= 3 }, "no small model")
        #expect(manifest.contains { $0.versions >= 6 }, "no model with many versions")
        // Each feature a manifest names is in the model's XML.
        for entry in manifest {
            let root = Self.folder.appendingPathComponent(entry.folder)
            let text = try FileManager.default.enumerator(atPath: root.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix("contents") }
                .map { try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8) }.joined()
            let marks: [String: String] = [
                "inheritance": "parentEntity=", "derived": "derived=\"YES\"", "transient": "transient=\"YES\"", "ordered": "ordered=\"YES\"",
                "transformable": "attributeType=\"Transformable\"", "fetchedProperty": "<fetchedProperty", "configuration": "<configuration",
            ]
            for feature in entry.features {
                if let mark = marks[feature] { #expect(text.contains(mark), "\(entry.folder): \(feature)") }
            }
        }
    }
}
