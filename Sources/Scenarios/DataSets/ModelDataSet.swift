import Foundation
import ObjectGraph

/// A default data set for any model (an imported one, `perf-run explain
/// --model`): max(1, round(100 × scale)) objects of each entity that is
/// not abstract, with
/// values that follow from the object's number, so that every run builds
/// the same data.
///
/// - Strings are `Entity.attribute N`, integers N mod 100 (N itself where a
///   uniqueness constraint names the attribute), doubles N / 10, booleans
///   alternate, dates one day apart from 2001-01-01, data the number's
///   bytes, UUIDs made from the number. Derived attributes are left to the
///   store.
/// - A relationship's destinations are the objects of its destination
///   entity and of every subentity of it.
/// - A to-one relationship points at destination N mod count; each object
///   of a many-to-many relationship's first side holds three destinations
///   (N, N + 1, N + 2 mod count). One-to-many relationships follow from
///   their to-one side.
public enum ModelDataSet {
    public static let base = 100

    public static func count(scale: Double) -> Int { max(1, Int((Double(base) * scale).rounded())) }

    /// Builds the data set into an empty store, in one save.
    public static func build(into store: Store, scale: Double) throws {
        let count = count(scale: scale)
        let model = store.model
        let context = ObjectContext(store: store, name: "data set")
        try context.perform {
            var objects: [String: [ManagedObject]] = [:]
            // Abstract entities have no objects of their own: their
            // subentities' stand for them.
            for entity in model.entities where !entity.isAbstract {
                let unique = Set(lineage(of: entity, in: model).flatMap { $0.uniquenessConstraints.flatMap { $0 } })
                objects[entity.name] = try (0..<count).map { number in
                    let object = try context.insert(entityName: entity.name)
                    for attribute in entity.attributes where attribute.derivation == nil {
                        // Unique numbers stay unique across the entities of
                        // one table.
                        let key = unique.contains(attribute.name) ? entity.index * count + number : number
                        try object.setValue(
                            value(attribute, of: entity, number: key, unique: unique.contains(attribute.name)), forKey: attribute.name)
                    }
                    return object
                }
            }
            // The objects a relationship to an entity may hold: its own and
            // every subentity's.
            func family(of destination: EntityDescription) -> [ManagedObject] {
                model.entities.filter { $0.isKind(of: destination) }.flatMap { objects[$0.name] ?? [] }
            }
            for entity in model.entities where !entity.isAbstract {
                let sources = objects[entity.name] ?? []
                for relationship in entity.relationships {
                    let destinations = family(of: model.destination(of: relationship))
                    guard !destinations.isEmpty else { continue }
                    if !relationship.isToMany {
                        for (number, source) in sources.enumerated() {
                            try source.setObject(destinations[number % destinations.count], forKey: relationship.name)
                        }
                        continue
                    }
                    // A many-to-many is filled from one side only (the
                    // first by declaring entity and name), a one-to-many
                    // from its to-one side, a to-many without an inverse
                    // from its only side.
                    if let inverse = relationship.inverseName {
                        let declaring = model.entities[relationship.declaringEntityIndex].name
                        guard let other = model.destination(of: relationship).relationship(named: inverse), other.isToMany,
                            (declaring, relationship.name) < (model.entities[other.declaringEntityIndex].name, inverse)
                        else { continue }
                    }
                    for (number, source) in sources.enumerated() {
                        for step in 0..<min(3, destinations.count) {
                            try source.addObject(destinations[(number + step) % destinations.count], forKey: relationship.name)
                        }
                    }
                }
            }
            try context.save()
        }
    }

    /// The entity, its parent, and so on up to its root.
    static func lineage(of entity: EntityDescription, in model: Model) -> [EntityDescription] {
        var result = [entity]
        while let parent = result.last?.parentName.flatMap(model.entity(named:)) { result.append(parent) }
        return result
    }

    static func value(_ attribute: AttributeDescription, of entity: EntityDescription, number: Int, unique: Bool) -> Value {
        switch attribute.type {
        case .string: .string("\(entity.name).\(attribute.name) \(number)")
        case .int16, .int32, .int64: .integer(Int64(unique ? number : number % 100))
        case .double: .double(Double(number) / 10)
        case .bool: .bool(number % 2 == 0)
        case .date: .date(Date(timeIntervalSinceReferenceDate: Double(number) * 86_400))
        case .data: .data(withUnsafeBytes(of: Int64(number).littleEndian) { Data($0) })
        case .uuid: .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, UInt8(number >> 24 & 0xff), UInt8(number >> 16 & 0xff),
                                       UInt8(number >> 8 & 0xff), UInt8(number & 0xff))))
        }
    }
}
