import Foundation
import ObjectGraph
import Testing
@testable import ModelImport

/// Elements of real models the import used to lose or refuse: fetch
/// request templates, descending fetch indexes, a `.xccurrentversion` that
/// names no version, and a DTD with an entity that is not declared.
@Suite struct RealModelElementsTests {
    static func read(_ xml: String) throws -> CoreDataModelXML {
        try CoreDataModelXML.read(try ModelFileReadingTests.write(xml))
    }

    static let templates = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Human" representedClassName="Human" syncable="YES">
                <attribute name="humanName" optional="YES" attributeType="String"/>
                <attribute name="mood" optional="YES" attributeType="Transformable"/>
                <fetchedProperty name="namesakes" optional="YES">
                    <fetchRequest name="fetchedPropertyFetchRequest" entity="Human" predicateString="humanName == $FETCH_SOURCE.humanName"/>
                </fetchedProperty>
            </entity>
            <fetchRequest name="allHumans" entity="Human"/>
            <fetchRequest name="byHumanName" entity="Human" predicateString="humanName == $humanName"/>
            <fetchRequest name="broken" entity="Human" predicateString="humanName ==== (("/>
            <fetchRequest name="ofGhosts" entity="Ghost" predicateString="TRUEPREDICATE"/>
            <fetchRequest name="byHumanName" entity="Human" predicateString="humanName != nil"/>
        </model>
        """

    // MARK: Fetch request templates

    /// Templates of the model are read, a fetched property's own request
    /// is not one.
    @Test func theModelsFetchRequestTemplatesAreRead() throws {
        let xml = try Self.read(Self.templates)
        #expect(xml.fetchRequests.map(\.name) == ["allHumans", "byHumanName", "broken", "ofGhosts", "byHumanName"])
        #expect(xml.fetchRequests.map(\.entity) == ["Human", "Human", "Human", "Ghost", "Human"])
        #expect(xml.fetchRequests[0].predicate == nil)
        #expect(xml.fetchRequests[1].predicate == "humanName == $humanName")
        #expect(xml.fetchRequests[1].line == 11)
    }

    /// A template whose entity is imported and whose predicate parses is
    /// kept, the predicate parsed; each other one is skipped with its reason.
    @Test func templatesAreImportedOrSkippedWithTheReason() throws {
        let imported = CoreDataModelImport.importModel(try Self.read(Self.templates))
        #expect(imported.fetchRequests.map(\.name) == ["allHumans", "byHumanName"])
        #expect(imported.fetchRequests[0].predicate == nil)
        let byName = try #require(imported.fetchRequests.last)
        #expect(byName.predicateFormat == "humanName == $humanName")
        #expect(byName.predicate == (try ObjectPredicate(format: "humanName == $humanName")))
        let skipped = imported.skipped.filter { $0.element.hasPrefix("fetch request") }
        #expect(skipped.map(\.element) == ["fetch request broken", "fetch request ofGhosts", "fetch request byHumanName"])
        #expect(skipped[0].reason.hasPrefix("its predicate does not parse: "))
        #expect(skipped[0].line == 12)
        #expect(skipped[1].reason == "its entity Ghost is not imported")
        #expect(skipped[2].reason == "a second fetch request of that name")
        // The description lists them, text and JSON.
        let description = ModelDescription(imported, source: "contents", versions: [])
        #expect(description.fetchRequests == [
            .init(name: "allHumans", entity: "Human", predicate: nil),
            .init(name: "byHumanName", entity: "Human", predicate: "humanName == $humanName"),
        ])
        #expect(description.text.contains("fetch requests:\n  allHumans: Human\n  byHumanName: Human where humanName == $humanName\n"))
        #expect(description.text.contains("  fetch request ofGhosts: its entity Ghost is not imported (line 13)"))
    }

    /// A model without templates has none and skips none.
    @Test func aModelWithoutTemplatesHasNone() throws {
        let imported = CoreDataModelImport.importModel(try Self.read("<model><entity name=\"A\"><attribute name=\"x\" attributeType=\"String\"/></entity></model>"))
        #expect(imported.fetchRequests.isEmpty)
        #expect(imported.skipped.isEmpty)
        #expect(!ModelDescription(imported, source: "contents", versions: []).text.contains("fetch request"))
    }

    /// Every template of the corpus's real models is imported or skipped,
    /// none dropped.
    @Test func everyCorpusTemplateIsImportedOrSkipped() throws {
        var seen = 0
        for path in try CorpusSwiftTypeCheckTests.corpusContents() {
            let xml = try CoreDataModelXML.read(path)
            let imported = CoreDataModelImport.importModel(xml)
            let skipped = imported.skipped.filter { $0.element.hasPrefix("fetch request ") }
            #expect(imported.fetchRequests.count + skipped.count == xml.fetchRequests.count, "\(path)")
            seen += xml.fetchRequests.count
        }
        #expect(seen >= 10)
    }

    // MARK: Descending fetch indexes

    @Test func aDescendingFetchIndexIsKeptAsAnIndexAndNoted() throws {
        let imported = CoreDataModelImport.importModel(try Self.read("""
            <model>
                <entity name="Event">
                    <attribute name="date" attributeType="Date"/>
                    <attribute name="title" attributeType="String"/>
                    <fetchIndex name="byDateIndex">
                        <fetchIndexElement property="date" type="Binary" order="descending"/>
                    </fetchIndex>
                    <fetchIndex name="byTitleIndex">
                        <fetchIndexElement property="title" type="Binary" order="ascending"/>
                    </fetchIndex>
                </entity>
            </model>
            """))
        let model = try #require(imported.model)
        let event = try #require(model.entity(named: "Event"))
        #expect(event.attributes.map(\.isIndexed) == [true, true])
        #expect(imported.notes == ["Event.date: a descending fetch index, imported as an index (SQLite reads an index in either order)"])
    }

    // MARK: DTDs

    /// A DTD with an entity reference it does not declare is a one-line
    /// error naming the file, not a crash.
    @Test(arguments: [
        // An external subset makes libxml2 call an undeclared entity a warning.
        "<!DOCTYPE model SYSTEM \"model.dtd\">\n<model><entity name=\"A\">&undeclared;</entity></model>",
        "<!DOCTYPE model PUBLIC \"-//X//Y//EN\" \"http://example.com/model.dtd\">\n<model>&undeclared;</model>",
        "<!DOCTYPE model [ <!ELEMENT model ANY> ]>\n<model><entity name=\"A&undeclared;\"/></model>",
        "<!DOCTYPE model>\n<model><entity name=\"A&undeclared;\"/></model>",
    ])
    func anUndeclaredEntityUnderADoctypeIsAnErrorNotACrash(body: String) throws {
        let path = try ModelFileReadingTests.write("<?xml version=\"1.0\"?>\n" + body + "\n")
        do {
            _ = try CoreDataModelXML.read(path)
            Issue.record("read")
        } catch let error as ModelImportError {
            #expect(error.description.hasPrefix("\(path):3:"), "\(error)")
            #expect(error.description.hasSuffix(
                ": not well-formed XML: an entity reference (&…;) to an entity that is not declared (XML knows &lt; &gt; &amp; &quot; &apos;)"),
                "\(error)")
            #expect(!error.description.contains("\n"))
        }
    }

    /// An external entity stays refused: its file is never read into the model.
    @Test func anExternalEntityIsStillRefused() throws {
        let secret = try ModelFileReadingTests.write("SECRET", name: "secret.txt")
        let path = try ModelFileReadingTests.write("""
            <?xml version="1.0"?>
            <!DOCTYPE model [ <!ENTITY x SYSTEM "file://\(secret)"> ]>
            <model><entity name="A&x;"/></model>
            """)
        do {
            let xml = try CoreDataModelXML.read(path)
            #expect(!xml.entities.contains { $0.name.contains("SECRET") })
        } catch let error as ModelImportError {
            #expect(error.description.hasPrefix("\(path):"), "\(error)")
        }
    }

    // MARK: .xccurrentversion

    static func versions(_ currentVersion: String, count: Int) throws -> String {
        var files = [
            "M.xcdatamodeld/.xccurrentversion": currentVersion,
            "M.xcdatamodeld/M.xcdatamodel/contents": "<model><entity name=\"V1\"/></model>",
        ]
        if count > 1 { files["M.xcdatamodeld/M 2.xcdatamodel/contents"] = "<model><entity name=\"V2\"/></model>" }
        return try CoreDataModelImportTests.write(files).appendingPathComponent("M.xcdatamodeld").path
    }

    /// What Xcode writes when no version was chosen.
    static let emptyCurrentVersion = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict/>
        </plist>

        """

    @Test func anEmptyCurrentVersionTakesAnExplicitVersion() throws {
        let model = try Self.versions(Self.emptyCurrentVersion, count: 2)
        let location = try CoreDataModelFile.resolve(model, version: "M 2")
        #expect(location.version == "M 2.xcdatamodel")
        #expect(location.currentVersion == nil)
        #expect(try CoreDataModelXML.read(location.contents).entities.map(\.name) == ["V2"])
        let description = ModelDescription(
            CoreDataModelImport.importModel(try CoreDataModelXML.read(location.contents)), location: location)
        #expect(description.text.hasPrefix("model:     \(location.contents) (version 2 of 2; .xccurrentversion names no current one)\n"))
    }

    @Test func anEmptyCurrentVersionWithoutAVersionSaysSoAmongSeveral() throws {
        let model = try Self.versions(Self.emptyCurrentVersion, count: 2)
        #expect(throws: ModelImportError(
            "\(model)/.xccurrentversion: names no current version (no _XCCurrentVersionName) and the model has 2 (M, M 2): "
                + "name one with --model-version or PATH:VERSION"
        )) { _ = try CoreDataModelFile.resolve(model) }
    }

    @Test func anEmptyCurrentVersionOfOneVersionReadsIt() throws {
        let model = try Self.versions(Self.emptyCurrentVersion, count: 1)
        let location = try CoreDataModelFile.resolve(model)
        #expect(location.version == "M.xcdatamodel")
        #expect(location.currentVersion == "M.xcdatamodel")
    }

    @Test func aCurrentVersionThatIsNotADictionaryIsRefused() throws {
        let model = try Self.versions("<plist version=\"1.0\"><array/></plist>", count: 2)
        #expect(throws: ModelImportError(
            "\(model)/.xccurrentversion: not a dictionary (a property list holding _XCCurrentVersionName)"
        )) { _ = try CoreDataModelFile.resolve(model, version: "M") }
    }
}
