import Insights
import ObjectGraph
import Reporting
import Scenarios

extension Scenario {
    /// Walking relationships by hand against one SUBQUERY fetch.
    public static let subquery = Scenario(
        name: "Subquery",
        summary: """
            Finds the people in a selfie with rating < 5 OR name LIKE '*e*ie*' two ways: by hand (fetch the \
            selfies, walk their people, dedupe by object ID; manualSeconds, manualPeople) and with one fetch of \
            SUBQUERY(selfies, $x, …).@count > 0, which compiles to an EXISTS subquery (subquerySeconds, \
            subqueryPeople). The counts must be equal; compare relationshipFaultsFired and rowsRead.
            """,
        dataSet: .selfies,
        insights: InsightSettings(intended: [
            .repeatedCount: "the manual way walks the relationships on purpose, against one SUBQUERY fetch",
            .countByFetch: "the book's SUBQUERY side fetches the people and counts them, against the walk by hand",
        ])
    ) { run in
        let context = run.context()
        try context.perform {
            let manual = try run.phase("manual") { try SubqueryExperiment.byHand(in: context) }
            context.reset()
            let found = try run.phase("subquery") { try SubqueryExperiment.withSubquery(in: context) }
            try run.check(manual == found, "by hand \(manual) people, with SUBQUERY \(found)")
            run.record("manualPeople", Double(manual))
            run.record("subqueryPeople", Double(found))
        }
    }
}

/// The two halves of the Subquery scenario (``Scenario/subquery``), also
/// measured alone by `make bench`. Run them inside the context's `perform`.
public enum SubqueryExperiment {
    /// The selfies' condition, on a selfie and on the SUBQUERY's `$x`.
    static let condition = "rating < 5 OR name LIKE '*e*ie*'"
    static let subqueryCondition = "$x.rating < 5 OR $x.name LIKE '*e*ie*'"

    /// Fetches the matching selfies, walks their people and dedupes by ID:
    /// the number of people found.
    public static func byHand(in context: ObjectContext) throws -> Int {
        let selfies = try context.fetch(FetchRequest<Selfie>(predicate: try ObjectPredicate(format: condition)))
        var seen = Set<ObjectID>()
        for selfie in selfies {
            for person in selfie.people { seen.insert(person.objectID) }
        }
        return seen.count
    }

    /// One fetch of the people with a matching selfie, as a SUBQUERY.
    public static func withSubquery(in context: ObjectContext) throws -> Int {
        let predicate = try ObjectPredicate(format: "SUBQUERY(selfies, $x, \(subqueryCondition)).@count > 0")
        return try context.fetch(FetchRequest<Person>(predicate: predicate)).count
    }
}

extension ExperimentReference {
    static let subqueryVsManual = ExperimentReference(
        name: "Subquery: by hand vs SUBQUERY",
        lesson: "One fetch with a SUBQUERY predicate replaces walking the relationships by hand: about 20x faster.",
        source: bookSource + ", Subquery test: without a subquery just over 30 s, with one about 1.5 s",
        sourceSetting: bookSetting,
        kind: .timing(
            baseline: Side(scenario: "Subquery", phase: "manual", sourceSeconds: 30, sourceWords: "just over 30 s"),
            treatment: Side(scenario: "Subquery", phase: "subquery", sourceSeconds: 1.5, sourceWords: "about 1.5 s")))
}
