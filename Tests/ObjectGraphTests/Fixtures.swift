import Foundation
import Synchronization
@testable import ObjectGraph

final class Person: ManagedObject, EntityNamed {
    static let entityName = "Person"
    var name: String {
        get { self[attribute: "name"] }
        set { self[attribute: "name"] = newValue }
    }
    var age: Int16? {
        get { self[attribute: "age"] }
        set { self[attribute: "age"] = newValue }
    }
    var selfies: [Selfie] {
        get { self[toMany: "selfies"] }
        set { self[toMany: "selfies"] = newValue }
    }
    var company: Company? {
        get { self[toOne: "company"] }
        set { self[toOne: "company"] = newValue }
    }
    var passport: Passport? {
        get { self[toOne: "passport"] }
        set { self[toOne: "passport"] = newValue }
    }

    nonisolated(unsafe) static var faultHooks: [String] = []
    override func willTurnIntoFault() { Self.faultHooks.append("will \(objectID) fault=\(isFault)") }
    override func didTurnIntoFault() { Self.faultHooks.append("did \(objectID) fault=\(isFault)") }
}

final class Selfie: ManagedObject, EntityNamed {
    static let entityName = "Selfie"
    var name: String {
        get { self[attribute: "name"] }
        set { self[attribute: "name"] = newValue }
    }
    var rating: Int16 {
        get { self[attribute: "rating"] }
        set { self[attribute: "rating"] = newValue }
    }
    var people: [Person] {
        get { self[toMany: "people"] }
        set { self[toMany: "people"] = newValue }
    }
    var socialNetworks: [SocialNetwork] { self[toMany: "socialNetworks"] }
}

final class SocialNetwork: ManagedObject, EntityNamed {
    static let entityName = "SocialNetwork"
    var name: String {
        get { self[attribute: "name"] }
        set { self[attribute: "name"] = newValue }
    }
    var selfies: [Selfie] { self[toMany: "selfies"] }
}

final class Company: ManagedObject, EntityNamed {
    static let entityName = "Company"
    var name: String {
        get { self[attribute: "name"] }
        set { self[attribute: "name"] = newValue }
    }
    var employees: [Person] { self[toMany: "employees"] }
}

final class Passport: ManagedObject, EntityNamed {
    static let entityName = "Passport"
    var number: String {
        get { self[attribute: "number"] }
        set { self[attribute: "number"] = newValue }
    }
    var holder: Person? {
        get { self[toOne: "holder"] }
        set { self[toOne: "holder"] = newValue }
    }
}

/// Every attribute type, for round trips.
final class Sample: ManagedObject, EntityNamed {
    static let entityName = "Sample"
}

enum Fixtures {
    static let model: Model = try! Model([
        Entity("Person", Person.self, properties: [
            .attribute("name", .string, indexed: true),
            .attribute("age", .int16, optional: true),
            .toMany("selfies", "Selfie", inverse: "people"),
            .toOne("company", "Company", inverse: "employees"),
            .toOne("passport", "Passport", inverse: "holder", deleteRule: .cascade),
        ]),
        Entity("Selfie", Selfie.self, properties: [
            .attribute("name", .string),
            .attribute("rating", .int16, default: 0, indexed: true),
            .toMany("people", "Person", inverse: "selfies"),
            .toMany("socialNetworks", "SocialNetwork", inverse: "selfies"),
        ], uniquenessConstraints: [["name"]]),
        Entity("SocialNetwork", SocialNetwork.self, properties: [
            .attribute("name", .string),
            .toMany("selfies", "Selfie", inverse: "socialNetworks"),
        ]),
        Entity("Company", Company.self, properties: [
            .attribute("name", .string),
            .toMany("employees", "Person", inverse: "company", deleteRule: .deny),
        ]),
        Entity("Passport", Passport.self, properties: [
            .attribute("number", .string),
            .toOne("holder", "Person", inverse: "passport"),
        ]),
        Entity("Sample", Sample.self, properties: [
            .attribute("i16", .int16, optional: true),
            .attribute("i32", .int32, optional: true),
            .attribute("i64", .int64, optional: true),
            .attribute("double", .double, optional: true),
            .attribute("bool", .bool, optional: true),
            .attribute("string", .string, optional: true),
            .attribute("date", .date, optional: true),
            .attribute("data", .data, optional: true),
            .attribute("uuid", .uuid, optional: true),
        ]),
    ])

    /// A fresh store file in its own temporary directory.
    static func storePath() -> String {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("faultline-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("store.sqlite").path
    }

    /// A store on a new file, with a statement log.
    static func store(
        log: StatementLog? = nil, location: Connection.Location? = nil, configure: (inout StoreConfiguration) -> Void = { _ in }
    ) throws -> Store {
        var configuration = StoreConfiguration()
        if let log { configuration.statementHook = log.hook }
        configure(&configuration)
        return try Store(model: model, location: location ?? .file(storePath()), configuration: configuration)
    }

    /// A file store with the populated data set, a statement log that
    /// starts empty, and a context named "main".
    static func populatedStore(people: Int = 3, selfies: Int = 4, networks: Int = 2) throws -> (Store, ObjectContext, StatementLog) {
        let log = StatementLog()
        let store = try Self.store(log: log)
        try populate(store, people: people, selfies: selfies, networks: networks)
        log.clear()
        return (store, ObjectContext(store: store, name: "main"), log)
    }

    /// Saves `people` people, `selfies` selfies and `networks` social
    /// networks, every selfie related to every person and network, names
    /// "Person 1", "Selfie 1", "Network 1"…, selfie ratings 1, 2, 3….
    static func populate(_ store: Store, people: Int = 3, selfies: Int = 4, networks: Int = 2) throws {
        let context = ObjectContext(store: store, name: "populate")
        try context.perform {
            let persons = try (1...max(1, people)).prefix(people).map { number in
                let person = try context.insert(Person.self)
                person.name = "Person \(number)"
                return person
            }
            let socials = try (1...max(1, networks)).prefix(networks).map { number in
                let network = try context.insert(SocialNetwork.self)
                network.name = "Network \(number)"
                return network
            }
            for number in (1...max(1, selfies)).prefix(selfies) {
                let selfie = try context.insert(Selfie.self)
                selfie.name = "Selfie \(number)"
                selfie.rating = Int16(number)
                selfie.people = persons
                try selfie.setObjects(socials, forKey: "socialNetworks")
            }
            try context.save()
        }
    }
}

/// Captures the statements a store executes.
final class StatementLog: Sendable {
    struct Entry: Sendable {
        let sql: String
        let arguments: [DatabaseValue]
        let rowsReturned: Int
        let rowsChanged: Int
        let fullScanSteps: Int
        let vmSteps: Int
    }

    private let entries = Mutex<[Entry]>([])

    var hook: @Sendable (ExecutedStatement) -> Void {
        { [self] executed in
            let entry = Entry(
                sql: executed.sql, arguments: executed.arguments, rowsReturned: executed.rowsReturned,
                rowsChanged: executed.rowsChanged, fullScanSteps: executed.fullScanSteps, vmSteps: executed.vmSteps)
            entries.withLock { $0.append(entry) }
        }
    }

    /// Every entry since the last `take`, and forgets them.
    func take() -> [Entry] {
        entries.withLock { entries in
            defer { entries.removeAll() }
            return entries
        }
    }

    /// The SQL since the last `take`, and forgets it.
    func takeSQL() -> [String] { take().map(\.sql) }

    func clear() { _ = take() }
}

/// Every row of every table, for comparing a store before and after.
func dumpTables(_ path: String) throws -> [String: [[DatabaseValue]]] {
    let connection = try Connection(.file(path))
    var tables: [String] = []
    try connection.query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") { tables.append($0.string(0)) }
    var dump: [String: [[DatabaseValue]]] = [:]
    for table in tables {
        var rows: [[DatabaseValue]] = []
        try connection.query("SELECT * FROM \"\(table)\" ORDER BY 1, 2") { row in
            rows.append((0..<row.count).map { row.value($0) })
        }
        dump[table] = rows
    }
    return dump
}
