import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A Core Data model's XML as it is written, before any mapping: entities
/// with their attributes, relationships, fetched properties, fetch indexes
/// and uniqueness constraints, the configurations and the fetch request
/// templates.
///
/// It keeps what the file says, inheritance included (each entity's
/// ``Entity/parent`` and ``Entity/isAbstract``), whatever the import makes
/// of it: ``CoreDataModelImport`` and ``ModelDiff`` both read this type.
public struct CoreDataModelXML: Sendable {
    /// An `<entity>`, its own properties only (not those it inherits).
    public struct Entity: Sendable {
        public var name: String
        /// The `parentEntity` the file names (checked by ``read(_:)``: an
        /// entity of the model, never the entity itself, never a cycle).
        public var parent: String?
        /// `isAbstract="YES"`: an entity with no instances of its own.
        public var isAbstract: Bool
        public var attributes: [Attribute] = []
        public var relationships: [Relationship] = []
        public var fetchedProperties: [String] = []
        /// Property names of each fetch index (`indexed="YES"` as one each).
        public var fetchIndexes: [[String]] = []
        /// The `<fetchIndex>` elements as written, each element with its
        /// order (a descending element is there as descending; `fetchIndexes`
        /// holds their property names only).
        public var fetchIndexDeclarations: [FetchIndex] = []
        public var uniquenessConstraints: [[String]] = []
        public var line: Int
        /// The column where the parser had read the `<entity …>` tag.
        public var column: Int = 0
        /// `representedClassName`, as written: the class of the entity's
        /// objects (`Book`, `.Book` or `MyApp.Book` for a Swift class,
        /// `NSManagedObject` for none of its own); nil when absent.
        public var representedClassName: String? = nil
    }

    /// An `<attribute>` as written.
    public struct Attribute: Sendable {
        public var name: String
        /// Core Data's type name as written (`Integer 16`, `String`, `Date`, …).
        public var type: String
        public var isOptional: Bool
        /// `defaultValueString`, as written.
        public var defaultValue: String?
        public var derivation: String?
        public var line: Int
        /// `defaultDateTimeInterval`, as written: a Date attribute's default
        /// in seconds since 2001-01-01 00:00:00 UTC (Xcode writes it beside a
        /// `defaultValueString` meant for people).
        public var defaultDateTimeInterval: String? = nil
        /// `transient="YES"`: a value Core Data keeps in memory only.
        public var isTransient: Bool = false
    }

    /// A `<relationship>` as written.
    public struct Relationship: Sendable {
        public var name: String
        public var destination: String
        public var inverse: String?
        public var isToMany: Bool
        public var isOrdered: Bool
        public var isOptional: Bool
        /// Core Data's rule as written (`Nullify`, `Cascade`, `Deny`, `No Action`).
        public var deleteRule: String
        public var line: Int
        /// `transient="YES"`.
        public var isTransient: Bool = false
    }

    /// A `<fetchIndex>` as written: its name and its elements, in order.
    public struct FetchIndex: Sendable, Equatable {
        /// One `<fetchIndexElement>`: the property it indexes and whether its
        /// `order` is `descending` (Xcode writes `ascending` otherwise).
        public struct Element: Sendable, Equatable {
            public var property: String
            public var isDescending: Bool

            public init(property: String, isDescending: Bool) {
                self.property = property
                self.isDescending = isDescending
            }
        }

        public var name: String?
        public var elements: [Element]
        public var line: Int

        public init(name: String?, elements: [Element], line: Int) {
            self.name = name
            self.elements = elements
            self.line = line
        }
    }

    /// A fetch request template of the model (`<fetchRequest>` directly in
    /// `<model>`; a fetched property's own `<fetchRequest>` is not one), as
    /// written.
    public struct FetchRequestTemplate: Sendable, Equatable {
        /// Its `name` (`?` when the file gives none).
        public var name: String
        /// The entity it fetches, as the `entity` attribute names it.
        public var entity: String
        /// `predicateString`, as written (nil when absent: every object).
        public var predicate: String?
        public var line: Int

        public init(name: String, entity: String, predicate: String?, line: Int) {
            self.name = name
            self.entity = entity
            self.predicate = predicate
            self.line = line
        }
    }

    public var entities: [Entity] = []
    public var configurations: [String] = []
    /// The model's fetch request templates, in the file's order.
    public var fetchRequests: [FetchRequestTemplate] = []

    /// The entity named `name`, the first one when the file repeats it.
    public func entity(named name: String) -> Entity? { entities.first { $0.name == name } }

    /// Parses the XML of `contents`; errors name the file, line and column.
    ///
    /// The file is read as a stream, in chunks: libxml2, below Foundation's
    /// `XMLParser`, refuses to look ahead more than 10,000,000 bytes in one
    /// chunk without its `XML_PARSE_HUGE` option (which `XMLParser` does not
    /// set), so a well-formed model larger than 10 MB given to it whole was
    /// reported as "not well-formed" (libxml2's "Huge input lookup"). Read
    /// in chunks, a model file has no size limit but the memory its
    /// entities take.
    public static func read(_ path: String) throws -> CoreDataModelXML {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ModelImportError("\(path): a directory, not a model's contents file")
        }
        guard FileManager.default.isReadableFile(atPath: path), let stream = InputStream(fileAtPath: path) else {
            throw ModelImportError("\(path): cannot read")
        }
        let parser = XMLParser(stream: stream)
        let reader = Reader(path: path, parser: parser)
        parser.delegate = reader
        let parsed = parser.parse()
        // The first error libxml2 reports is the cause; the later ones, and
        // what the reader makes of the elements it recovers, follow from
        // it. On Linux parse() may return true with an error set (a
        // document that ends too soon): the error decides.
        if let syntax = reader.syntaxError {
            throw ModelImportError("\(path):\(syntax.line):\(syntax.column): not well-formed XML: \(syntax.error.sentence)")
        }
        if let problem = reader.problem { throw problem }
        if !parsed || parser.parserError != nil {
            // `streamError` traps on Linux unless the stream is in error
            // (after a parse that libxml2 stopped on its own, as for an
            // undeclared entity under a DOCTYPE with an external subset).
            if stream.streamStatus == .error, let streamError = stream.streamError {
                throw ModelImportError("\(path): cannot read: \(streamError.localizedDescription)")
            }
            let error = XMLSyntaxError(code: (parser.parserError as NSError?)?.code ?? -1, openElement: reader.stack.last)
            throw ModelImportError("\(path):\(parser.lineNumber):\(parser.columnNumber): not well-formed XML: \(error.sentence)")
        }
        guard reader.sawModel else { throw ModelImportError("\(path):1:1: no <model> element: not a Core Data model") }
        try reader.model.checkInheritance(path: path)
        return reader.model
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
        var fetchIndexDeclaration: FetchIndex?
        var sawModel = false
        var problem: ModelImportError?
        /// The first syntax error libxml2 reported, where it was.
        var syntaxError: (error: XMLSyntaxError, line: Int, column: Int)?

        init(path: String, parser: XMLParser) {
            self.path = path
            self.parser = parser
        }

        func fail(_ element: String, _ message: String) {
            guard problem == nil, syntaxError == nil else { return }
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
                    name: name, parent: attributes["parentEntity"], isAbstract: attributes["isAbstract"] == "YES", line: parser.lineNumber,
                    column: parser.columnNumber, representedClassName: attributes["representedClassName"])
            case "attribute" where parent == "entity":
                guard let name = required(attributes, "name", element) else { return }
                entity?.attributes.append(Attribute(
                    name: name, type: attributes["attributeType"] ?? "Undefined", isOptional: attributes["optional"] == "YES",
                    defaultValue: attributes["defaultValueString"],
                    derivation: attributes["derived"] == "YES" ? attributes["derivationExpression"] ?? "" : nil, line: parser.lineNumber,
                    defaultDateTimeInterval: attributes["defaultDateTimeInterval"], isTransient: attributes["transient"] == "YES"))
                if attributes["indexed"] == "YES" { entity?.fetchIndexes.append([name]) }
            case "relationship" where parent == "entity":
                guard let name = required(attributes, "name", element),
                      let destination = required(attributes, "destinationEntity", element)
                else { return }
                entity?.relationships.append(Relationship(
                    name: name, destination: destination, inverse: attributes["inverseName"], isToMany: attributes["toMany"] == "YES",
                    isOrdered: attributes["ordered"] == "YES", isOptional: attributes["optional"] == "YES",
                    deleteRule: attributes["deletionRule"] ?? "Nullify", line: parser.lineNumber,
                    isTransient: attributes["transient"] == "YES"))
                if attributes["indexed"] == "YES" { entity?.fetchIndexes.append([name]) }
            case "fetchedProperty" where parent == "entity":
                entity?.fetchedProperties.append(attributes["name"] ?? "?")
            case "fetchIndex":
                fetchIndex = []
                fetchIndexDeclaration = FetchIndex(name: attributes["name"], elements: [], line: parser.lineNumber)
            case "fetchIndexElement":
                if let property = attributes["property"] {
                    fetchIndex?.append(property)
                    fetchIndexDeclaration?.elements.append(.init(property: property, isDescending: attributes["order"] == "descending"))
                }
            case "compoundIndex":
                fetchIndex = []
            case "index" where parent == "compoundIndex":
                if let value = attributes["value"] { fetchIndex?.append(value) }
            case "uniquenessConstraint":
                constraint = []
            case "constraint" where parent == "uniquenessConstraint":
                if let value = attributes["value"] { constraint?.append(value) }
            case "fetchRequest" where parent == "model":
                model.fetchRequests.append(FetchRequestTemplate(
                    name: attributes["name"] ?? "?", entity: attributes["entity"] ?? "", predicate: attributes["predicateString"],
                    line: parser.lineNumber))
            case "configuration" where parent == "model":
                model.configurations.append(attributes["name"] ?? "?")
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            let error = XMLSyntaxError(code: (parseError as NSError).code, openElement: stack.last)
            // An undeclared entity is only a warning to libxml2 when a
            // DOCTYPE names an external subset (which is never read): a
            // model's text cannot hold one, so it is refused as an error.
            guard syntaxError == nil, problem == nil, !error.isWarning || error.code == XMLSyntaxError.undeclaredEntityWarning else { return }
            syntaxError = (error, parser.lineNumber, parser.columnNumber)
            parser.abortParsing()
        }

        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            _ = stack.popLast()
            switch element {
            case "entity" where stack.last == "model":
                if let entity { model.entities.append(entity) }
                entity = nil
            case "fetchIndex", "compoundIndex":
                if let fetchIndex, !fetchIndex.isEmpty { entity?.fetchIndexes.append(fetchIndex) }
                if let fetchIndexDeclaration, !fetchIndexDeclaration.elements.isEmpty {
                    entity?.fetchIndexDeclarations.append(fetchIndexDeclaration)
                }
                fetchIndex = nil
                fetchIndexDeclaration = nil
            case "uniquenessConstraint":
                if let constraint, !constraint.isEmpty { entity?.uniquenessConstraints.append(constraint) }
                constraint = nil
            default:
                break
            }
        }
    }
}
