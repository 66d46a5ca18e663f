import Foundation
import ObjectGraph
import Scenarios

// Each attribute is kept in a typed field (`AttributeField`, at the
// attribute's index in its entity), and its property is `@inlinable`: read
// from another module (the benchmark, an application's scenarios), a typed
// read of a loaded object then inlines into the caller as a test and a
// field read (docs/engine.md, "Typed properties"). A class that overrides
// no fault hook says so (`hasFaultHooks`): its refreshes skip the calls.
public final class Person: ManagedObject, EntityNamed {
    public static let entityName = "Person"
    override public class var hasFaultHooks: Bool { false }
    @inlinable public var name: String { attribute("name", at: 0, in: &_name) }
    @usableFromInline @exclusivity(unchecked) final var _name = AttributeField<String>()
    public var selfies: [Selfie] { self[toMany: "selfies"] }
}

public final class Selfie: ManagedObject, EntityNamed {
    public static let entityName = "Selfie"
    override public class var hasFaultHooks: Bool { false }
    @inlinable public var name: String { attribute("name", at: 0, in: &_name) }
    @inlinable public var rating: Int16 {
        get { attribute("rating", at: 1, in: &_rating) }
        set { setAttribute("rating", at: 1, to: newValue, in: &_rating) }
    }
    @usableFromInline @exclusivity(unchecked) final var _name = AttributeField<String>()
    @usableFromInline @exclusivity(unchecked) final var _rating = AttributeField<Int16>()
    public var people: [Person] { self[toMany: "people"] }
    public var socialNetworks: [SocialNetwork] { self[toMany: "socialNetworks"] }
}

public final class SocialNetwork: ManagedObject, EntityNamed {
    public static let entityName = "SocialNetwork"
    @inlinable public var name: String { attribute("name", at: 0, in: &_name) }
    @usableFromInline @exclusivity(unchecked) final var _name = AttributeField<String>()
    public var selfies: [Selfie] { self[toMany: "selfies"] }

    /// How many times the fault hooks ran (the DidFault scenario reads it).
    /// Without dynamic exclusivity checks: the fault loops the benchmark
    /// measures refresh social networks, and two checked accesses per
    /// refresh were a cost no other variant pays. Scenarios run one at a
    /// time, on their context's queue.
    @exclusivity(unchecked) nonisolated(unsafe) public static var hookCalls = 0
    override public func willTurnIntoFault() { Self.hookCalls += 1 }
    override public func didTurnIntoFault() { Self.hookCalls += 1 }
}

/// The Selfies data set of "Pro iOS Persistence", chapter 9.
enum SelfiesDataSet {
    static let base = 500

    static let model: Model = try! Model([
        Entity("Person", Person.self, properties: [
            .attribute("name", .string),
            .toMany("selfies", "Selfie", inverse: "people"),
        ]),
        Entity("Selfie", Selfie.self, properties: [
            .attribute("name", .string),
            .attribute("rating", .int16, default: 1),
            .toMany("people", "Person", inverse: "selfies"),
            .toMany("socialNetworks", "SocialNetwork", inverse: "selfies"),
        ]),
        Entity("SocialNetwork", SocialNetwork.self, properties: [
            .attribute("name", .string),
            .toMany("selfies", "Selfie", inverse: "socialNetworks"),
        ]),
    ])

    /// The data, described: 500 × scale of each entity, ratings drawn
    /// from 1 to 10, every selfie related to every person and network.
    static let spec = DataSetSpec(entities: [
        .init("Person", base: base, attributes: [.init("name", .text("Person {n}"))]),
        .init("Selfie", base: base, attributes: [.init("name", .text("Selfie {n}")), .init("rating", .uniformInt(1...10))]),
        .init("SocialNetwork", base: base, attributes: [.init("name", .text("Network {n}"))]),
    ], relationships: [
        .init("Selfie", "people", .all),
        .init("Selfie", "socialNetworks", .all),
    ])
}
