// SelfiesModel, the model, and a class for each of its entities, as `perf-run model import --swift`
// generates them from the Core Data model: regenerate this file rather than edit it.

import ObjectGraph

/// The model, each entity declared with its class.
public enum SelfiesModel {
    /// The model, to open a `Store` with.
    public static let model = try! Model([
        Entity("Person", GeneratedPerson.self, properties: [
            .attribute("name", .string),
            .toMany("selfies", "Selfie", inverse: "people"),
        ]),
        Entity("Selfie", GeneratedSelfie.self, properties: [
            .attribute("name", .string),
            .attribute("rating", .int16, default: .integer(1)),
            .toMany("people", "Person", inverse: "selfies"),
            .toMany("socialNetworks", "SocialNetwork", inverse: "selfies"),
        ]),
        Entity("SocialNetwork", GeneratedSocialNetwork.self, properties: [
            .attribute("name", .string),
            .toMany("selfies", "Selfie", inverse: "socialNetworks"),
        ]),
    ])
}

/// A class of SelfiesModel: it names its entity, and the model key of each of its typed properties'
/// key paths.
public protocol SelfiesModelObject: EntityNamed, KeyPathNamed {}

extension SelfiesModelObject {
    /// A request for the objects of the class's entity and of its subentities, typed by the class
    /// it is called on (`fetchRequest()` of a class `Post` is a `FetchRequest<Post>`).
    public static func fetchRequest(predicate: ObjectPredicate? = nil, sortKeys: [SortKey] = []) -> FetchRequest<Self> {
        FetchRequest(predicate: predicate, sortKeys: sortKeys)
    }
}

/// The objects of the entity `Person`.
public final class GeneratedPerson: ManagedObject, SelfiesModelObject {
    /// The entity's name in the model.
    public class var entityName: String { "Person" }

    /// The model key of each typed property's key path (with this class as its root, inherited
    /// properties included).
    public class var keyNames: [AnyKeyPath: String] { keyNameTable }
    nonisolated(unsafe) private static let keyNameTable: [AnyKeyPath: String] = [
        \GeneratedPerson.name: "name",
        \GeneratedPerson.selfies: "selfies",
    ]

    /// No fault hook (a final class whose source overrides none): refreshes skip the calls.
    override public class var hasFaultHooks: Bool { false }

    /// `name`: string.
    @inlinable public var name: String {
        get { attribute("name", at: 0, in: &_name) }
        set { setAttribute("name", at: 0, to: newValue, in: &_name) }
    }
    @usableFromInline @exclusivity(unchecked) final var _name = AttributeField<String>()

    /// `selfies`: to-many Selfie, inverse `people`, in primary-key order.
    public var selfies: [GeneratedSelfie] { self[toMany: "selfies"] }

    /// Adds `value` to `selfies`; its inverse follows.
    public func addToSelfies(_ value: GeneratedSelfie, file: String = #fileID, line: Int = #line) {
        do {
            try addObject(value, forKey: "selfies", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).selfies of \(objectID): \(error)")
        }
    }

    /// Removes `value` from `selfies`; its inverse follows.
    public func removeFromSelfies(_ value: GeneratedSelfie, file: String = #fileID, line: Int = #line) {
        do {
            try removeObject(value, forKey: "selfies", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).selfies of \(objectID): \(error)")
        }
    }
}

/// The objects of the entity `Selfie`.
public final class GeneratedSelfie: ManagedObject, SelfiesModelObject {
    /// The entity's name in the model.
    public class var entityName: String { "Selfie" }

    /// The model key of each typed property's key path (with this class as its root, inherited
    /// properties included).
    public class var keyNames: [AnyKeyPath: String] { keyNameTable }
    nonisolated(unsafe) private static let keyNameTable: [AnyKeyPath: String] = [
        \GeneratedSelfie.name: "name",
        \GeneratedSelfie.rating: "rating",
        \GeneratedSelfie.people: "people",
        \GeneratedSelfie.socialNetworks: "socialNetworks",
    ]

    /// No fault hook (a final class whose source overrides none): refreshes skip the calls.
    override public class var hasFaultHooks: Bool { false }

    /// `name`: string.
    @inlinable public var name: String {
        get { attribute("name", at: 0, in: &_name) }
        set { setAttribute("name", at: 0, to: newValue, in: &_name) }
    }
    @usableFromInline @exclusivity(unchecked) final var _name = AttributeField<String>()

    /// `rating`: int16.
    @inlinable public var rating: Int16 {
        get { attribute("rating", at: 1, in: &_rating) }
        set { setAttribute("rating", at: 1, to: newValue, in: &_rating) }
    }
    @usableFromInline @exclusivity(unchecked) final var _rating = AttributeField<Int16>()

    /// `people`: to-many Person, inverse `selfies`, in primary-key order.
    public var people: [GeneratedPerson] { self[toMany: "people"] }

    /// Adds `value` to `people`; its inverse follows.
    public func addToPeople(_ value: GeneratedPerson, file: String = #fileID, line: Int = #line) {
        do {
            try addObject(value, forKey: "people", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).people of \(objectID): \(error)")
        }
    }

    /// Removes `value` from `people`; its inverse follows.
    public func removeFromPeople(_ value: GeneratedPerson, file: String = #fileID, line: Int = #line) {
        do {
            try removeObject(value, forKey: "people", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).people of \(objectID): \(error)")
        }
    }

    /// `socialNetworks`: to-many SocialNetwork, inverse `selfies`, in primary-key order.
    public var socialNetworks: [GeneratedSocialNetwork] { self[toMany: "socialNetworks"] }

    /// Adds `value` to `socialNetworks`; its inverse follows.
    public func addToSocialNetworks(_ value: GeneratedSocialNetwork, file: String = #fileID, line: Int = #line) {
        do {
            try addObject(value, forKey: "socialNetworks", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).socialNetworks of \(objectID): \(error)")
        }
    }

    /// Removes `value` from `socialNetworks`; its inverse follows.
    public func removeFromSocialNetworks(_ value: GeneratedSocialNetwork, file: String = #fileID, line: Int = #line) {
        do {
            try removeObject(value, forKey: "socialNetworks", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).socialNetworks of \(objectID): \(error)")
        }
    }
}

/// The objects of the entity `SocialNetwork`.
public final class GeneratedSocialNetwork: ManagedObject, SelfiesModelObject {
    /// The entity's name in the model.
    public class var entityName: String { "SocialNetwork" }

    /// The model key of each typed property's key path (with this class as its root, inherited
    /// properties included).
    public class var keyNames: [AnyKeyPath: String] { keyNameTable }
    nonisolated(unsafe) private static let keyNameTable: [AnyKeyPath: String] = [
        \GeneratedSocialNetwork.name: "name",
        \GeneratedSocialNetwork.selfies: "selfies",
    ]

    /// No fault hook (a final class whose source overrides none): refreshes skip the calls.
    override public class var hasFaultHooks: Bool { false }

    /// `name`: string.
    @inlinable public var name: String {
        get { attribute("name", at: 0, in: &_name) }
        set { setAttribute("name", at: 0, to: newValue, in: &_name) }
    }
    @usableFromInline @exclusivity(unchecked) final var _name = AttributeField<String>()

    /// `selfies`: to-many Selfie, inverse `socialNetworks`, in primary-key order.
    public var selfies: [GeneratedSelfie] { self[toMany: "selfies"] }

    /// Adds `value` to `selfies`; its inverse follows.
    public func addToSelfies(_ value: GeneratedSelfie, file: String = #fileID, line: Int = #line) {
        do {
            try addObject(value, forKey: "selfies", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).selfies of \(objectID): \(error)")
        }
    }

    /// Removes `value` from `selfies`; its inverse follows.
    public func removeFromSelfies(_ value: GeneratedSelfie, file: String = #fileID, line: Int = #line) {
        do {
            try removeObject(value, forKey: "selfies", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).selfies of \(objectID): \(error)")
        }
    }
}
