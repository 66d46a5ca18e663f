import Foundation
import ObjectGraph
import Testing
@testable import ModelImport

/// What the import makes of defaults, transient properties, models that
/// make nothing, and entities too wide for one SQLite table.
@Suite struct ImportMappingTests {
    static func read(_ entities: String) throws -> CoreDataModelXML {
        let path = try ModelFileReadingTests.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model>\n\(entities)\n</model>\n")
        return try CoreDataModelXML.read(path)
    }

    // MARK: Defaults

    /// Xcode writes a Date default as seconds since 2001-01-01
    /// (`defaultDateTimeInterval`) beside text for people: the date is
    /// imported; a default that cannot be taken is noted, whatever its type.
    @Test func dateDefaultsAreImportedAndEveryDroppedDefaultIsNoted() throws {
        let xml = try Self.read("""
                <entity name="Event">
                    <attribute name="created" attributeType="Date" defaultDateTimeInterval="631123200" defaultValueString="2020-12-31 16:00:00 +0000" usesScalarValueType="NO"/>
                    <attribute name="written" attributeType="Date" defaultValueString="2013-04-23 12:00:00 +0000"/>
                    <attribute name="vague" optional="YES" attributeType="Date" defaultValueString="next Tuesday"/>
                    <attribute name="broken" optional="YES" attributeType="Date" defaultDateTimeInterval="soon"/>
                    <attribute name="blob" optional="YES" attributeType="Binary" defaultValueString="AAAA"/>
                    <attribute name="count" optional="YES" attributeType="Integer 16" defaultValueString="many"/>
                    <attribute name="rate" optional="YES" attributeType="Float" defaultValueString="fast"/>
                </entity>
            """)
        let imported = CoreDataModelImport.importModel(xml)
        let event = try #require(imported.model).entity("Event")
        #expect(event.attribute(named: "created")?.defaultValue == .date(Date(timeIntervalSince1970: 1_609_430_400)))
        #expect(event.attribute(named: "written")?.defaultValue == .date(Date(timeIntervalSince1970: 1_366_718_400)))
        #expect(["vague", "broken", "blob", "count", "rate"].allSatisfy { event.attribute(named: $0)?.defaultValue == .null })
        #expect(imported.notes == [
            "Event.vague: default next Tuesday not imported: not a date written yyyy-MM-dd HH:mm:ss ±zzzz",
            "Event.broken: default date interval soon not imported: not a number of seconds",
            "Event.blob: default AAAA not imported: Faultline takes no default for binary data",
            "Event.count: default many not imported: not a int16",
            "Event.rate: Float stored as a double; default fast not imported: not a double",
        ])
        #expect(imported.skipped.isEmpty)
        // The Swift source and the JSON say the date as it is.
        #expect(ModelSwiftSource.render(imported.declarations).contains(
            ".attribute(\"created\", .date, default: .date(Date(timeIntervalSinceReferenceDate: 631123200.0))),"))
    }

    @Test func transientPropertiesAreSkippedWithTheirReason() throws {
        let xml = try Self.read("""
                <entity name="Screen">
                    <attribute name="title" attributeType="String"/>
                    <attribute name="isLoading" transient="YES" attributeType="Boolean" defaultValueString="NO"/>
                    <relationship name="focus" optional="YES" maxCount="1" transient="YES" destinationEntity="Screen"/>
                </entity>
            """)
        let imported = CoreDataModelImport.importModel(xml)
        #expect(try #require(imported.model).entity("Screen").attributes.map(\.name) == ["title"])
        #expect(try #require(imported.model).entity("Screen").relationships.isEmpty)
        #expect(imported.skipped == [
            .init(element: "Screen.isLoading", reason: "transient: Core Data keeps it in memory only, so no column stores it", line: 5),
            .init(element: "Screen.focus", reason: "transient: Core Data keeps it in memory only", line: 6),
        ])
    }

    // MARK: A model that makes nothing

    @Test(arguments: [
        ("", "the model has no entities"),
        ("    <entity name=\"Item\" isAbstract=\"YES\"><attribute name=\"title\" attributeType=\"String\"/></entity>\n"
            + "    <entity name=\"Base\" isAbstract=\"YES\" parentEntity=\"Item\"/>",
         "its only entities are abstract (Item, Base): no object can be inserted"),
        ("    <entity name=\"sqlite_stats\"/>", "none of its 1 entities could be imported (see skipped)"),
    ])
    func aModelThatMakesNothingIsNoModel(entities: String, error: String) throws {
        let imported = CoreDataModelImport.importModel(try Self.read(entities))
        #expect(imported.model == nil)
        #expect(imported.declarations.isEmpty)
        #expect(imported.error == error)
        let document = ModelImportDocument(ModelDescription(imported, source: "contents", versions: []), imported: imported)
        #expect(document.outputFormats == [.text, .json])
        #expect(try document.render(.text).contains("\nerror:     \(error)\n"))
    }

    // MARK: Columns per table

    static func wide(_ attributes: Int, toOne: Int = 0) -> String {
        var text = "    <entity name=\"Wide\">\n"
        for number in 0..<attributes {
            text += "        <attribute name=\"a\(number)\" optional=\"YES\" attributeType=\"Integer 32\"/>\n"
        }
        for number in 0..<toOne {
            text += "        <relationship name=\"r\(number)\" optional=\"YES\" maxCount=\"1\" destinationEntity=\"Narrow\"/>\n"
        }
        return text + "    </entity>\n"
            + "    <entity name=\"Narrow\"><attribute name=\"name\" attributeType=\"String\"/>"
            + "<relationship name=\"wide\" optional=\"YES\" maxCount=\"1\" destinationEntity=\"Wide\"/></entity>"
    }

    @Test func theLimitIsSQLitesOwn() {
        // The Debian library's (and SQLite's default) SQLITE_MAX_COLUMN.
        #expect(SQLiteColumnLimit.current == 2000)
    }

    /// An entity of 10,000 attributes would make a table SQLite refuses
    /// ("too many columns", on the store's first use): it is skipped, and
    /// so are the relationships to it; the rest of the model is kept.
    @Test func anEntityWiderThanATableMayBeIsSkippedWithItsColumnCount() throws {
        let imported = CoreDataModelImport.importModel(try Self.read(Self.wide(10_000)))
        let model = try #require(imported.model)
        #expect(model.entities.map(\.name) == ["Narrow"])
        #expect(imported.skipped == [
            .init(element: "Wide", reason: "its table would have 10001 columns, more than SQLite's limit of 2000 per table "
                + "(SQLITE_MAX_COLUMN): split the entity", line: 3),
            .init(element: "Narrow.wide", reason: "destination Wide is skipped (its table would have too many columns)"),
        ])
        _ = try Store(model: model, location: .memory)
    }

    /// The count is the engine's: the key, the attributes and the to-one
    /// keys. At the limit the store opens; one column more and SQLite
    /// refuses the table, which is why the import skips it.
    @Test func aTableAtTheLimitOpensAndOneColumnMoreIsSkipped() throws {
        let limit = SQLiteColumnLimit.current
        let atLimit = CoreDataModelImport.importModel(try Self.read(Self.wide(limit - 3, toOne: 2)))
        let model = try #require(atLimit.model)
        let wide = try model.entity("Wide")
        #expect(wide.attributes.count == limit - 3)
        #expect(wide.relationships.count == 2)
        #expect(try SQLiteColumnLimit.columns(of: #require(atLimit.declarations.first { $0.name == "Wide" })) == limit)
        _ = try Store(model: model, location: .memory)

        let over = CoreDataModelImport.importModel(try Self.read(Self.wide(limit - 2, toOne: 2)))
        #expect(try #require(over.model).entities.map(\.name) == ["Narrow"])
        #expect(over.skipped.first?.reason.hasPrefix("its table would have \(limit + 1) columns, more than SQLite's limit of \(limit)") == true)
        // The declaration the import skipped is one the engine's model
        // refuses too, naming it, before SQLite would.
        #expect(throws: ObjectGraphError.invalidModel(
            "Wide: its table would have \(limit + 1) columns, more than SQLite's limit of \(limit) (SQLITE_MAX_COLUMN)")) {
            try Model([Entity("Wide", properties: (0..<(limit - 2 + 2)).map { .attribute("a\($0)", .int32, optional: true) })])
        }
    }

    /// A smaller limit (a library built with another SQLITE_MAX_COLUMN)
    /// applies the same way.
    @Test func theLimitComesFromTheLibrary() throws {
        let imported = CoreDataModelImport.importModel(try Self.read(Self.wide(9)), columnLimit: 10)
        #expect(imported.model != nil)
        #expect(imported.skipped.isEmpty)
        let narrower = CoreDataModelImport.importModel(try Self.read(Self.wide(9)), columnLimit: 9)
        #expect(narrower.skipped.map(\.element) == ["Wide", "Narrow.wide"])
    }
}
