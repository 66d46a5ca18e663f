import Foundation
import Testing
@testable import ModelImport

/// `perf-run model diff`: what is added, removed and changed between two
/// models, aspect by aspect.
@Suite struct ModelDiffTests {
    static func xml(_ entities: String) throws -> CoreDataModelXML {
        try ImportMappingTests.read(entities)
    }

    static let before = """
            <entity name="Item" isAbstract="YES">
                <attribute name="title" attributeType="String"/>
            </entity>
            <entity name="Post" parentEntity="Item">
                <attribute name="rating" optional="YES" attributeType="Integer 16" defaultValueString="0"/>
                <attribute name="created" attributeType="Date" defaultDateTimeInterval="0"/>
                <attribute name="draft" attributeType="Boolean"/>
                <attribute name="tagCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="tags.@count"/>
                <attribute name="author" optional="YES" attributeType="String"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="posts"/>
                <relationship name="comments" toMany="YES" deletionRule="Cascade" destinationEntity="Comment" inverseName="post"/>
            </entity>
            <entity name="Tag">
                <attribute name="name" attributeType="String"/>
                <relationship name="posts" optional="YES" toMany="YES" destinationEntity="Post" inverseName="tags"/>
            </entity>
            <entity name="Comment">
                <relationship name="post" optional="YES" maxCount="1" destinationEntity="Post" inverseName="comments"/>
            </entity>
        """

    static let after = """
            <entity name="Item">
                <attribute name="title" attributeType="String"/>
            </entity>
            <entity name="Post">
                <attribute name="rating" attributeType="Integer 32" defaultValueString="3"/>
                <attribute name="created" attributeType="Date" defaultDateTimeInterval="631152000"/>
                <attribute name="draft" attributeType="Boolean" transient="YES"/>
                <attribute name="tagCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="labels.@count"/>
                <relationship name="author" optional="YES" maxCount="1" destinationEntity="Person"/>
                <relationship name="tags" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="Label" inverseName="items"/>
                <relationship name="comments" optional="YES" maxCount="1" deletionRule="Deny" destinationEntity="Comment" inverseName="post"/>
                <attribute name="summary" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Comment">
                <relationship name="post" optional="YES" maxCount="1" destinationEntity="Post" inverseName="comments"/>
            </entity>
            <entity name="Person" parentEntity="Item"/>
        """

    @Test func everyAspectThatDiffersIsListedWithBothValues() throws {
        let diff = ModelDiff(from: try Self.xml(Self.before), to: try Self.xml(Self.after))
        #expect(diff.changes.map(\.text) == [
            "~ entity Item: abstract YES → NO",
            "~ entity Post: parent entity Item → (none)",
            "~ attribute Post.rating: type Integer 16 → Integer 32; optional YES → NO; default 0 → 3",
            "~ attribute Post.created: default 2001-01-01T00:00:00Z → 2021-01-01T00:00:00Z",
            "~ attribute Post.draft: transient NO → YES",
            "~ attribute Post.tagCount: derivation tags.@count → labels.@count",
            "- attribute Post.author (String, optional)",
            "~ relationship Post.tags: destination Tag → Label; inverse posts → items; ordered NO → YES; delete rule Nullify → Cascade",
            "~ relationship Post.comments: to-many YES → NO; optional NO → YES; delete rule Cascade → Deny",
            "+ attribute Post.summary (String, optional)",
            "+ relationship Post.author (to-one Person, no inverse, optional, Nullify)",
            "- entity Tag (1 attribute, 1 relationship)",
            "+ entity Person (parent Item, 0 attributes, 0 relationships)",
        ])
        #expect(!diff.isIdentical)
        #expect([diff.count(.added), diff.count(.removed), diff.count(.changed)] as [Int] == [3, 2, 8])
        let rating = try #require(diff.changes.first { $0.property == "rating" })
        #expect(rating.aspects == [
            .init(.type, old: "Integer 16", new: "Integer 32"), .init(.optional, old: "YES", new: "NO"), .init(.defaultValue, old: "0", new: "3"),
        ])
    }

    @Test func aModelIsIdenticalToItselfAndTheOrderOfDeclarationsDoesNotMatter() throws {
        #expect(ModelDiff(from: try Self.xml(Self.before), to: try Self.xml(Self.before)).isIdentical)
        let reordered = try Self.xml("""
                <entity name="Tag">
                    <relationship name="posts" optional="YES" toMany="YES" destinationEntity="Post" inverseName="tags"/>
                    <attribute name="name" attributeType="String"/>
                </entity>
                <entity name="Item" isAbstract="YES"><attribute name="title" attributeType="String"/></entity>
            """)
        let original = try Self.xml("""
                <entity name="Item" isAbstract="YES"><attribute name="title" attributeType="String"/></entity>
                <entity name="Tag">
                    <attribute name="name" attributeType="String"/>
                    <relationship name="posts" optional="YES" toMany="YES" destinationEntity="Post" inverseName="tags"/>
                </entity>
            """)
        #expect(ModelDiff(from: original, to: reordered).isIdentical)
    }

    @Test func theDocumentWritesTextAndJSON() throws {
        let root = try CoreDataModelImportTests.write(["a/contents": "<model/>", "b/contents": "<model/>"])
        let a = try CoreDataModelFile.resolve(root.appendingPathComponent("a/contents").path)
        let b = try CoreDataModelFile.resolve(root.appendingPathComponent("b/contents").path)
        let diff = ModelDiff(from: try Self.xml(Self.before), to: try Self.xml(Self.after))
        let document = ModelDiffDocument(a: a, b: b, diff: diff)
        let text = try document.render(.text)
        #expect(text.hasPrefix("a: \(a.path)\nb: \(b.path)\n~ entity Item: abstract YES → NO\n"))
        #expect(text.hasSuffix("\n3 added, 2 removed, 8 changed\n"))
        let json = try JSONSerialization.jsonObject(with: Data(try document.render(.json).utf8)) as? [String: Any]
        #expect(json?["identical"] as? Bool == false)
        #expect(json?["added"] as? Int == 3)
        let changes = try #require(json?["changes"] as? [[String: Any]])
        #expect(changes.count == 13)
        #expect(changes[2]["kind"] as? String == "changed")
        #expect(changes[2]["element"] as? String == "attribute")
        #expect(changes[2]["entity"] as? String == "Post")
        #expect(changes[2]["property"] as? String == "rating")
        #expect((changes[2]["aspects"] as? [[String: Any]])?.map { $0["aspect"] as? String } == ["type", "optional", "default"])
        #expect((changes[1]["aspects"] as? [[String: Any]])?.first?["new"] == nil)
        let same = ModelDiffDocument(a: a, b: b, diff: ModelDiff(from: try Self.xml(""), to: try Self.xml("")))
        #expect(try same.render(.text) == "a: \(a.path)\nb: \(b.path)\nno differences: the models declare the same entities, attributes and relationships\n")
    }

    /// A real model's versions (corpus folder 15), the differences read by
    /// hand from its files: a to-one relationship turned into a to-many
    /// one under a new name, attributes added and removed.
    @Test func theVersionsOfARealModelDifferAsTheirFilesSay() throws {
        let model = try CorpusTests.model(in: "15-duckduckgo-BrowserServicesKit-BookmarksModel")
        func version(_ name: String) throws -> CoreDataModelXML {
            try CoreDataModelXML.read(try CoreDataModelFile.resolve(model, version: name).contents)
        }
        let threeToFour = ModelDiff(from: try version("BookmarksModel 3"), to: try version("BookmarksModel 4"))
        #expect(threeToFour.changes.map(\.text) == [
            "- relationship BookmarkEntity.favoriteFolder (to-one BookmarkEntity, inverse favorites, optional, Nullify)",
            "~ relationship BookmarkEntity.favorites: inverse favoriteFolder → favoriteFolders",
            "+ relationship BookmarkEntity.favoriteFolders (to-many BookmarkEntity, inverse favorites, optional, Nullify)",
        ])
        let firstToCurrent = ModelDiff(from: try version("BookmarksModel"), to: try CoreDataModelXML.read(CoreDataModelFile.resolve(model).contents))
        #expect(firstToCurrent.changes.map(\.text) == [
            "- attribute BookmarkEntity.isFavorite (Boolean)",
            "- relationship BookmarkEntity.favoriteFolder (to-one BookmarkEntity, inverse favorites, optional, Nullify)",
            "~ relationship BookmarkEntity.favorites: inverse favoriteFolder → favoriteFolders",
            "+ attribute BookmarkEntity.isPendingDeletion (Boolean, optional, default NO)",
            "+ attribute BookmarkEntity.isStub (Boolean, optional)",
            "+ attribute BookmarkEntity.lastChildrenPayloadReceivedFromSync (String, optional)",
            "+ attribute BookmarkEntity.modifiedAt (Date, optional)",
            "+ relationship BookmarkEntity.favoriteFolders (to-many BookmarkEntity, inverse favorites, optional, Nullify)",
        ])
        #expect(ModelDiff(from: try version("BookmarksModel 4"), to: try version("BookmarksModel 4")).isIdentical)
    }
}
