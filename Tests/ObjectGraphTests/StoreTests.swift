import Foundation
import Testing
@testable import ObjectGraph

@Suite struct StoreTests {
    @Test func aModelThatDiffersIsRefusedWithTheDifferences() throws {
        let path = Fixtures.storePath()
        _ = try Fixtures.store(location: .file(path))
        let changed = try Model([
            Entity("Person", properties: [.attribute("name", .string, indexed: true), .attribute("age", .int32, optional: true)]),
        ])
        let error = #expect(throws: ObjectGraphError.self) { try Store(model: changed, location: .file(path)) }
        guard case .modelMismatch(let reported, let differences) = error else {
            Issue.record("expected a model mismatch, got \(String(describing: error))")
            return
        }
        #expect(reported == path)
        #expect(differences.contains("store has \"attribute Person.age int16 optional default=nil\""))
        #expect(differences.contains("model has \"attribute Person.age int32 optional default=nil\""))
        #expect(differences.contains("store has \"entity Selfie\""))
        #expect(!differences.contains { $0.contains("Person.name") })
        // The same model opens again.
        _ = try Fixtures.store(location: .file(path))
    }

    @Test func notADatabase() throws {
        let path = Fixtures.storePath()
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: ObjectGraphError.self) { try Fixtures.store(location: .file(path)) }
        #expect(error?.description == "store \(path): not an SQLite database (SQLITE_NOTADB)")
    }

    @Test func corruptFile() throws {
        let path = Fixtures.storePath()
        do {
            let store = try Fixtures.store(location: .file(path)) { $0.walMode = false }
            try Fixtures.populate(store, people: 20, selfies: 20, networks: 5)
        }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for index in 100..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: ObjectGraphError.self) { try Fixtures.store(location: .file(path)) { $0.walMode = false } }
        #expect(error?.description.hasPrefix("store \(path): the database file is corrupt (SQLITE_CORRUPT") == true)
    }

    @Test func unreadablePath() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-dir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let error = #expect(throws: ObjectGraphError.self) { try Fixtures.store(location: .file(directory.path)) }
        #expect(error?.description.hasPrefix("store \(directory.path): cannot open the file (SQLITE_CANTOPEN") == true)
    }

    @Test func lockedByAnotherConnection() throws {
        let path = Fixtures.storePath()
        do { _ = try Fixtures.store(location: .file(path)) { $0.walMode = false } }
        var options = Connection.Options()
        options.walMode = false
        let holder = try Connection(.file(path), options: options)
        try holder.executeUntraced("BEGIN EXCLUSIVE; INSERT INTO faultline_metadata VALUES ('lock', 'held')")
        let error = #expect(throws: ObjectGraphError.self) {
            try Fixtures.store(location: .file(path)) {
                $0.walMode = false
                $0.busyTimeoutMilliseconds = 50
            }
        }
        #expect(error?.description == "store \(path): the database is locked by another connection (SQLITE_BUSY)")
        holder.rollbackIfNeeded()
        _ = try Fixtures.store(location: .file(path)) { $0.walMode = false }
    }

    @Test func aDatabaseFaultlineDidNotMakeIsRefused() throws {
        let path = Fixtures.storePath()
        try Connection(.file(path)).executeUntraced("CREATE TABLE other (x)")
        let error = #expect(throws: ObjectGraphError.self) { try Fixtures.store(location: .file(path)) }
        #expect(error?.description == "store \(path): the file is an SQLite database that Faultline did not create (no faultline_metadata table)")
    }

    @Test func invalidModels() throws {
        // A to-many without an inverse is valid (Core Data allows it): it
        // gets a join table of its own.
        let oneSided = try Model([Entity("A", properties: [.toMany("bs", "B", inverse: nil)]), Entity("B", properties: [])])
        #expect(oneSided.entity(named: "A")?.relationship(named: "bs")?.joinTable == "A_bs")
        #expect(throws: ObjectGraphError.invalidModel("A.b: destination entity C does not exist")) {
            try Model([Entity("A", properties: [.toOne("b", "C")])])
        }
        #expect(throws: ObjectGraphError.invalidModel("A.b: inverse B.a does not exist")) {
            try Model([Entity("A", properties: [.toOne("b", "B", inverse: "a")]), Entity("B", properties: [])])
        }
        #expect(throws: ObjectGraphError.invalidModel(
            "entity name \"A; DROP\" is not a plain identifier ([A-Za-z_][A-Za-z0-9_]*, no sqlite_ or faultline_ prefix)")) {
            try Model([Entity("A; DROP", properties: [])])
        }
        #expect(throws: ObjectGraphError.invalidModel("A.n: default \"x\" is not a int32")) {
            try Model([Entity("A", properties: [.attribute("n", .int32, default: "x")])])
        }
        #expect(throws: ObjectGraphError.invalidModel("A: uniqueness constraint names m, which is not an attribute")) {
            try Model([Entity("A", properties: [.attribute("n", .int32)], uniquenessConstraints: [["m"]])])
        }
    }

    @Test func modelHashCoversTypesDefaultsIndexesAndConstraints() throws {
        func hash(_ properties: [Property], unique: [[String]] = []) throws -> String {
            try Model([Entity("A", properties: properties, uniquenessConstraints: unique)]).hash
        }
        let base = try hash([.attribute("n", .int32)])
        #expect(try hash([.attribute("n", .int32)]) == base)
        #expect(try hash([.attribute("n", .int64)]) != base)
        #expect(try hash([.attribute("n", .int32, optional: true)]) != base)
        #expect(try hash([.attribute("n", .int32, default: 1)]) != base)
        #expect(try hash([.attribute("n", .int32, indexed: true)]) != base)
        #expect(try hash([.attribute("n", .int32)], unique: [["n"]]) != base)
    }

    @Test func memoryStoresWork() throws {
        let store = try Fixtures.store(location: .memory)
        try Fixtures.populate(store, people: 2, selfies: 2, networks: 1)
        let context = ObjectContext(store: store)
        try context.perform {
            let selfies = Array(try context.fetch(FetchRequest<Selfie>(sortKeys: [SortKey("name")])))
            #expect(selfies.map { $0.people.count } == [2, 2])
            selfies[0].rating = 5
            try context.save()
            context.reset()
            #expect(try context.fetch(FetchRequest<Selfie>(predicate: Key("rating") == 5)).count == 1)
        }
    }
}
