import Foundation
import ObjectGraph

/// Maps a Core Data model (``CoreDataModelXML``) to a Faultline ``Model``,
/// keeping what maps and saying what does not, and why, instead of failing.
///
/// Entity inheritance maps one to one: each entity, abstract ones
/// included, is declared with its parent and the properties it declares
/// itself; relationships to an abstract entity and to-many relationships
/// without an inverse are imported as they are.
///
/// What changes on the way (each noted in ``ImportedModel/notes``):
/// - Ordered to-many relationships become unordered (Faultline keeps
///   destinations in primary-key order).
/// - Decimal and Float become double, URI becomes string.
/// - A fetch index on one property becomes an index on it (a descending one
///   too, noted: Faultline's index has no order, and SQLite reads an index
///   either way); a compound one is listed as skipped.
/// - A default that cannot be taken is noted; a Date's default
///   (`defaultDateTimeInterval`) is a date.
///
/// Skipped (each in ``ImportedModel/skipped`` with the reason): transient,
/// transformable, object-ID, composite and undefined attributes, fetched
/// properties, configurations, derived attributes Faultline cannot compute, an entity whose table would
/// have more columns than SQLite allows (``SQLiteColumnLimit``; with its
/// whole inheritance hierarchy, which shares the table), and
/// whatever the model's own checks refuse (a relationship whose inverse was
/// skipped, a reserved name).
///
/// Fetch request templates (`<fetchRequest>`) whose entity is imported and
/// whose predicate the engine's parser reads are kept in
/// ``ImportedModel/fetchRequests`` (``Model`` holds none); the others are
/// skipped with the reason.
///
/// A model of which no entity is left is no model: ``ImportedModel/model``
/// is nil and ``ImportedModel/error`` says why.
public enum CoreDataModelImport {
    /// The Faultline model of `xml`, with what was skipped and changed.
    /// `columnLimit` is the most columns an entity's table may have (by
    /// default SQLite's own limit, ``SQLiteColumnLimit/current``).
    public static func importModel(_ xml: CoreDataModelXML, columnLimit: Int? = nil) -> ImportedModel {
        var skipped: [ImportedModel.Skipped] = []
        var notes: [String] = []
        for configuration in xml.configurations {
            skipped.append(.init(element: "configuration \(configuration)", reason: "configurations are not modelled: every entity is in the one store"))
        }
        let lookup = EntityLookup(xml)
        let indexed = singlePropertyIndexes(of: xml, lookup: lookup)
        var declarations: [Entity] = []
        for entity in xml.entities {
            declarations.append(declaration(
                of: entity, indexed: indexed[entity.name] ?? [], lookup: lookup, skipped: &skipped, notes: &notes))
        }
        skipped += removeTablesTooWide(from: &declarations, in: xml, limit: columnLimit ?? SQLiteColumnLimit.current)

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
        if model != nil, declarations.allSatisfy(\.isAbstract) {
            model = nil
            declarations = []
            lastError = nothingImported(xml)
        }
        var classNames: [String: String] = [:]
        for declaration in declarations {
            if let className = lookup.entity(named: declaration.name)?.representedClassName { classNames[declaration.name] = className }
        }
        let templates = model == nil ? [] : fetchRequests(of: xml, entities: Set(declarations.map(\.name)), skipped: &skipped)
        return ImportedModel(
            model: model, declarations: declarations, skipped: skipped, notes: notes, error: model == nil ? lastError : nil,
            representedClassNames: classNames, fetchRequests: templates)
    }

    /// Why a model that made no entity is no model.
    static func nothingImported(_ xml: CoreDataModelXML) -> String {
        if xml.entities.isEmpty { return "the model has no entities" }
        let abstract = xml.entities.filter(\.isAbstract)
        if abstract.count == xml.entities.count {
            return "its only entities are abstract (\(abstract.map(\.name).joined(separator: ", "))): no object can be inserted"
        }
        return "none of its \(xml.entities.count) entities could be imported (see skipped)"
    }

    /// The properties single-property fetch indexes name, by the entity
    /// that declares each property: a fetch index of one attribute indexes
    /// its column, whichever entity of the hierarchy names it (a subentity
    /// may index an attribute it inherits). Each index costs the steps up
    /// to its property's entity, usually none.
    static func singlePropertyIndexes(of xml: CoreDataModelXML, lookup: EntityLookup) -> [String: Set<String>] {
        var indexed: [String: Set<String>] = [:]
        for entity in xml.entities {
            for index in entity.fetchIndexes where index.count == 1 {
                let property = index[0]
                var owner = entity
                var seen: Set<String> = [entity.name]
                while !owner.attributes.contains(where: { $0.name == property }), !owner.relationships.contains(where: { $0.name == property }),
                    let name = owner.parent, let parent = lookup.entity(named: name), seen.insert(name).inserted
                {
                    owner = parent
                }
                indexed[owner.name, default: []].insert(property)
            }
        }
        return indexed
    }

    /// `entity` as one declaration: its parent, whether it is abstract, and
    /// the properties it declares itself (its subentities inherit them);
    /// what of them cannot be taken added to `skipped` and what changed to
    /// `notes`. `indexed` names the properties a single-property fetch
    /// index of the entity or of a subentity names.
    static func declaration(
        of entity: CoreDataModelXML.Entity, indexed: Set<String>, lookup: EntityLookup, skipped: inout [ImportedModel.Skipped],
        notes: inout [String]
    ) -> Entity {
        var properties: [Property] = []
        for index in entity.fetchIndexes where index.count > 1 {
            skipped.append(.init(
                element: "\(entity.name) index (\(index.joined(separator: ", ")))",
                reason: "a compound fetch index: Faultline indexes single attributes", line: entity.line))
        }
        for attribute in entity.attributes {
            switch map(attribute, indexed: indexed.contains(attribute.name)) {
            case .success(let (property, note)):
                properties.append(property)
                if let note { notes.append("\(entity.name).\(attribute.name): \(note)") }
            case .failure(let reason):
                skipped.append(.init(element: "\(entity.name).\(attribute.name)", reason: reason.description, line: attribute.line))
            }
        }
        // Xcode writes `order="descending"` on a fetch index element;
        // Faultline's index has no order, and SQLite reads one either way.
        for index in entity.fetchIndexDeclarations where index.elements.count == 1 && index.elements[0].isDescending {
            let property = index.elements[0].property
            guard properties.contains(where: { $0.name == property }) else { continue }
            notes.append("\(entity.name).\(property): a descending fetch index, imported as an index (SQLite reads an index in either order)")
        }
        for relationship in entity.relationships {
            let label = "\(entity.name).\(relationship.name)"
            guard let destination = lookup.entity(named: relationship.destination) else {
                skipped.append(.init(element: label, reason: "destination \(relationship.destination) is not in the model", line: relationship.line))
                continue
            }
            if relationship.isTransient {
                skipped.append(.init(element: label, reason: "transient: Core Data keeps it in memory only", line: relationship.line))
                continue
            }
            let rule = deleteRule(relationship.deleteRule)
            if relationship.isToMany {
                if relationship.isOrdered { notes.append("\(label): ordered, imported unordered (destinations in key order)") }
                properties.append(.toMany(relationship.name, destination.name, inverse: relationship.inverse, deleteRule: rule))
            } else {
                properties.append(.toOne(
                    relationship.name, destination.name, inverse: relationship.inverse, deleteRule: rule,
                    optional: relationship.isOptional))
            }
        }
        for fetched in entity.fetchedProperties {
            skipped.append(.init(element: "\(entity.name).\(fetched)", reason: "a fetched property: not modelled (run its fetch request)", line: entity.line))
        }
        // A constraint may name inherited attributes.
        var attributeNames = Set<String>()
        for source in entity.uniquenessConstraints.isEmpty ? [] : lookup.ancestors(of: entity) + [entity] {
            for attribute in source.attributes {
                if case .success = map(attribute, indexed: false) { attributeNames.insert(attribute.name) }
            }
        }
        var constraints: [[String]] = []
        for constraint in entity.uniquenessConstraints {
            if constraint.allSatisfy(attributeNames.contains) {
                constraints.append(constraint)
            } else {
                skipped.append(.init(
                    element: "\(entity.name) uniqueness (\(constraint.joined(separator: ", ")))",
                    reason: "names a property that is not an imported attribute", line: entity.line))
            }
        }
        return Entity(entity.name, parent: entity.parent, abstract: entity.isAbstract, properties: properties, uniquenessConstraints: constraints)
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
        // An entity-level refusal: `entity Book: parent entity Item does not exist`.
        if body.hasPrefix("entity "), let index = declarations.firstIndex(where: { body.hasPrefix("entity \($0.name):") }) {
            return declarations.remove(at: index).name
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
