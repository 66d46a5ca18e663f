import ObjectGraph

extension Scenario {
    /// Inserting with a save per object against one batch insert.
    public static let batchInsert = Scenario(
        name: "BatchInsert",
        summary: """
            Inserts max(1, round(1,000 × scale)) fireballs one at a time with a save each (a transaction per \
            object: oneAtATimeSeconds), then as many with one batch insert (one transaction, no objects: \
            batchSeconds). Look at saves, sqlStatements (BEGIN, INSERT, COMMIT per object against one BEGIN and \
            COMMIT for all) and the two times.
            """,
        dataSet: .fireballs,
        writes: true
    ) { run in
        let count = DataSetKind.count(1_000, scale: run.scale)
        var rng = SeededGenerator(seed: run.seed &+ 17)
        let context = run.context()
        let oneAtATime = (0..<count).map { FireballsDataSet.values(&rng, number: $0) }
        let batch = (0..<count).map { FireballsDataSet.values(&rng, number: $0) }
        let ((), oneSeconds) = try run.time {
            try context.perform {
                for values in oneAtATime {
                    let fireball = try context.insert(entityName: "Fireball")
                    for (key, value) in values { try fireball.setValue(value, forKey: key) }
                    try context.save()
                }
            }
        }
        let (result, batchSeconds) = try run.time {
            try run.store.execute(BatchInsertRequest(entityName: "Fireball", objects: batch, resultType: .count))
        }
        try run.check(result == .count(count), "the batch insert reported \(result), not \(count)")
        run.record("inserted", Double(2 * count))
        run.record("oneAtATimeSeconds", oneSeconds)
        run.record("batchSeconds", batchSeconds)
    }
}
