import Foundation
import Probes
import Testing
@testable import ObjectGraph

/// `ANY toMany == object` and `ANY toMany IN {objects}` read the join
/// table's rows for those objects through its index, instead of an EXISTS
/// per owner row: no full scan, and SQLite's plan says so.
@Suite struct JoinTableMembershipTests {
    @Test func membershipReadsTheJoinTableThroughItsIndex() throws {
        let recorder = Recorder()
        let store = try Fixtures.store { $0.sinks = [recorder] }
        let (_, ada) = try PredicateTable.populate(store)
        let context = ObjectContext(store: store)
        for format in ["ANY people == %@", "NONE people == %@"] {
            recorder.reset()
            let predicate = try ObjectPredicate(format: format, arguments: [ada])
            _ = try context.perform { try context.fetch(FetchRequest<ManagedObject>(entityName: "Selfie", predicate: predicate)) }
            let fetch = try #require(recorder.snapshot().statements.first { $0.shape.hasPrefix("SELECT") }, "\(recorder.snapshot().statements.map(\.shape))")
            #expect(fetch.shape.contains("IN (SELECT s1_j.destination FROM \"Person_selfies\" s1_j WHERE s1_j.source = ?)"), "\(fetch.shape)")
            if format.hasPrefix("ANY") { #expect(fetch.fullScanSteps == 0, "\(format): \(fetch.fullScanSteps) full-scan steps") }
        }
        // The plan: the join table is searched by its key, the selfies by
        // their primary key.
        var builder = QueryBuilder(model: store.model, root: try store.model.entity("Selfie"))
        let condition = try builder.compile(try ObjectPredicate(format: "ANY people == %@", arguments: [ada]))
        let connection = try Connection(.file(store.path))
        var plan: [String] = []
        try connection.query("EXPLAIN QUERY PLAN SELECT t0.pk FROM \"Selfie\" t0 WHERE \(condition)", builder.arguments) { row in
            plan.append(row.string(3))
        }
        #expect(plan.allSatisfy { !$0.hasPrefix("SCAN") }, "\(plan)")
        #expect(plan.contains { $0.hasPrefix("SEARCH s1_j USING") }, "\(plan)")
    }
}
