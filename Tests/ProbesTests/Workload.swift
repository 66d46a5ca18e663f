import Foundation
import ObjectGraph
import Probes

/// A small model and a fixed workload whose events the tests know exactly.
enum Workload {
    static let model: Model = try! Model([
        Entity("Person", properties: [
            .attribute("name", .string),
            .toMany("selfies", "Selfie", inverse: "people"),
        ]),
        Entity("Selfie", properties: [
            .attribute("name", .string),
            .attribute("rating", .int16, default: 0),
            .toMany("people", "Person", inverse: "selfies"),
            .toMany("networks", "Network", inverse: "selfies"),
        ]),
        Entity("Network", properties: [
            .attribute("name", .string),
            .toMany("selfies", "Selfie", inverse: "networks"),
        ]),
    ])

    static func storePath() -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-probes-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("store.sqlite").path
    }

    /// `people` people, `selfies` selfies and `networks` networks, every
    /// selfie related to everyone and every network, through a store with
    /// no sinks. Returns the file.
    static func populate(people: Int, selfies: Int, networks: Int) throws -> String {
        let path = storePath()
        var configuration = StoreConfiguration()
        configuration.sinks = []
        let store = try Store(model: model, location: .file(path), configuration: configuration)
        let context = ObjectContext(store: store, name: "setup")
        try context.perform {
            let persons = try (0..<people).map { number in
                let person = try context.insert(entityName: "Person")
                try person.setValue(.string("Person \(number + 1)"), forKey: "name")
                return person
            }
            let socials = try (0..<networks).map { number in
                let network = try context.insert(entityName: "Network")
                try network.setValue(.string("Network \(number + 1)"), forKey: "name")
                return network
            }
            for number in 0..<selfies {
                let selfie = try context.insert(entityName: "Selfie")
                try selfie.setValue(.string("Selfie \(number + 1)"), forKey: "name")
                try selfie.setValue(.integer(Int64(number % 10 + 1)), forKey: "rating")
                try selfie.setObjects(persons, forKey: "people")
                try selfie.setObjects(socials, forKey: "networks")
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
}

extension InMemorySink {
    /// The statements among the events received, in order.
    var statements: [SQLEvent] {
        events.compactMap { event in
            if case .sql(let e) = event { return e }
            return nil
        }
    }
}
