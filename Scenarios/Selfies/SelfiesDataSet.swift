import Foundation
import ObjectGraph
import Scenarios

public final class Person: ManagedObject, EntityNamed {
    public static let entityName = "Person"
    public var name: String { self[attribute: "name"] }
    public var selfies: [Selfie] { self[toMany: "selfies"] }
}

public final class Selfie: ManagedObject, EntityNamed {
    public static let entityName = "Selfie"
    public var name: String { self[attribute: "name"] }
    public var rating: Int16 {
        get { self[attribute: "rating"] }
        set { self[attribute: "rating"] = newValue }
    }
    public var people: [Person] { self[toMany: "people"] }
    public var socialNetworks: [SocialNetwork] { self[toMany: "socialNetworks"] }
}

public final class SocialNetwork: ManagedObject, EntityNamed {
    public static let entityName = "SocialNetwork"
    public var name: String { self[attribute: "name"] }
    public var selfies: [Selfie] { self[toMany: "selfies"] }

    /// How many times the fault hooks ran (the DidFault scenario reads it).
    nonisolated(unsafe) public static var hookCalls = 0
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

    static func expectedRows(scale: Double) -> [String: Int] {
        let n = DataSetKind.count(base, scale: scale)
        return ["Person": n, "Selfie": n, "SocialNetwork": n, "Person_selfies": n * n, "Selfie_socialNetworks": n * n]
    }

    static func build(into store: Store, scale: Double, seed: UInt64, step: (Int, Int) throws -> Void) throws {
        try store.performBatchTransaction { try insert(into: store, scale: scale, seed: seed, step: step) }
    }

    /// The rows, in the caller's transaction.
    private static func insert(into store: Store, scale: Double, seed: UInt64, step: (Int, Int) throws -> Void) throws {
        let n = DataSetKind.count(base, scale: scale)
        var rng = SeededGenerator(seed: seed)
        func ids(_ result: BatchResult) -> [ObjectID] { result.objectIDs ?? [] }
        // Three entity inserts, then each join table in chunks.
        let chunk = DataSetKind.rowsPerStep
        let chunks = (n * n + chunk - 1) / chunk
        let total = 3 + 2 * chunks
        try step(0, total)
        let people = ids(try store.execute(BatchInsertRequest(
            entityName: "Person", objects: (1...n).map { ["name": .string("Person \($0)")] }, resultType: .objectIDs)))
        try step(1, total)
        let selfies = ids(try store.execute(BatchInsertRequest(
            entityName: "Selfie",
            objects: (1...n).map { ["name": .string("Selfie \($0)"), "rating": .integer(Int64.random(in: 1...10, using: &rng))] },
            resultType: .objectIDs)))
        try step(2, total)
        let networks = ids(try store.execute(BatchInsertRequest(
            entityName: "SocialNetwork", objects: (1...n).map { ["name": .string("Network \($0)")] }, resultType: .objectIDs)))
        try step(3, total)
        for (index, (relationship, destinations)) in [("people", people), ("socialNetworks", networks)].enumerated() {
            let pairs = selfies.flatMap { selfie in destinations.map { (selfie, $0) } }
            for start in stride(from: 0, to: pairs.count, by: chunk) {
                try store.relate(Array(pairs[start..<min(start + chunk, pairs.count)]), through: relationship, of: "Selfie")
                try step(3 + index * chunks + start / chunk + 1, total)
            }
        }
    }
}
