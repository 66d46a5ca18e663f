import Foundation
import Probes
import Testing
@testable import ObjectGraph

/// `ANY toMany == object` and `ANY toMany IN {objects}` read the join
/// table's rows for those objects through its index, instead of an EXISTS
/// per owner row: no full scan, and SQLite's plan says so. `toMany CONTAINS
/// object` is the same test, compiled to the same SQL.
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

    /// `CONTAINS` with an object on a to-many key path compiles to exactly
    /// what `ANY … == object` does: the join table's membership subquery for
    /// a many-to-many (searched by either column), the destination by key
    /// for a one-to-many, and through to-one steps.
    @Test func containsCompilesToTheMembershipForm() throws {
        let store = try Fixtures.store()
        let (acme, ada) = try PredicateTable.populate(store)
        let context = ObjectContext(store: store)
        let selfie = try context.perform {
            try context.fetchObjectIDs(FetchRequest<ManagedObject>(entityName: "Selfie", predicate: try ObjectPredicate(format: "name == 'Selfie 2'")))[0]
        }
        let cases: [(entity: String, contains: String, any: String, argument: ObjectID, form: String)] = [
            ("Selfie", "people CONTAINS %@", "ANY people == %@", ada,
             "t0.pk IN (SELECT s1_j.destination FROM \"Person_selfies\" s1_j WHERE s1_j.source = ?)"),
            ("Person", "selfies CONTAINS %@", "ANY selfies == %@", selfie,
             "t0.pk IN (SELECT s1_j.source FROM \"Person_selfies\" s1_j WHERE s1_j.destination = ?)"),
            ("Company", "employees CONTAINS %@", "ANY employees == %@", ada,
             "EXISTS (SELECT 1 FROM \"Person\" s1_0 WHERE s1_0.\"company_pk\" = t0.pk AND s1_0.pk = ?)"),
            ("Person", "company.employees CONTAINS %@", "ANY company.employees == %@", ada,
             "EXISTS (SELECT 1 FROM \"Person\" s1_0 WHERE s1_0.\"company_pk\" = t1.pk AND s1_0.pk = ?)"),
            ("Selfie", "NOT (people CONTAINS %@)", "NOT (ANY people == %@)", ada,
             "(t0.pk IN (SELECT s1_j.destination FROM \"Person_selfies\" s1_j WHERE s1_j.source = ?) IS NOT 1)"),
        ]
        for row in cases {
            let entity = try store.model.entity(row.entity)
            var contains = QueryBuilder(model: store.model, root: entity)
            var any = QueryBuilder(model: store.model, root: entity)
            let sql = try contains.compile(try ObjectPredicate(format: row.contains, arguments: [row.argument]))
            #expect(sql == row.form, "\(row.contains)")
            #expect(sql == (try any.compile(try ObjectPredicate(format: row.any, arguments: [row.argument]))), "\(row.contains)")
            #expect(contains.arguments == [.integer(row.argument.primaryKey)] && contains.arguments == any.arguments, "\(row.contains)")
            #expect(contains.from == any.from, "\(row.contains)")
        }
        // A SUBQUERY's variable, and the Swift builder.
        var builder = QueryBuilder(model: store.model, root: try store.model.entity("Company"))
        #expect(try builder.compile(try ObjectPredicate(format: "SUBQUERY(employees, $e, $e.selfies CONTAINS %@).@count > 0", selfie))
            == "EXISTS (SELECT 1 FROM \"Person\" s1_0 WHERE s1_0.\"company_pk\" = t0.pk AND "
            + "s1_0.pk IN (SELECT s1_s1_j.source FROM \"Person_selfies\" s1_s1_j WHERE s1_s1_j.destination = ?))")
        #expect(Key("people").contains(ada) == (try ObjectPredicate(format: "people CONTAINS %@", ada)))
        #expect(Key("people").contains(ada).description == "people CONTAINS \(ada)")
        _ = acme
    }

    /// Every person and every selfie as the argument: `CONTAINS` finds what
    /// `ANY … ==` finds, through SQL and in memory.
    @Test func containsMatchesTheAnyFormAndMemory() throws {
        let store = try Fixtures.store()
        _ = try PredicateTable.populate(store)
        let context = ObjectContext(store: store)
        try context.perform {
            let people = try context.fetchObjectIDs(FetchRequest<ManagedObject>(entityName: "Person"))
            let selfies = try context.fetchObjectIDs(FetchRequest<ManagedObject>(entityName: "Selfie"))
            let cases: [(entity: String, path: String, arguments: [ObjectID])] = [
                ("Selfie", "people", people), ("Person", "selfies", selfies), ("Company", "employees", people),
                ("Person", "company.employees", people), ("SocialNetwork", "selfies", selfies),
            ]
            var nonEmpty = 0
            for row in cases {
                let all = Array(try context.fetch(FetchRequest<ManagedObject>(entityName: row.entity)))
                for argument in row.arguments {
                    for (contains, any) in [
                        ("\(row.path) CONTAINS %@", "ANY \(row.path) == %@"), ("NOT \(row.path) CONTAINS %@", "NOT ANY \(row.path) == %@"),
                    ] {
                        let predicate = try ObjectPredicate(format: contains, argument)
                        let fetched = try context.fetchObjectIDs(FetchRequest<ManagedObject>(entityName: row.entity, predicate: predicate))
                        let expected = try context.fetchObjectIDs(
                            FetchRequest<ManagedObject>(entityName: row.entity, predicate: try ObjectPredicate(format: any, argument)))
                        let memory = try context.filter(all, predicate).map(\.objectID)
                        #expect(fetched == expected, "\(row.entity) \(contains) \(argument)")
                        #expect(Set(fetched) == Set(memory), "\(row.entity) \(contains) \(argument): SQL \(fetched), in memory \(memory)")
                        if !fetched.isEmpty, !contains.hasPrefix("NOT") { nonEmpty += 1 }
                    }
                }
            }
            #expect(nonEmpty > 10)
        }
    }

    /// `explain`: the fetch's plan searches the join table by its key and
    /// the owners by primary key, and never scans the destination's table.
    @Test func containsPlansHaveNoScanOfTheDestination() throws {
        let recorder = Recorder()
        let store = try Fixtures.store { $0.sinks = [recorder] }
        let (_, ada) = try PredicateTable.populate(store)
        let context = ObjectContext(store: store)
        let selfie = try context.perform {
            try context.fetchObjectIDs(FetchRequest<ManagedObject>(entityName: "Selfie", predicate: try ObjectPredicate(format: "name == 'Selfie 2'")))[0]
        }
        for (entity, format, argument, joinTable) in [
            ("Selfie", "people CONTAINS %@", ada, true), ("Person", "selfies CONTAINS %@", selfie, true),
            ("Company", "employees CONTAINS %@", ada, false),
        ] {
            let request = FetchRequest<ManagedObject>(entityName: entity, predicate: try ObjectPredicate(format: format, argument))
            let (sql, _) = try store.sql(for: request)
            let plan = try store.queryPlan(sql).map { $0.trimmingCharacters(in: .whitespaces) }
            // The destination's table is aliased s1_0; the join table s1_j.
            #expect(!plan.contains { $0.hasPrefix("SCAN s1_") }, "\(format): \(plan)")
            #expect(plan.contains { $0.hasPrefix(joinTable ? "SEARCH s1_j USING" : "SEARCH s1_0 USING") }, "\(format): \(plan)")
            if joinTable {
                #expect(plan.allSatisfy { !$0.hasPrefix("SCAN") }, "\(format): \(plan)")
                recorder.reset()
                _ = try context.perform { try context.fetch(request) }
                let fetch = try #require(recorder.snapshot().statements.first { $0.shape.hasPrefix("SELECT") })
                #expect(fetch.fullScanSteps == 0, "\(format): \(fetch.fullScanSteps) full-scan steps")
            }
        }
    }

    /// Only one object of the destination's entity fits on the right of a
    /// to-many `CONTAINS`; anything else is an error that says so.
    @Test func containsOnAToManyNeedsOneObjectOfItsDestination() throws {
        let store = try Fixtures.store()
        let (acme, ada) = try PredicateTable.populate(store)
        func compile(_ format: String, _ arguments: any PredicateArgument...) throws -> String {
            var builder = QueryBuilder(model: store.model, root: try store.model.entity("Selfie"))
            return try builder.compile(try ObjectPredicate(format: format, arguments: arguments))
        }
        #expect(throws: ObjectGraphError.invalidPredicate("people CONTAINS takes one Person object; for any of several, write ANY people IN {…}")) {
            try compile("people CONTAINS %@", [ada])
        }
        #expect(throws: ObjectGraphError.typeMismatch(entity: "Selfie", key: "people", expected: "Person object for CONTAINS", got: "\"Ada\"")) {
            try compile("people CONTAINS 'Ada'")
        }
        #expect(throws: ObjectGraphError.typeMismatch(entity: "Selfie", key: "people", expected: "Person object", got: "Company object")) {
            try compile("people CONTAINS %@", acme)
        }
        #expect(throws: ObjectGraphError.invalidPredicate("people CONTAINS[c]: [c] and [d] apply to strings, not to objects")) {
            try compile("people CONTAINS[c] %@", ada)
        }
        #expect(throws: ObjectGraphError.invalidPredicate("variable $who has no value")) { try compile("people CONTAINS $who") }
        // A string attribute keeps its substring test.
        #expect(try compile("name CONTAINS 'ie'") == "t0.\"name\" GLOB ?")
    }
}
