import ObjectGraph

/// The query plans of a scenario's statement shapes, asked of SQLite once
/// per shape after the measured iterations, so that no plan is read while
/// the scenario is timed (a `--sql-debug 4` run's plans, read once per
/// prepared statement while it runs, are kept as they are).
///
/// Each plan is the `EXPLAIN QUERY PLAN` of the shape's first statement
/// (its text as SQLite ran it: a shape folds `IN` lists, which SQLite
/// cannot prepare) on an empty in-memory store of the scenario's model and
/// what-if, with no sink: the same tables, indexes and SQL functions as
/// the run's store, and nothing traced or counted. SQLite plans without
/// statistics here (no `ANALYZE` is run), so the rows in the tables do not
/// change a plan.
enum StatementPlans {
    /// Each text's plan rows (``Connection/explainQueryPlan(_:)``), for the
    /// texts SQLite gave a plan of: none for BEGIN or an INSERT of values,
    /// nor for a text the model's store cannot prepare (a table the
    /// scenario made itself). Empty when the store cannot be made.
    static func plans(of texts: some Sequence<String>, model: Model, whatIf: WhatIf, persistentHistory: Bool) -> [String: [String]] {
        var configuration = StoreConfiguration()
        configuration.sinks = []
        configuration.whatIf = whatIf
        configuration.persistentHistoryTracking = persistentHistory
        guard let store = try? Store(model: model, location: .memory, configuration: configuration) else { return [:] }
        var plans: [String: [String]] = [:]
        for text in texts where plans[text] == nil {
            guard let plan = try? store.queryPlan(text), !plan.isEmpty else { continue }
            plans[text] = plan
        }
        return plans
    }
}
