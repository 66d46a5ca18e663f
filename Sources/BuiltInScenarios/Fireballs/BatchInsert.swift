import Insights
import ObjectGraph
import Scenarios

extension Scenario {
    /// Inserting with a save per object against one batch insert.
    public static let batchInsert = Scenario(
        name: "BatchInsert",
        summary: """
            Inserts max(1, round(1,000 × scale)) fireballs three ways: one at a time with a save each (a \
            transaction per object: oneAtATimeSeconds), all created in the context and saved once (one \
            transaction, an object each: saveOnceSeconds), and with one batch insert (one transaction, no \
            objects: batchSeconds). Look at saves, sqlStatements (BEGIN, INSERT, COMMIT per object against one \
            BEGIN and COMMIT for all) and the three times: most of what the batch insert saves, saving once \
            saves too.
            """,
        dataSet: .fireballs,
        writes: true,
        insights: InsightSettings(intended: [.saveInLoop: "oneAtATime saves each fireball on purpose, against one batch insert"])
    ) { run in
        let count = DataSetKind.count(1_000, scale: run.scale)
        let (oneAtATime, batch) = BatchInsertExperiment.values(count: count, seed: run.seed)
        let once = BatchInsertExperiment.saveOnceValues(count: count, seed: run.seed)
        let context = run.context()
        try run.phase("oneAtATime") { try context.perform { try BatchInsertExperiment.oneAtATime(oneAtATime, in: context) } }
        try run.phase("saveOnce") { try context.perform { try BatchInsertExperiment.saveOnce(once, in: context) } }
        let result = try run.phase("batch") { try BatchInsertExperiment.batch(batch, on: run.store) }
        try run.check(result == .count(count), "the batch insert reported \(result), not \(count)")
        run.record("inserted", Double(3 * count))
    }
}

/// The three ways of the BatchInsert scenario (``Scenario/batchInsert``),
/// also measured alone by `make bench`.
public enum BatchInsertExperiment {
    /// The values of `count` fireballs for each half, from the run's seed.
    public static func values(count: Int, seed: UInt64) -> (oneAtATime: [[String: Value]], batch: [[String: Value]]) {
        var rng = SeededGenerator(seed: seed &+ 17)
        let oneAtATime = (0..<count).map { FireballsDataSet.values(&rng, number: $0) }
        let batch = (0..<count).map { FireballsDataSet.values(&rng, number: $0) }
        return (oneAtATime, batch)
    }

    /// Inserts each fireball and saves after each (a transaction per
    /// object). Run it inside the context's `perform`.
    public static func oneAtATime(_ objects: [[String: Value]], in context: ObjectContext) throws {
        for values in objects {
            let fireball = try context.insert(entityName: "Fireball")
            for (key, value) in values { try fireball.setValue(value, forKey: key) }
            try context.save()
        }
    }

    /// The values of `count` more fireballs, for the save-once way.
    public static func saveOnceValues(count: Int, seed: UInt64) -> [[String: Value]] {
        var rng = SeededGenerator(seed: seed &+ 29)
        return (0..<count).map { FireballsDataSet.values(&rng, number: $0) }
    }

    /// Inserts every fireball into the context, then saves once (one
    /// transaction). Run it inside the context's `perform`.
    public static func saveOnce(_ objects: [[String: Value]], in context: ObjectContext) throws {
        for values in objects {
            let fireball = try context.insert(entityName: "Fireball")
            for (key, value) in values { try fireball.setValue(value, forKey: key) }
        }
        try context.save()
    }

    /// Inserts them all with one batch insert.
    public static func batch(_ objects: [[String: Value]], on store: Store) throws -> BatchResult {
        try store.execute(BatchInsertRequest(entityName: "Fireball", objects: objects, resultType: .count))
    }
}
