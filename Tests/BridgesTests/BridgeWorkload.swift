import Foundation
import ObjectGraph
import Probes

/// A small store and a fixed workload whose events the tests know exactly,
/// run through the sinks under test and a recorder (the reference).
enum BridgeWorkload {
    static let model: Model = try! Model([
        Entity("Person", properties: [
            .attribute("name", .string),
            .toMany("selfies", "Selfie", inverse: "people"),
        ]),
        Entity("Selfie", properties: [
            .attribute("name", .string),
            .attribute("rating", .int16, default: 0),
            .toMany("people", "Person", inverse: "selfies"),
        ]),
    ])

    /// Two people and three selfies, every selfie related to both, written
    /// through a store with no sinks. Returns the file.
    static func populate() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-bridges-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("store.sqlite").path
        var configuration = StoreConfiguration()
        configuration.sinks = []
        let store = try Store(model: model, location: .file(path), configuration: configuration)
        let context = ObjectContext(store: store, name: "setup")
        try context.perform {
            let people = try (1...2).map { number in
                let person = try context.insert(entityName: "Person")
                try person.setValue(.string("Person \(number)"), forKey: "name")
                return person
            }
            for number in 1...3 {
                let selfie = try context.insert(entityName: "Selfie")
                try selfie.setValue(.string("Selfie \(number)"), forKey: "name")
                try selfie.setValue(.integer(Int64(number)), forKey: "rating")
                try selfie.setObjects(people, forKey: "people")
            }
            try context.save()
        }
        return path
    }

    /// Opens the file with the given sinks.
    static func store(_ path: String, sinks: [any EventSink]) throws -> Store {
        var configuration = StoreConfiguration()
        configuration.sinks = sinks
        return try Store(model: model, location: .file(path), configuration: configuration)
    }

    /// In one `perform` of a context named `main`: a fetch of the 3
    /// selfies, a read of each (3 row-cache hits), a relationship fault
    /// (from the database), a read of both people (2 faults from the
    /// database), another relationship fault, a change and a save, and a
    /// count of the people. Then, outside any context, a batch update of
    /// every selfie's rating.
    static func run(_ store: Store) throws {
        let context = ObjectContext(store: store, name: "main")
        try context.perform { try body(context) }
        try batch(store)
    }

    /// The same from async code: `try await context.perform`.
    static func runAsync(_ store: Store) async throws {
        let context = ObjectContext(store: store, name: "main")
        try await context.perform { try body(context) }
        try batch(store)
    }

    private static func body(_ context: ObjectContext) throws {
        let selfies = Array(try context.fetch(FetchRequest<ManagedObject>(entityName: "Selfie")))
        for selfie in selfies { _ = try selfie.value(forKey: "name") }
        let people = try selfies[0].objects(forKey: "people")
        for person in people { _ = try person.value(forKey: "name") }
        _ = try selfies[1].objects(forKey: "people")
        try selfies[0].setValue(.integer(9), forKey: "rating")
        try context.save()
        _ = try context.count(for: FetchRequest<ManagedObject>(entityName: "Person"))
    }

    private static func batch(_ store: Store) throws {
        try store.execute(BatchUpdateRequest(entityName: "Selfie", propertiesToUpdate: ["rating": .value(.integer(1))], resultType: .count))
    }
}
