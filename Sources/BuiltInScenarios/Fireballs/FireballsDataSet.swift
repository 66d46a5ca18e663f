import Foundation
import ObjectGraph
import Scenarios

public final class Fireball: ManagedObject, EntityNamed {
    public static let entityName = "Fireball"
    override public class var hasFaultHooks: Bool { false }
    @inlinable public var impactEnergy: Double { attribute("impactEnergy", at: 2, in: &_impactEnergy) }
    @usableFromInline @exclusivity(unchecked) final var _impactEnergy = AttributeField<Double>()
    public var group: FireballGroup? { self[toOne: "group"] }
}

public final class FireballGroup: ManagedObject, EntityNamed {
    public static let entityName = "FireballGroup"
    override public class var hasFaultHooks: Bool { false }
    @inlinable public var name: String { attribute("name", at: 0, in: &_name) }
    @inlinable public var fireballCount: Int64 { attribute("fireballCount", at: 1, in: &_fireballCount) ?? 0 }
    @usableFromInline @exclusivity(unchecked) final var _name = AttributeField<String>()
    @usableFromInline @exclusivity(unchecked) final var _fireballCount = AttributeField<Int64?>()
    public var fireballs: [Fireball] { self[toMany: "fireballs"] }
}

/// The Fireballs data set of the modern Core Data tutorial: fireball
/// reports in groups.
enum FireballsDataSet {
    static let base = 10_000
    static let groupBase = 100

    static let model: Model = try! Model([
        Entity("Fireball", Fireball.self, properties: [
            .attribute("timestamp", .date),
            .attribute("radiatedEnergy", .double),
            .attribute("impactEnergy", .double),
            .attribute("latitude", .double),
            .attribute("longitude", .double),
            .attribute("altitude", .double),
            .attribute("velocity", .double),
            .toOne("group", "FireballGroup", inverse: "fireballs"),
        ]),
        Entity("FireballGroup", FireballGroup.self, properties: [
            .attribute("name", .string),
            .derived("fireballCount", .int64, .count("fireballs")),
            .toMany("fireballs", "Fireball", inverse: "group"),
        ]),
    ])

    /// One more fireball's values (number from 0), as the data set makes them.
    static func values(_ rng: inout SeededGenerator, number: Int) -> [String: Value] {
        spec.entities[1].values(number: number + 1, rng: &rng)
    }

    /// The data, described: 100 × scale groups, then 10,000 × scale
    /// fireballs an hour apart with drawn energies and positions, dealt to
    /// the groups in turn.
    static let spec = DataSetSpec(entities: [
        .init("FireballGroup", base: groupBase, attributes: [.init("name", .text("Group {n}"))]),
        .init("Fireball", base: base, attributes: [
            .init("timestamp", .dates(start: Date(timeIntervalSince1970: 1_262_304_000), step: 3_600)),
            .init("radiatedEnergy", .uniformInt(1...100_000, divisor: 10)),
            .init("impactEnergy", .uniformInt(1...5_000, divisor: 100)),
            .init("latitude", .uniformInt(-900...900, divisor: 10)),
            .init("longitude", .uniformInt(-1800...1800, divisor: 10)),
            .init("altitude", .uniformInt(0...800, divisor: 10)),
            .init("velocity", .uniformInt(100...700, divisor: 10)),
        ]),
    ], relationships: [
        .init("FireballGroup", "fireballs", .roundRobin),
    ])
}
