import Probes

/// The SELECT of a fetch request: FROM and WHERE (compiled by
/// ``QueryBuilder``), ORDER BY, LIMIT and OFFSET, and the values to bind,
/// for any list of columns (snapshot columns, keys, properties) or a count.
struct SelectQuery {
    let entity: EntityDescription
    var builder: QueryBuilder
    let whereClause: String
    let orderClause: String
    let limitClause: String
    private let limitArguments: [DatabaseValue]

    init<Object>(_ request: FetchRequest<Object>, entity: EntityDescription, model: Model, applyingLimits: Bool)
        throws(ObjectGraphError)
    {
        // A typed predicate or sort with no translation fails here, at
        // the fetch, never filtering less than it says.
        if let error = request.translationError { throw error }
        guard request.fetchLimit >= 0, request.fetchOffset >= 0, request.fetchBatchSize >= 0 else {
            throw .invalidFetchRequest("fetchLimit, fetchOffset and fetchBatchSize must not be negative")
        }
        self.entity = entity
        var builder = QueryBuilder(model: model, root: entity)
        // In a table shared by a hierarchy, the entity's rows (and its
        // subentities', unless the request says not) come first.
        let family = request.includesSubentities ? entity.sql.familyCondition : entity.sql.exactCondition
        let condition = try request.predicate.map { predicate throws(ObjectGraphError) in try builder.compile(predicate) }
        switch (family, condition) {
        case (nil, nil): whereClause = ""
        case (let family?, nil): whereClause = " WHERE " + family
        case (nil, let condition?): whereClause = " WHERE " + condition
        case (let family?, let condition?): whereClause = " WHERE \(family) AND \(condition)"
        }
        let order = try builder.orderBy(request.sortKeys)
        orderClause = order.isEmpty ? "" : " ORDER BY " + order
        if applyingLimits, request.fetchLimit > 0 || request.fetchOffset > 0 {
            limitClause = " LIMIT ? OFFSET ?"
            limitArguments = [.integer(Int64(request.fetchLimit > 0 ? request.fetchLimit : -1)), .integer(Int64(request.fetchOffset))]
        } else {
            limitClause = ""
            limitArguments = []
        }
        self.builder = builder
    }

    var arguments: [DatabaseValue] { builder.arguments + limitArguments }

    /// What the query's WHERE, ORDER BY and LIMIT say, for its statements' events.
    var facts: StatementFacts {
        StatementFacts(
            entity: entity.name, filters: builder.filters, sortKeys: builder.sortKeys, hasLimit: !limitClause.isEmpty,
            hasDisjunction: builder.hasDisjunction, hasOtherConditions: builder.hasOtherConditions)
    }

    /// `SELECT <columns> FROM … WHERE … ORDER BY … [LIMIT ? OFFSET ?]`.
    func sql(columns: String) -> String {
        "SELECT \(columns) FROM \(builder.from)\(whereClause)\(orderClause)\(limitClause)"
    }

    /// How many rows the query returns, and the values to bind:
    /// `SELECT count(*) FROM … WHERE …`, or, for a query built with a limit
    /// or an offset, the count of the keys it returns under them,
    /// `SELECT count(*) FROM (SELECT t0.pk … LIMIT ? OFFSET ?)`.
    var count: (sql: String, arguments: [DatabaseValue]) {
        limitClause.isEmpty
            ? ("SELECT count(*) FROM \(builder.from)\(whereClause)", builder.arguments)
            : ("SELECT count(*) FROM (\(sql(columns: "t0.pk")))", arguments)
    }
}
