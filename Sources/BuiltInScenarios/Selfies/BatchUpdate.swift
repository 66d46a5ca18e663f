import ObjectGraph
import Reporting
import Scenarios

extension Scenario {
    /// One object at a time against one UPDATE.
    public static let batchUpdate = Scenario(
        name: "BatchUpdate",
        summary: """
            Sets every selfie's rating to 5 in memory and saves once (the book's one-at-a-time update: a fetch, \
            one UPDATE per object in one transaction; oneAtATimeSeconds), then sets it to 7 with one batch update \
            (one UPDATE statement, no objects; batchSeconds), and verifies the store. Each iteration starts from a \
            fresh copy whose ratings differ, since SQLite writes nothing for an UPDATE that stores the same value.
            """,
        dataSet: .selfies,
        writes: true
    ) { run in
        let context = run.context()
        let total = try context.perform { () -> Int in
            try run.phase("oneAtATime") { try BatchUpdateExperiment.oneAtATime(in: context) }
        }
        let result = try run.phase("batch") { try BatchUpdateExperiment.batch(on: run.store) }
        try run.check(result == .count(total), "the batch update changed \(result), not \(total) rows")
        let check = run.context("check")
        try check.perform {
            let sevens = try check.count(for: FetchRequest<Selfie>(predicate: Key("rating") == 7))
            try run.check(sevens == total, "\(sevens) of \(total) selfies have rating 7")
        }
        run.record("selfies", Double(total))
    }
}

/// The two halves of the BatchUpdate scenario (``Scenario/batchUpdate``),
/// also measured alone by `make bench`.
public enum BatchUpdateExperiment {
    /// Fetches every selfie with its values, sets its rating to 5 and saves
    /// once; the number of selfies. Run it inside the context's `perform`.
    public static func oneAtATime(in context: ObjectContext) throws -> Int {
        let selfies = Array(try context.fetch(FetchRequest<Selfie>(returningValues: true)))
        for selfie in selfies { selfie.rating = 5 }
        try context.save()
        return selfies.count
    }

    /// Sets every selfie's rating to 7 with one batch update.
    public static func batch(on store: Store) throws -> BatchResult {
        try store.execute(BatchUpdateRequest(entityName: "Selfie", propertiesToUpdate: ["rating": .value(7)], resultType: .count))
    }
}

extension ExperimentReference {
    static let batchUpdate = ExperimentReference(
        name: "BatchUpdate: one at a time vs batch",
        lesson: "One batch update request changes every row in SQLite without loading objects: about 10x faster.",
        source: bookSource + ", BatchUpdate test: one-at-a-time update 0.07 s, batch update 0.007 s",
        sourceSetting: bookSetting,
        kind: .timing(
            baseline: Side(scenario: "BatchUpdate", phase: "oneAtATime", sourceSeconds: 0.07),
            treatment: Side(scenario: "BatchUpdate", phase: "batch", sourceSeconds: 0.007)))
}
