import Probes

/// What a fetch request runs, without running it: for `perf-run explain`
/// and for people reading their queries.
extension Store {
    /// The SELECT a fetch of objects runs, and the values it binds.
    public func sql<Object>(for request: FetchRequest<Object>) throws(ObjectGraphError) -> (sql: String, arguments: [DatabaseValue]) {
        let entity = try model.entity(request.entityName)
        let query = try SelectQuery(request, entity: entity, model: model, applyingLimits: true)
        return (query.sql(columns: entity.sql.snapshotColumns), query.arguments)
    }

    /// SQLite's `EXPLAIN QUERY PLAN` for a statement, one row per step,
    /// indented by depth. Not reported as one of the application's statements.
    public func queryPlan(_ sql: String) throws(ObjectGraphError) -> [String] {
        try storeRead("explain", at: CallSite(noSiteBecause: .storeWork)) { connection, _ in connection.explainQueryPlan(sql) }
    }
}
