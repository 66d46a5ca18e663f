import ObjectGraph
import Reporting

extension Scenario {
    /// The order of OR terms.
    public static let predicate = Scenario(
        name: "Predicate",
        summary: """
            Runs (name LIKE '*e*ie*') OR (rating < 5) against (rating < 5) OR (name LIKE '*e*ie*'), each 1,000 × \
            scale times (at least 10) on a reset context, through SQL and through in-memory evaluation, and checks \
            the results agree. Every name matches the LIKE, so what differs is how many rows skip it: SQLite and \
            the in-memory evaluator keep OR terms in the written order and stop at the first true one: with the \
            pattern first every row runs the pattern match and never the rating test; with the rating test \
            first, the rows rated below 5 (about 40%) skip the pattern match and the others run both. Which order \
            wins depends on how much dearer the pattern is than the comparison; the four times \
            (slowSQLSeconds, fastSQLSeconds, slowMemorySeconds, fastMemorySeconds) show it for SQLite and for \
            the in-memory evaluator.
            """,
        dataSet: .selfies,
        repeatsStatements: "each order's fetch runs 1,000 × scale times to time it, as in the book"
    ) { run in
        let slow = try ObjectPredicate(format: "(name LIKE '*e*ie*') OR (rating < 5)")
        let fast = try ObjectPredicate(format: "(rating < 5) OR (name LIKE '*e*ie*')")
        let repeats = max(10, Int((1_000 * run.scale).rounded()))
        let context = run.context()
        try context.perform {
            func sql(_ predicate: ObjectPredicate) throws -> Int {
                var matches = 0
                for _ in 0..<repeats {
                    matches = try context.fetchObjectIDs(FetchRequest<Selfie>(predicate: predicate)).count
                    context.reset()
                }
                return matches
            }
            let slowSQL = try run.phase("slowSQL") { try sql(slow) }
            let fastSQL = try run.phase("fastSQL") { try sql(fast) }
            let all = Array(try context.fetch(FetchRequest<Selfie>(returningValues: true)))
            func memory(_ predicate: ObjectPredicate) throws -> Int {
                var matches = 0
                for _ in 0..<repeats { matches = try context.filter(all, predicate).count }
                return matches
            }
            let slowMemory = try run.phase("slowMemory") { try memory(slow) }
            let fastMemory = try run.phase("fastMemory") { try memory(fast) }
            try run.check(Set([slowSQL, fastSQL, slowMemory, fastMemory]).count == 1,
                          "results differ: \(slowSQL), \(fastSQL), \(slowMemory), \(fastMemory)")
            run.record("matches", Double(fastSQL))
            run.record("repeats", Double(repeats))
        }
    }
}

extension FetchRequest {
    /// A request whose objects come back with their values.
    init(returningValues: Bool) where Object: EntityNamed {
        self.init()
        returnsObjectsAsFaults = !returningValues
    }
}

extension ExperimentReference {
    static let predicateOrder = ExperimentReference(
        name: "Predicate: slow vs fast order",
        lesson: "Putting the cheap comparison before the costly string match in an OR lets most rows skip the match: about 2.7x faster.",
        source: bookSource + ", Predicate test: slow predicate 6.3 s, fast predicate 2.3 s (1,000 fetches each)",
        sourceSetting: bookSetting,
        kind: .timing(
            baseline: Side(scenario: "Predicate", phase: "slowSQL", sourceSeconds: 6.3),
            treatment: Side(scenario: "Predicate", phase: "fastSQL", sourceSeconds: 2.3)))
}
