import Foundation
import Testing
@testable import ModelImport

/// Reading a model file: syntax errors in words, files larger than one
/// parser chunk, and parent entities Core Data would refuse.
@Suite struct ModelFileReadingTests {
    static func write(_ text: String, name: String = "contents") throws -> String {
        try write(Data(text.utf8), name: name)
    }

    static func write(_ data: Data, name: String = "contents") throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let url = root.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    // MARK: Syntax errors

    /// Every error number libxml2 has for a document gets a sentence; only
    /// numbers it does not have are named by number.
    @Test func everyParserErrorNumberIsASentence() {
        let described = [
            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 22, 23, 26, 27, 31, 32, 33, 34, 38, 39, 40, 41, 42, 43, 44,
            45, 46, 47, 56, 57, 61, 62, 63, 64, 65, 68, 73, 74, 75, 76, 77, 79, 80, 81, 85, 86, 89, 110, 201,
        ]
        for code in described {
            let sentence = XMLSyntaxError(code: code).sentence
            #expect(!sentence.hasPrefix("XML syntax error number"), "\(code): \(sentence)")
            #expect(!sentence.isEmpty && !sentence.contains("\n"))
        }
        #expect(XMLSyntaxError(code: 999).sentence == "XML syntax error number 999 (libxml2's xmlParserErrors)")
        #expect(XMLSyntaxError(code: 5, openElement: "entity").sentence == "the document ends before <entity> is closed")
        #expect(XMLSyntaxError(code: 5).sentence == "there is content after the end of the root element")
        #expect(XMLSyntaxError(code: 99).isWarning)
        #expect(!XMLSyntaxError(code: 26).isWarning)
    }

    @Test func bytesThatAreNotUTF8AreNamedWithTheirPlace() throws {
        let path = try Self.write(Data("<model>\n  <entity name=\"".utf8) + Data([0xFF, 0xFE]) + Data("\"/>\n</model>".utf8))
        #expect(throws: ModelImportError(
            "\(path):2:17: not well-formed XML: a character that XML does not allow (a control character, or bytes that are not UTF-8)"
        )) { _ = try CoreDataModelXML.read(path) }
    }

    @Test func aFileThatCannotBeReadSaysSo() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-read-dir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        #expect(throws: ModelImportError("\(directory.path): a directory, not a model's contents file")) { _ = try CoreDataModelXML.read(directory.path) }
        #expect(throws: ModelImportError("/nonexistent/contents: cannot read")) { _ = try CoreDataModelXML.read("/nonexistent/contents") }
    }

    // MARK: Large files

    /// libxml2 refuses to look ahead more than 10,000,000 bytes in one
    /// chunk; the file is read in chunks, so a larger model is read whole.
    /// (A 12 MB file: past the limit, quick to write and parse.)
    @Test func aWellFormedModelLargerThanTenMegabytesIsRead() throws {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model>\n"
        let entities = 60_000
        for number in 0..<entities {
            text += "    <entity name=\"E\(number)\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/></entity>\n"
        }
        // One entity last, with a long userInfo: more bytes, few objects.
        text += "    <entity name=\"Last\"><attribute name=\"b\" attributeType=\"Integer 64\"/><userInfo>\n"
        while text.utf8.count < 12_000_000 {
            text += "        <entry key=\"note\" value=\"padding, as an application's userInfo may hold\"/>\n"
        }
        text += "    </userInfo></entity>\n</model>\n"
        let path = try Self.write(text)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0 > 10_000_000)
        let xml = try CoreDataModelXML.read(path)
        #expect(xml.entities.count == entities + 1)
        #expect(xml.entities.last?.name == "Last")
        #expect(xml.entities.last?.attributes.map(\.name) == ["b"])
    }

    // MARK: Parent entities

    static func model(_ entities: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model>\n\(entities)\n</model>\n"
    }

    @Test(arguments: [
        ("    <entity name=\"A\"/>\n    <entity name=\"B\" parentEntity=\"Gone\"/>",
         ":4:41: entity B: parentEntity Gone is not an entity of this model"),
        ("    <entity name=\"Self\" parentEntity=\"Self\"/>", ":3:44: entity Self: parentEntity is Self itself"),
        ("    <entity name=\"A\" parentEntity=\"B\"/>\n    <entity name=\"B\" parentEntity=\"C\"/>\n    <entity name=\"C\" parentEntity=\"A\"/>",
         ":3:38: entity A: parentEntity makes a cycle: A → B → C → A"),
        ("    <entity name=\"Leaf\" parentEntity=\"B\"/>\n    <entity name=\"B\" parentEntity=\"C\"/>\n    <entity name=\"C\" parentEntity=\"B\"/>",
         ":3:41: entity Leaf: parentEntity B leads into a cycle: B → C → B"),
        ("    <entity name=\"A\" parentEntity=\"\"/>", ":3:37: entity A: parentEntity is empty"),
    ])
    func aParentCoreDataWouldRefuseIsRefusedNamingTheEntity(entities: String, expected: String) throws {
        let path = try Self.write(Self.model(entities))
        #expect(throws: ModelImportError(path + expected)) { _ = try CoreDataModelXML.read(path) }
    }

    @Test func aChainOfParentsIsKeptAsTheFileSaysIt() throws {
        let path = try Self.write(Self.model("""
                <entity name="Leaf" parentEntity="Middle"/>
                <entity name="Root" isAbstract="YES"/>
                <entity name="Middle" parentEntity="Root" isAbstract="YES"/>
            """))
        let xml = try CoreDataModelXML.read(path)
        let leaf = try #require(xml.entity(named: "Leaf"))
        #expect(xml.ancestors(of: leaf).map(\.name) == ["Root", "Middle"])
        #expect(xml.entities.map(\.isAbstract) == [false, true, true])
        #expect(xml.entities.map(\.parent) == ["Middle", nil, "Root"])
        #expect(try xml.subentities(of: #require(xml.entity(named: "Root"))).map(\.name) == ["Middle"])
    }
}
