import Foundation
import ObjectGraph
import Scenarios

public final class Fireball: ManagedObject, EntityNamed {
    public static let entityName = "Fireball"
    public var impactEnergy: Double { self[attribute: "impactEnergy"] }
    public var group: FireballGroup? { self[toOne: "group"] }
}

public final class FireballGroup: ManagedObject, EntityNamed {
    public static let entityName = "FireballGroup"
    public var name: String { self[attribute: "name"] }
    public var fireballCount: Int64 { self[attribute: "fireballCount"] ?? 0 }
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

    static func expectedRows(scale: Double) -> [String: Int] {
        ["Fireball": DataSetKind.count(base, scale: scale), "FireballGroup": DataSetKind.count(groupBase, scale: scale)]
    }

    /// One fireball's values from the generator.
    static func values(_ rng: inout SeededGenerator, number: Int) -> [String: Value] {
        [
            "timestamp": .date(Date(timeIntervalSince1970: 1_262_304_000 + Double(number) * 3_600)),
            "radiatedEnergy": .double(Double(Int.random(in: 1...100_000, using: &rng)) / 10),
            "impactEnergy": .double(Double(Int.random(in: 1...5_000, using: &rng)) / 100),
            "latitude": .double(Double(Int.random(in: -900...900, using: &rng)) / 10),
            "longitude": .double(Double(Int.random(in: -1800...1800, using: &rng)) / 10),
            "altitude": .double(Double(Int.random(in: 0...800, using: &rng)) / 10),
            "velocity": .double(Double(Int.random(in: 100...700, using: &rng)) / 10),
        ]
    }

    static func build(into store: Store, scale: Double, seed: UInt64, step: (Int, Int) throws -> Void) throws {
        try store.performBatchTransaction { try insert(into: store, scale: scale, seed: seed, step: step) }
    }

    /// The rows, in the caller's transaction.
    private static func insert(into store: Store, scale: Double, seed: UInt64, step: (Int, Int) throws -> Void) throws {
        let count = DataSetKind.count(base, scale: scale)
        let groups = DataSetKind.count(groupBase, scale: scale)
        var rng = SeededGenerator(seed: seed)
        try step(0, 3)
        let groupIDs = try store.execute(BatchInsertRequest(
            entityName: "FireballGroup", objects: (1...groups).map { ["name": .string("Group \($0)")] }, resultType: .objectIDs)).objectIDs ?? []
        try step(1, 3)
        let fireballs = try store.execute(BatchInsertRequest(
            entityName: "Fireball", objects: (0..<count).map { values(&rng, number: $0) }, resultType: .objectIDs)).objectIDs ?? []
        try step(2, 3)
        try store.relate(fireballs.enumerated().map { (groupIDs[$0.offset % groupIDs.count], $0.element) }, through: "fireballs", of: "FireballGroup")
        try step(3, 3)
    }
}
