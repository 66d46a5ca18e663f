import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A Core Data model's XML as it is written, before any mapping: entities
/// with their attributes, relationships, fetched properties, fetch indexes
/// and uniqueness constraints, and the configurations.
public struct CoreDataModelXML: Sendable {
    public struct Entity: Sendable {
        public var name: String
        public var parent: String?
        public var isAbstract: Bool
        public var attributes: [Attribute] = []
        public var relationships: [Relationship] = []
        public var fetchedProperties: [String] = []
        /// Property names of each fetch index (`indexed="YES"` as one each).
        public var fetchIndexes: [[String]] = []
        public var uniquenessConstraints: [[String]] = []
        public var line: Int
    }

    public struct Attribute: Sendable {
        public var name: String
        public var type: String
        public var isOptional: Bool
        public var defaultValue: String?
        public var derivation: String?
        public var line: Int
    }

    public struct Relationship: Sendable {
        public var name: String
        public var destination: String
        public var inverse: String?
        public var isToMany: Bool
        public var isOrdered: Bool
        public var isOptional: Bool
        public var deleteRule: String
        public var line: Int
    }

    public var entities: [Entity] = []
    public var configurations: [String] = []

    /// Parses the XML of `contents`; errors name the file, line and column.
    public static func read(_ path: String) throws -> CoreDataModelXML {
        guard let data = FileManager.default.contents(atPath: path) else { throw ModelImportError("\(path): cannot read") }
        let parser = XMLParser(data: data)
        let reader = Reader(path: path, parser: parser)
        parser.delegate = reader
        let parsed = parser.parse()
        if let problem = reader.problem { throw problem }
        // On Linux parse() may return true with an error set (a document
        // that ends too soon): the error decides.
        if !parsed || parser.parserError != nil {
            let code = (parser.parserError as NSError?)?.code ?? -1
            throw ModelImportError("\(path):\(parser.lineNumber):\(parser.columnNumber): not well-formed XML: \(Self.describe(code))")
        }
        guard reader.sawModel else { throw ModelImportError("\(path):1:1: no <model> element: not a Core Data model") }
        return reader.model
    }

    /// libxml2's error codes as words (Foundation gives no message on Linux).
    static func describe(_ code: Int) -> String {
        switch code {
        case 4: "no element where one should start"
        case 5: "the document ends before its elements are closed"
        case 38, 39, 40, 41: "an attribute is not written as name=\"value\""
        case 73, 76: "a closing tag does not match its opening tag"
        case 9: "a character that XML does not allow"
        default: "XML error \(code)"
        }
    }

    /// The SAX reader: keeps the entity being read and the element path.
    private final class Reader: NSObject, XMLParserDelegate {
        let path: String
        let parser: XMLParser
        var model = CoreDataModelXML()
        var entity: Entity?
        var stack: [String] = []
        var constraint: [String]?
        var fetchIndex: [String]?
        var sawModel = false
        var problem: ModelImportError?

        init(path: String, parser: XMLParser) {
            self.path = path
            self.parser = parser
        }

        func fail(_ element: String, _ message: String) {
            guard problem == nil else { return }
            problem = ModelImportError("\(path):\(parser.lineNumber):\(parser.columnNumber): <\(element)>: \(message)")
            parser.abortParsing()
        }

        func required(_ attributes: [String: String], _ key: String, _ element: String) -> String? {
            guard let value = attributes[key], !value.isEmpty else {
                fail(element, "no \(key)")
                return nil
            }
            return value
        }

        func parser(
            _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            defer { stack.append(element) }
            let parent = stack.last
            switch element {
            case "model":
                sawModel = true
            case "entity" where parent == "model":
                guard let name = required(attributes, "name", element) else { return }
                entity = Entity(
                    name: name, parent: attributes["parentEntity"], isAbstract: attributes["isAbstract"] == "YES", line: parser.lineNumber)
            case "attribute" where parent == "entity":
                guard let name = required(attributes, "name", element) else { return }
                entity?.attributes.append(Attribute(
                    name: name, type: attributes["attributeType"] ?? "Undefined", isOptional: attributes["optional"] == "YES",
                    defaultValue: attributes["defaultValueString"],
                    derivation: attributes["derived"] == "YES" ? attributes["derivationExpression"] ?? "" : nil, line: parser.lineNumber))
                if attributes["indexed"] == "YES" { entity?.fetchIndexes.append([name]) }
            case "relationship" where parent == "entity":
                guard let name = required(attributes, "name", element),
                      let destination = required(attributes, "destinationEntity", element)
                else { return }
                entity?.relationships.append(Relationship(
                    name: name, destination: destination, inverse: attributes["inverseName"], isToMany: attributes["toMany"] == "YES",
                    isOrdered: attributes["ordered"] == "YES", isOptional: attributes["optional"] == "YES",
                    deleteRule: attributes["deletionRule"] ?? "Nullify", line: parser.lineNumber))
                if attributes["indexed"] == "YES" { entity?.fetchIndexes.append([name]) }
            case "fetchedProperty" where parent == "entity":
                entity?.fetchedProperties.append(attributes["name"] ?? "?")
            case "fetchIndex":
                fetchIndex = []
            case "fetchIndexElement":
                if let property = attributes["property"] { fetchIndex?.append(property) }
            case "compoundIndex":
                fetchIndex = []
            case "index" where parent == "compoundIndex":
                if let value = attributes["value"] { fetchIndex?.append(value) }
            case "uniquenessConstraint":
                constraint = []
            case "constraint" where parent == "uniquenessConstraint":
                if let value = attributes["value"] { constraint?.append(value) }
            case "configuration" where parent == "model":
                model.configurations.append(attributes["name"] ?? "?")
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
            switch element {
            case "entity" where stack.last == "model":
                if let entity { model.entities.append(entity) }
                entity = nil
            case "fetchIndex", "compoundIndex":
                if let fetchIndex, !fetchIndex.isEmpty { entity?.fetchIndexes.append(fetchIndex) }
                fetchIndex = nil
            case "uniquenessConstraint":
                if let constraint, !constraint.isEmpty { entity?.uniquenessConstraints.append(constraint) }
                constraint = nil
            default:
                break
            }
        }
    }
}
