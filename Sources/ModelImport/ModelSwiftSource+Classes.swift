import ObjectGraph

extension ModelSwiftSource {
    /// The model as Swift source with a typed class for each entity, as
    /// Xcode generates Core Data's (what `perf-run model import --swift`
    /// prints):
    ///
    /// - `public enum <modelName> { public static let model = try! Model([…]) }`,
    ///   each entity declared with its class;
    /// - a protocol `<modelName>Object` (`EntityNamed` and
    ///   `KeyPathNamed`) that every class conforms to, whose
    ///   `fetchRequest(predicate:sortKeys:)` is typed by the class it is
    ///   called on (`Book.fetchRequest()` is a `FetchRequest<Book>`);
    /// - for each entity a `ManagedObject` subclass named by
    ///   ``ModelSwiftNames`` after `representedClassNames` (by entity
    ///   name, as the model file writes them), whose superclass is its
    ///   parent entity's class; `final` unless a subentity's class
    ///   inherits from it. It has `entityName` and `keyNames` (class
    ///   properties, overridden by subclasses; a subclass's key paths,
    ///   inherited properties included, have its own root), for a final
    ///   class `hasFaultHooks` false (it overrides no fault hook, and no
    ///   subclass or extension can), an
    ///   `@inlinable` property for each attribute (get and set, optional
    ///   where the model says so; read only when derived) that keeps its
    ///   value in a typed field (`_name`, an `AttributeField`: a read of a
    ///   loaded object is a test and the field's read), a to-one
    ///   property (get and set, optional), and for a to-many one its
    ///   destinations (get) with `addTo…(_:)` and `removeFrom…(_:)`.
    ///
    /// Everything is `public`, for an application's other modules. The
    /// same declarations give the same source, byte for byte.
    public static func render(
        classesOf declarations: [Entity], representedClassNames: [String: String] = [:], modelName: SwiftModelName,
        fetchRequests: [ImportedFetchRequest] = []
    ) -> String {
        let names = ModelSwiftNames(declarations, representedClassNames: representedClassNames, model: modelName)
        let parents = Set(declarations.compactMap(\.parent))
        let byName = Dictionary(declarations.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let needsFoundation = declarations.contains { entity in
            entity.properties.contains { property in
                guard case .attribute(let attribute) = property else { return false }
                return [.date, .data, .uuid].contains(attribute.type) || defaultNeedsFoundation(property)
            }
        }
        var lines = [
            "// \(modelName), the model, and a class for each of its entities, as `perf-run model import --swift`",
            "// generates them from the Core Data model: regenerate this file rather than edit it.",
        ]
        if !names.renames.isEmpty {
            lines.append("//")
            lines.append("// Names changed so that the source compiles:")
            lines += names.renames.map { "// - \(commented($0))" }
        }
        lines.append("")
        lines += (needsFoundation ? ["import Foundation"] : []) + ["import ObjectGraph", ""]
        lines += [
            "/// The model, each entity declared with its class.",
            "public enum \(modelName) {",
            "    /// The model, to open a `Store` with.",
            "    public static let model = try! Model([",
        ]
        for entity in declarations { lines += declarationLines(entity, objectType: names.className(entity.name), indent: "        ") }
        lines.append("    ])")
        if !fetchRequests.isEmpty {
            lines += [
                "",
                "    /// The model's fetch request templates, by name: the entity each fetches and its predicate's format",
                "    /// string (nil: every object), to parse with `ObjectPredicate(format:arguments:variables:)`, its",
                "    /// `$NAME` variables filled.",
                "    public static let fetchRequestTemplates: [String: (entityName: String, predicate: String?)] = [",
            ]
            for request in fetchRequests {
                lines.append("        \(quoted(request.name)): (entityName: \(quoted(request.entity)), predicate: \(request.predicateFormat.map(quoted) ?? "nil")),")
            }
            lines.append("    ]")
        }
        lines += [
            "}",
            "",
            "/// A class of \(modelName): it names its entity, and the model key of each of its typed properties'",
            "/// key paths.",
            "public protocol \(modelName.objectProtocol): EntityNamed, KeyPathNamed {}",
            "",
            "extension \(modelName.objectProtocol) {",
            "    /// A request for the objects of the class's entity and of its subentities, typed by the class",
            "    /// it is called on (`fetchRequest()` of a class `Post` is a `FetchRequest<Post>`).",
            "    public static func fetchRequest(predicate: ObjectPredicate? = nil, sortKeys: [SortKey] = []) -> FetchRequest<Self> {",
            "        FetchRequest(predicate: predicate, sortKeys: sortKeys)",
            "    }",
            "}",
        ]
        for entity in declarations {
            lines.append("")
            lines += classLines(entity, isFinal: !parents.contains(entity.name), byName: byName, names: names)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The class of `entity`.
    private static func classLines(_ entity: Entity, isFinal: Bool, byName: [String: Entity], names: ModelSwiftNames) -> [String] {
        let className = names.className(entity.name)
        let parent = entity.parent.flatMap { byName[$0] }
        let override = parent == nil ? "" : "override "
        // Members of a class with subclasses are final: a read is a direct
        // call (or inlined), never a look-up in the class's table.
        let member = isFinal ? "public" : "public final"
        var about = "/// The objects of the entity `\(commented(entity.name))`"
        if entity.isAbstract { about += " (abstract: only its subentities' objects can be inserted)" }
        var lines = [
            about + ".",
            "public \(isFinal ? "final " : "")class \(className): \(parent.map { names.className($0.name) } ?? "ManagedObject, \(names.model.objectProtocol)") {",
            "    /// The entity's name in the model.",
            "    \(override)public class var entityName: String { \(quoted(entity.name)) }",
            "",
            "    /// The model key of each typed property's key path (with this class as its root, inherited",
            "    /// properties included).",
            "    \(override)public class var keyNames: [AnyKeyPath: String] { keyNameTable }",
        ]

        let keyed = ancestors(of: entity, byName: byName).flatMap { owner in owner.properties.map { (owner, $0) } }
            + entity.properties.map { (entity, $0) }
        // Key paths are immutable, though AnyKeyPath is not Sendable.
        if keyed.isEmpty {
            lines.append("    nonisolated(unsafe) private static let keyNameTable: [AnyKeyPath: String] = [:]")
        } else {
            lines.append("    nonisolated(unsafe) private static let keyNameTable: [AnyKeyPath: String] = [")
            for (owner, property) in keyed {
                let swiftName = SwiftIdentifier.spelled(names.propertyName(property.name, declaredBy: owner.name))
                lines.append("        \\\(className).\(swiftName): \(quoted(property.name)),")
            }
            lines.append("    ]")
        }
        // Only a final class can promise no hook: the generator writes
        // none, an extension cannot override one, and nothing subclasses it.
        if isFinal {
            lines += [
                "",
                "    /// No fault hook (a final class whose source overrides none): refreshes skip the calls.",
                "    override public class var hasFaultHooks: Bool { false }",
            ]
        }
        // Each attribute's index among the entity's attributes: its
        // ancestors' first, then its own in order (as `Model` numbers them).
        var attributeIndex = ancestors(of: entity, byName: byName).reduce(0) { count, owner in
            count + owner.properties.filter(ModelSwiftNames.hasField).count
        }
        for property in entity.properties {
            lines.append("")
            lines += propertyLines(property, of: entity, attributeIndex: attributeIndex, member: member, names: names)
            if ModelSwiftNames.hasField(property) { attributeIndex += 1 }
        }
        lines.append("}")
        return lines
    }

    /// The typed property (and a to-many's methods) of `property`. An
    /// attribute (at `attributeIndex` among the entity's attributes) keeps
    /// its value in a field (`AttributeField`) that its property reads and
    /// writes; one without a field bit (``TypedFields/hasField(_:)``)
    /// reads through the key alone.
    private static func propertyLines(
        _ property: Property, of entity: Entity, attributeIndex: Int, member: String, names: ModelSwiftNames
    ) -> [String] {
        let name = SwiftIdentifier.spelled(names.propertyName(property.name, declaredBy: entity.name))
        let key = quoted(property.name)
        switch property {
        case .attribute(let attribute):
            let type = swiftType(attribute.type) + (attribute.isOptional ? "?" : "")
            let about = attribute.derivation.map { "`\(commented(attribute.name))`: \(attribute.type.rawValue), derived (\(describe($0))): read only." }
                ?? "`\(commented(attribute.name))`: \(attribute.type.rawValue)\(attribute.isOptional ? ", optional" : "")."
            // Through the field, or (no field bit left) through the key.
            let read: String
            let write: String
            var fieldLines: [String] = []
            if TypedFields.hasField(attributeIndex) {
                let field = names.fieldName(property.name, declaredBy: entity.name)
                read = "attribute(\(key), at: \(attributeIndex), in: &\(field))"
                write = "setAttribute(\(key), at: \(attributeIndex), to: newValue, in: &\(field))"
                fieldLines = ["    @usableFromInline @exclusivity(unchecked) final var \(field) = AttributeField<\(type)>()"]
            } else {
                read = "self[attribute: \(key)]"
                write = "self[attribute: \(key)] = newValue"
            }
            if attribute.derivation != nil {
                return ["    /// \(about)", "    @inlinable \(member) var \(name): \(type) { \(read) }"] + fieldLines
            }
            return [
                "    /// \(about)",
                "    @inlinable \(member) var \(name): \(type) {",
                "        get { \(read) }",
                "        set { \(write) }",
                "    }",
            ] + fieldLines
        case .relationship(let relationship):
            let destination = names.className(relationship.destinationName)
            let inverse = relationship.inverseName.map { ", inverse `\(commented($0))`" } ?? ", no inverse"
            guard relationship.isToMany else {
                return [
                    "    /// `\(commented(relationship.name))`: to-one \(commented(relationship.destinationName))\(inverse).",
                    "    \(member) var \(name): \(destination)? {",
                    "        get { self[toOne: \(key)] }",
                    "        set { self[toOne: \(key)] = newValue }",
                    "    }",
                ]
            }
            let capitalized = names.methodSuffix(property.name, declaredBy: entity.name)
            // The engine's words for a typed accessor that cannot go on.
            let failure = "\"Faultline: \\(objectID.entityName).\(commented(property.name)) of \\(objectID): \\(error)\""
            return [
                "    /// `\(commented(relationship.name))`: to-many \(commented(relationship.destinationName))\(inverse), in primary-key order.",
                "    \(member) var \(name): [\(destination)] { self[toMany: \(key)] }",
                "",
                "    /// Adds `value` to `\(commented(relationship.name))`\(relationship.inverseName == nil ? "" : "; its inverse follows").",
                "    \(member) func addTo\(capitalized)(_ value: \(destination), file: String = #fileID, line: Int = #line) {",
                "        do {",
                "            try addObject(value, forKey: \(key), file: file, line: line)",
                "        } catch {",
                "            Swift.fatalError(\(failure))",
                "        }",
                "    }",
                "",
                "    /// Removes `value` from `\(commented(relationship.name))`\(relationship.inverseName == nil ? "" : "; its inverse follows").",
                "    \(member) func removeFrom\(capitalized)(_ value: \(destination), file: String = #fileID, line: Int = #line) {",
                "        do {",
                "            try removeObject(value, forKey: \(key), file: file, line: line)",
                "        } catch {",
                "            Swift.fatalError(\(failure))",
                "        }",
                "    }",
            ]
        }
    }

    /// The Swift type of an attribute's values.
    static func swiftType(_ type: AttributeType) -> String {
        switch type {
        case .int16: "Int16"
        case .int32: "Int32"
        case .int64: "Int64"
        case .double: "Double"
        case .bool: "Bool"
        case .string: "String"
        case .date: "Date"
        case .data: "Data"
        case .uuid: "UUID"
        }
    }

    /// A derivation as the model file writes it (`posts.@count`).
    private static func describe(_ derivation: Derivation) -> String {
        switch derivation {
        case .count(let relationship): "`\(commented(relationship)).@count`"
        case .sum(let relationship, let attribute): "`\(commented(relationship)).@sum.\(commented(attribute))`"
        case .lowercase(let attribute): "`lowercase:(\(commented(attribute)))`"
        }
    }

    /// A name as a comment or a string literal holds it: what ``quoted(_:)``
    /// puts between the quotes, so that no name can end the line.
    private static func commented(_ name: String) -> Substring { quoted(name).dropFirst().dropLast() }

    /// The ancestors of `entity`, root first.
    private static func ancestors(of entity: Entity, byName: [String: Entity]) -> [Entity] {
        var chain: [Entity] = []
        var seen: Set<String> = [entity.name]
        var current = entity.parent.flatMap { byName[$0] }
        while let parent = current, seen.insert(parent.name).inserted {
            chain.insert(parent, at: 0)
            current = parent.parent.flatMap { byName[$0] }
        }
        return chain
    }
}
