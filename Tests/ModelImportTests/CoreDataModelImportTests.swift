import Foundation
import ObjectGraph
import Testing
@testable import ModelImport

/// Mapping a Core Data model: what is kept, changed and skipped, and bad input.
@Suite struct CoreDataModelImportTests {
    static func write(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-model-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return root
    }

    static let blog = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="21754" systemVersion="22E252" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Item" representedClassName="Item" isAbstract="YES" syncable="YES">
                <attribute name="created" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="title" attributeType="String" defaultValueString="Untitled"/>
            </entity>
            <entity name="Post" representedClassName="Post" parentEntity="Item" syncable="YES">
                <attribute name="rating" optional="YES" attributeType="Integer 16" defaultValueString="3" usesScalarValueType="YES"/>
                <attribute name="price" optional="YES" attributeType="Decimal" defaultValueString="0.0"/>
                <attribute name="style" optional="YES" attributeType="Transformable"/>
                <attribute name="commentCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="comments.@count" usesScalarValueType="YES"/>
                <attribute name="slug" optional="YES" attributeType="String" derived="YES" derivationExpression="now()"/>
                <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="posts" inverseEntity="Author"/>
                <relationship name="comments" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="Comment" inverseName="post" inverseEntity="Comment"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag"/>
                <relationship name="related" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="related" inverseEntity="Item"/>
                <fetchedProperty name="recentComments" optional="YES">
                    <fetchRequest name="fetchedPropertyFetchRequest" entity="Comment"/>
                </fetchedProperty>
                <fetchIndex name="byRating">
                    <fetchIndexElement property="rating" type="Binary" order="ascending"/>
                </fetchIndex>
                <fetchIndex name="byRatingAndTitle">
                    <fetchIndexElement property="rating" type="Binary" order="ascending"/>
                    <fetchIndexElement property="title" type="Binary" order="ascending"/>
                </fetchIndex>
            </entity>
            <entity name="Author" representedClassName="Author" syncable="YES">
                <attribute name="name" attributeType="String"/>
                <attribute name="id" optional="YES" attributeType="UUID" usesScalarValueType="NO"/>
                <relationship name="posts" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Post" inverseName="author" inverseEntity="Post"/>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="name"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            <entity name="Comment" representedClassName="Comment" syncable="YES">
                <attribute name="body" optional="YES" attributeType="String"/>
                <attribute name="site" optional="YES" attributeType="URI"/>
                <relationship name="post" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Post" inverseName="comments" inverseEntity="Post"/>
            </entity>
            <entity name="Tag" representedClassName="Tag" syncable="YES">
                <attribute name="name" attributeType="String"/>
            </entity>
            <configuration name="Cloud">
                <memberEntity name="Post"/>
            </configuration>
        </model>
        """

    @Test func aModelIsKeptChangedAndSkippedWithReasons() throws {
        let root = try Self.write(["Blog.xcdatamodeld/Blog.xcdatamodel/contents": Self.blog])
        let (contents, versions) = try CoreDataModelFile.locate(root.appendingPathComponent("Blog.xcdatamodeld").path)
        #expect(versions == ["Blog.xcdatamodel"])
        let imported = CoreDataModelImport.importModel(try CoreDataModelXML.read(contents))
        let model = try #require(imported.model)
        #expect(model.entities.map(\.name) == ["Item", "Post", "Author", "Comment", "Tag"])
        // Inheritance maps one to one: the abstract parent is an entity.
        #expect(try model.entity("Item").isAbstract)
        let post = try model.entity("Post")
        #expect(post.parentName == "Item")
        // Inherited first, then its own; Decimal as a double; indexed by its one-property fetch index.
        #expect(post.attributes.map(\.name) == ["created", "title", "rating", "price", "commentCount"])
        #expect(post.attributes.map(\.type) == [.date, .string, .int16, .double, .int64])
        #expect(post.attribute(named: "title")?.defaultValue == .string("Untitled"))
        #expect(post.attribute(named: "title")?.isOptional == false)
        #expect(post.attribute(named: "rating")?.defaultValue == .integer(3))
        #expect(post.attribute(named: "rating")?.isIndexed == true)
        #expect(post.attribute(named: "commentCount")?.derivation == .count("comments"))
        // A to-many without an inverse is imported as it is.
        #expect(post.relationships.map(\.name) == ["author", "comments", "tags"])
        #expect(try model.entity("Author").relationship(named: "posts")?.deleteRule == .deny)
        #expect(try model.entity("Author").uniquenessConstraints == [["name"]])
        #expect(try model.entity("Comment").attribute(named: "site")?.type == .string)
        #expect(imported.skipped.map(\.element) == [
            "configuration Cloud", "Post index (rating, title)", "Post.style", "Post.slug", "Post.recentComments", "Post.related",
        ])
        #expect(imported.skipped.first { $0.element == "Post.style" }?.reason == "transformable: a value only the app's transformer can read")
        #expect(imported.skipped.first { $0.element == "Post.style" }?.line == 10)
        // Its inverse names a relationship Item does not have (Post declares it).
        #expect(imported.skipped.first { $0.element == "Post.related" }?.reason == "inverse Item.related does not exist")
        #expect(imported.notes == [
            "Post.price: Decimal stored as a double",
            "Post.comments: ordered, imported unordered (destinations in key order)", "Comment.site: URI stored as a string",
        ])
        // The Swift source declares the same model.
        let swift = ModelSwiftSource.render(imported.declarations)
        #expect(swift.contains("        .derived(\"commentCount\", .int64, .count(\"comments\")),"))
        #expect(swift.contains("        .toMany(\"posts\", \"Post\", inverse: \"author\", deleteRule: .deny),"))
        #expect(swift.contains("    ], uniquenessConstraints: [[\"name\"]]),"))
        #expect(swift.contains("        .attribute(\"title\", .string, default: .string(\"Untitled\")),"))
        #expect(swift.contains("    Entity(\"Item\", abstract: true, properties: ["))
        #expect(swift.contains("    Entity(\"Post\", parent: \"Item\", properties: ["))
        #expect(swift.contains("        .toMany(\"tags\", \"Tag\", inverse: nil),"))
    }

    @Test func whatTheModelsChecksRefuseIsSkippedNotFatal() throws {
        let xml = """
            <model>
                <entity name="A"><attribute name="pk" attributeType="Integer 64"/><relationship name="bs" toMany="YES" destinationEntity="B" inverseName="a"/></entity>
                <entity name="B"><attribute name="x" attributeType="Transformable"/><relationship name="a" maxCount="1" destinationEntity="A" inverseName="nothing"/></entity>
            </model>
            """
        let root = try Self.write(["contents": xml])
        let imported = CoreDataModelImport.importModel(try CoreDataModelXML.read(root.appendingPathComponent("contents").path))
        #expect(imported.model != nil)
        #expect(imported.skipped.map(\.element) == ["B.x", "A.pk", "A.bs", "B.a"])
        #expect(imported.skipped[1].reason.contains("reserved"))
    }

    @Test func namesFaultlineCannotTakeAreSkippedNotFatal() throws {
        let xml = """
            <model>
                <entity name="Item"><attribute name="my-title" attributeType="String"/><attribute name="ok" attributeType="String"/></entity>
                <entity name="sqlite_stuff"><attribute name="x" attributeType="String"/></entity>
            </model>
            """
        let root = try Self.write(["contents": xml])
        let imported = CoreDataModelImport.importModel(try CoreDataModelXML.read(root.appendingPathComponent("contents").path))
        let model = try #require(imported.model)
        #expect(model.entities.map(\.name) == ["Item"])
        #expect(try model.entity("Item").attributes.map(\.name) == ["ok"])
        #expect(imported.skipped.map(\.element) == ["sqlite_stuff", "Item.my-title"])
        #expect(imported.skipped.allSatisfy { $0.reason.contains("is not a plain identifier") })
    }

    @Test func theCurrentVersionIsTheOneXcodeNames() throws {
        let root = try Self.write([
            "M.xcdatamodeld/M.xcdatamodel/contents": "<model><entity name=\"Old\"/></model>",
            "M.xcdatamodeld/M 2.xcdatamodel/contents": "<model><entity name=\"New\"/></model>",
            "M.xcdatamodeld/.xccurrentversion": """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>M.xcdatamodel</string></dict></plist>
                """,
        ])
        let (contents, versions) = try CoreDataModelFile.locate(root.appendingPathComponent("M.xcdatamodeld").path)
        // In natural order: the first version, then 2 (and 10 after 9).
        #expect(versions == ["M.xcdatamodel", "M 2.xcdatamodel"])
        #expect(contents.hasSuffix("M.xcdatamodeld/M.xcdatamodel/contents"))
        #expect(try CoreDataModelXML.read(contents).entities.map(\.name) == ["Old"])
    }

    @Test(arguments: [
        ("contents", "<model><entity name=\"A\"><attribute name=\"x\" attributeType=\"String\"</entity></model>",
         ":1:67: not well-formed XML: a space is missing between attributes, or after an attribute value"),
        ("contents", "<model><entity name=\"A\">", ":1:25: not well-formed XML: the document ends before <entity> is closed"),
        ("contents", "<model><a></b></model>", ":1:15: not well-formed XML: a closing tag that does not match the open <a>"),
        ("contents", "<model>&foo;</model>",
         ":1:13: not well-formed XML: an entity reference (&…;) to an entity that is not declared (XML knows &lt; &gt; &amp; &quot; &apos;)"),
        ("contents", "<model><entity name=\"A\" name=\"B\"/></model>", ":1:33: not well-formed XML: an attribute given twice in one tag"),
        ("contents", "<model><entity name=A/></model>", ":1:21: not well-formed XML: an attribute value without quotes (write name=\"value\")"),
        ("contents", "<model></model><extra/>", ":1:16: not well-formed XML: there is content after the end of the root element"),
        ("contents", "<model><entity name=\"a<b\"/></model>", ":1:23: not well-formed XML: a '<' inside an attribute value (write &lt;)"),
        ("contents", "<model>\u{1}</model>",
         ":1:8: not well-formed XML: a character that XML does not allow (a control character, or bytes that are not UTF-8)"),
        ("contents", "<model><!-- x -- y --></model>", ":1:15: not well-formed XML: '--' inside a comment"),
        ("contents", "<?xml version=\"1.0\" encoding=\"bogus\"?><model/>",
         ":1:37: not well-formed XML: the XML declaration names an encoding that the parser does not know"),
        ("contents", "<model><entity name='x' attributeType/></model>",
         ":1:38: not well-formed XML: an attribute without a value (write name=\"value\")"),
        ("contents", "<model><entity><attribute name=\"x\"/></entity></model>", ":1:15: <entity>: no name"),
        ("contents", "<plist><dict/></plist>", ":1:1: no <model> element: not a Core Data model"),
        ("contents", "", ":1:1: no <model> element: not a Core Data model"),
    ])
    func badInputIsOneLineNamingFileLineAndElement(file: String, text: String, expected: String) throws {
        let root = try Self.write([file: text])
        let path = root.appendingPathComponent(file).path
        let error = try #require(throws: ModelImportError.self) { _ = try CoreDataModelXML.read(path) }
        #expect(error.description.hasPrefix(path + ":"), "\(error)")
        #expect(error.description == path + expected)
        #expect(!error.description.contains("\n"))
        #expect(!error.description.contains("XML error"))
    }

    @Test func missingFilesAndVersionsSayWhich() throws {
        let root = try Self.write([
            "Empty.xcdatamodeld/readme.txt": "nothing",
            "Bad.xcdatamodeld/B.xcdatamodel/contents": "<model/>",
            "Bad.xcdatamodeld/.xccurrentversion": "<plist version=\"1.0\"><dict><key>_XCCurrentVersionName</key><string>C.xcdatamodel</string></dict></plist>",
        ])
        let empty = root.appendingPathComponent("Empty.xcdatamodeld").path
        #expect(throws: ModelImportError("\(empty): neither a contents file nor .xcdatamodel versions inside (is it a Core Data model?)")) {
            _ = try CoreDataModelFile.locate(empty)
        }
        let bad = root.appendingPathComponent("Bad.xcdatamodeld").path
        #expect(throws: ModelImportError("\(bad)/.xccurrentversion: names C.xcdatamodel, which is not among the versions (B.xcdatamodel)")) {
            _ = try CoreDataModelFile.locate(bad)
        }
        #expect(throws: ModelImportError("/nonexistent/M.xcdatamodeld: no such file or directory")) {
            _ = try CoreDataModelFile.locate("/nonexistent/M.xcdatamodeld")
        }
    }
}
