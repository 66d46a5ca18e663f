import Foundation
import ObjectGraph

/// Maps a Core Data model (``CoreDataModelXML``) to a Faultline ``Model``,
/// keeping what maps and saying what does not, and why, instead of failing.
///
/// What changes on the way (each noted in ``ImportedModel/notes``):
/// - Entity inheritance is flattened: Faultline has none, so each entity
///   gets its ancestors' properties; an abstract entity is not imported,
///   nor a relationship to one.
/// - Ordered to-many relationships become unordered (Faultline keeps
///   destinations in primary-key order).
/// - Decimal and Float become double, URI becomes string.
/// - A fetch index on one property becomes an index on it; a compound one
///   is listed as skipped.
///
/// Skipped (each in ``ImportedModel/skipped`` with the reason): transformable,
/// object-ID, composite and undefined attributes, fetched properties,
/// configurations, to-many relationships without an inverse, derived
/// attributes Faultline cannot compute, and whatever the model's own
/// checks refuse (a relationship whose inverse was skipped, a reserved name).
public enum CoreDataModelImport {
    public static func importModel(_ xml: CoreDataModelXML) -> ImportedModel {
        var skipped: [ImportedModel.Skipped] = []
        var notes: [String] = []
        let byName = Dictionary(xml.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for configuration in xml.configurations {
            skipped.append(.init(element: "configuration \(configuration)", reason: "configurations are not modelled: every entity is in the one store"))
        }

        /// An entity's ancestors, root first (a cycle or an unknown parent ends the chain).
        func ancestors(_ entity: CoreDataModelXML.Entity) -> [CoreDataModelXML.Entity] {
            var chain: [CoreDataModelXML.Entity] = []
            var seen: Set<String> = [entity.name]
            var current = entity.parent
            while let name = current, let parent = byName[name], seen.insert(name).inserted {
                chain.insert(parent, at: 0)
                current = parent.parent
            }
            return chain
        }

        var declarations: [Entity] = []
        for entity in xml.entities {
            if entity.isAbstract {
                skipped.append(.init(element: entity.name, reason: "abstract: Faultline has no entity inheritance; its properties go to each subentity", line: entity.line))
                continue
            }
            let chain = ancestors(entity)
            if !chain.isEmpty {
                notes.append("\(entity.name): flattened, with the properties of \(chain.map(\.name).joined(separator: ", "))")
            }
            var properties: [Property] = []
            var seenNames: Set<String> = []
            let indexed = Set((chain + [entity]).flatMap(\.fetchIndexes).filter { $0.count == 1 }.map { $0[0] })
            for source in chain + [entity] {
                for index in source.fetchIndexes where index.count > 1 {
                    skipped.append(.init(
                        element: "\(entity.name) index (\(index.joined(separator: ", ")))",
                        reason: "a compound fetch index: Faultline indexes single attributes", line: source.line))
                }
                for attribute in source.attributes where seenNames.insert(attribute.name).inserted {
                    switch map(attribute, indexed: indexed.contains(attribute.name)) {
                    case .success(let (property, note)):
                        properties.append(property)
                        if let note { notes.append("\(entity.name).\(attribute.name): \(note)") }
                    case .failure(let reason):
                        skipped.append(.init(element: "\(entity.name).\(attribute.name)", reason: reason.description, line: attribute.line))
                    }
                }
                for relationship in source.relationships where seenNames.insert(relationship.name).inserted {
                    let label = "\(entity.name).\(relationship.name)"
                    guard let destination = byName[relationship.destination] else {
                        skipped.append(.init(element: label, reason: "destination \(relationship.destination) is not in the model", line: relationship.line))
                        continue
                    }
                    if destination.isAbstract {
                        skipped.append(.init(
                            element: label, reason: "destination \(destination.name) is abstract (no entity inheritance)", line: relationship.line))
                        continue
                    }
                    let rule = deleteRule(relationship.deleteRule)
                    if relationship.isToMany {
                        guard let inverse = relationship.inverse else {
                            skipped.append(.init(element: label, reason: "a to-many relationship without an inverse", line: relationship.line))
                            continue
                        }
                        if relationship.isOrdered { notes.append("\(label): ordered, imported unordered (destinations in key order)") }
                        properties.append(.toMany(relationship.name, destination.name, inverse: inverse, deleteRule: rule))
                    } else {
                        properties.append(.toOne(
                            relationship.name, destination.name, inverse: relationship.inverse, deleteRule: rule,
                            optional: relationship.isOptional))
                    }
                }
                for fetched in source.fetchedProperties {
                    skipped.append(.init(element: "\(entity.name).\(fetched)", reason: "a fetched property: not modelled (run its fetch request)", line: source.line))
                }
            }
            let attributeNames = Set(properties.compactMap { property -> String? in
                if case .attribute(let attribute) = property { return attribute.name }
                return nil
            })
            var constraints: [[String]] = []
            for constraint in (chain + [entity]).flatMap(\.uniquenessConstraints) {
                if constraint.allSatisfy(attributeNames.contains) {
                    constraints.append(constraint)
                } else {
                    skipped.append(.init(
                        element: "\(entity.name) uniqueness (\(constraint.joined(separator: ", ")))",
                        reason: "names a property that is not an imported attribute", line: entity.line))
                }
            }
            declarations.append(Entity(entity.name, properties: properties, uniquenessConstraints: constraints))
        }

        // The model's own checks decide the rest: drop what one refuses,
        // say why, and try again.
        var model: Model?
        var lastError: String?
        for _ in 0..<200 {
            do {
                model = try Model(declarations)
                break
            } catch {
                let message = error.description
                lastError = message
                guard let removed = remove(culpritOf: message, from: &declarations) else { break }
                skipped.append(.init(element: removed, reason: reason(from: message)))
            }
        }
        return ImportedModel(model: model, declarations: declarations, skipped: skipped, notes: notes, error: model == nil ? lastError : nil)
    }

    // MARK: Attributes

    struct Unmapped: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static func map(_ attribute: CoreDataModelXML.Attribute, indexed: Bool) -> Result<(Property, String?), Unmapped> {
        var note: String?
        let type: AttributeType
        switch attribute.type {
        case "Integer 16": type = .int16
        case "Integer 32": type = .int32
        case "Integer 64": type = .int64
        case "Double": type = .double
        case "Float", "Decimal":
            type = .double
            note = "\(attribute.type) stored as a double"
        case "String": type = .string
        case "Boolean": type = .bool
        case "Date": type = .date
        case "Binary": type = .data
        case "UUID": type = .uuid
        case "URI":
            type = .string
            note = "URI stored as a string"
        case "Transformable": return .failure(Unmapped("transformable: a value only the app's transformer can read"))
        case "ObjectID": return .failure(Unmapped("an object ID attribute: not modelled"))
        case "Composite": return .failure(Unmapped("a composite attribute: not modelled"))
        default: return .failure(Unmapped("attribute type \(attribute.type): not modelled"))
        }
        if let expression = attribute.derivation {
            guard let derivation = derivation(expression) else {
                return .failure(Unmapped("derived as \(expression.isEmpty ? "(no expression)" : expression): Faultline derives only @count, @sum and lowercase"))
            }
            return .success((.derived(attribute.name, type, derivation, indexed: indexed), note))
        }
        var value = Value.null
        if let text = attribute.defaultValue {
            switch defaultValue(text, type) {
            case .some(let parsed): value = parsed
            case .none: note = [note, "default \(text) not imported"].compactMap { $0 }.joined(separator: "; ")
            }
        }
        return .success((.attribute(attribute.name, type, optional: attribute.isOptional, default: value, indexed: indexed), note))
    }

    static func defaultValue(_ text: String, _ type: AttributeType) -> Value? {
        switch type {
        case .int16, .int32, .int64: Int64(text).map(Value.integer)
        case .double: Double(text).map(Value.double)
        case .bool:
            switch text.uppercased() {
            case "YES", "TRUE", "1": .bool(true)
            case "NO", "FALSE", "0": .bool(false)
            default: nil
            }
        case .string: .string(text)
        case .uuid: UUID(uuidString: text).map(Value.uuid)
        case .date, .data: nil
        }
    }

    /// `people.@count`, `items.@sum.price`, `lowercase:(name)` (Core Data's
    /// derivation expressions) as Faultline derivations.
    static func derivation(_ expression: String) -> Derivation? {
        let trimmed = expression.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("lowercase:(") && trimmed.hasSuffix(")") {
            return .lowercase(String(trimmed.dropFirst("lowercase:(".count).dropLast()))
        }
        let parts = trimmed.split(separator: ".").map(String.init)
        if parts.count == 2, parts[1] == "@count" { return .count(parts[0]) }
        if parts.count == 3, parts[1] == "@sum" { return .sum(parts[0], parts[2]) }
        return nil
    }

    static func deleteRule(_ text: String) -> DeleteRule {
        switch text {
        case "Cascade": .cascade
        case "Deny": .deny
        case "No Action": .noAction
        default: .nullify
        }
    }

    // MARK: What the model's checks refuse

    /// Removes the property (or entity) an invalid-model message names
    /// first (`Entity.property: …`); its name, or nil when none can be found.
    static func remove(culpritOf message: String, from declarations: inout [Entity]) -> String? {
        let body = message.components(separatedBy: "invalid model: ").last ?? message
        // A name that is not an identifier: `entity name "My Entity" is not…`,
        // `property name in Post "my-title" is not…`.
        if body.hasPrefix("entity name \""), let index = declarations.firstIndex(where: { body.contains("\"\($0.name)\"") }) {
            return declarations.remove(at: index).name
        }
        if body.hasPrefix("property name in ") {
            for index in declarations.indices where body.hasPrefix("property name in \(declarations[index].name) \"") {
                guard let property = declarations[index].properties.first(where: { body.contains("\"\($0.name)\"") }) else { continue }
                declarations[index].properties.removeAll { $0.name == property.name }
                return "\(declarations[index].name).\(property.name)"
            }
        }
        let label = body.prefix { $0 != ":" && $0 != " " }
        let parts = label.split(separator: ".", maxSplits: 1).map(String.init)
        guard let index = declarations.firstIndex(where: { $0.name == parts.first }) else { return nil }
        if parts.count == 2 {
            let before = declarations[index].properties.count
            declarations[index].properties.removeAll { $0.name == parts[1] }
            if declarations[index].properties.count < before { return String(label) }
            return nil
        }
        declarations.remove(at: index)
        return String(label)
    }

    static func reason(from message: String) -> String {
        let body = message.components(separatedBy: "invalid model: ").last ?? message
        guard let colon = body.firstIndex(of: ":") else { return body }
        return String(body[body.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
    }
}

/// A Core Data model file read into a Faultline model in one step.
public enum ImportedModelFile {
    /// The model at `path`; throws when the file cannot be read or nothing
    /// of it makes a model.
    public static func read(_ path: String) throws -> Model {
        let (contents, _) = try CoreDataModelFile.locate(path)
        let imported = CoreDataModelImport.importModel(try CoreDataModelXML.read(contents))
        guard let model = imported.model else {
            throw ModelImportError("\(path): no model can be made of it: \(imported.error ?? "nothing maps")")
        }
        return model
    }
}
