@_spi(FastPath) import Probes

/// Turns executed statements into SQL events: the shape is computed once
/// per prepared statement (kept with the statement), bound
/// values are rendered only when a sink wants them, and the query plan is
/// read once per statement when a sink wants plans.
final class StatementInfo {
    let shape: String
    let shapeID: Int
    let textID: Int
    /// Whether the statement's text is its shape's (values bound, none in
    /// the text): a sink that names shapes then need not repeat the text.
    let sqlIsShape: Bool
    /// Touched only from its statement's connection.
    @exclusivity(unchecked) var planRecorded = false

    init(sql: String) {
        (shape, shapeID) = SQLShape.intern(sql)
        textID = SQLShape.internText(sql)
        sqlIsShape = sql == shape
    }
}

extension Instrumentation {
    /// The hook to install on one connection: the user's hook and the SQL
    /// event, with the purpose and call site `origin` holds for that
    /// connection. nil when neither is wanted, so statements are not even
    /// timed.
    func statementHook(user: (@Sendable (ExecutedStatement) -> Void)?, origin: StatementOrigin) -> StatementHook? {
        #if FAULTLINE_NO_INSTRUMENTATION
        let instrumented = false
        #else
        let instrumented = sink != nil
        #endif
        guard instrumented || user != nil else { return nil }
        return { [self] executed in
            user?(executed)
            // The sink called through the optional (as faults are): bound
            // to a local it was retained and released per statement.
            guard isOn(.sql) else { return }
            let statement = executed.statement
            let info: StatementInfo
            if let existing = statement.instrumentationInfo {
                info = existing
            } else {
                info = StatementInfo(sql: statement.sql)
                statement.instrumentationInfo = info
            }
            let details = self.details
            let plan: [String]? = details.contains(.queryPlans) && !info.planRecorded ? Self.plan(statement, info) : nil
            let withArguments = details.contains(.sqlArguments) && !executed.arguments.isEmpty
            // The figures first; the event itself only for a sink that needs
            // it whole (the recorder adds up most statements from these).
            let parts = StatementParts(
                shapeID: info.shapeID, textID: info.textID, durationNanoseconds: executed.durationNanoseconds,
                rowsReturned: executed.rowsReturned, rowsChanged: executed.rowsChanged, fullScanSteps: executed.fullScanSteps,
                sorts: executed.sorts, autoIndexes: executed.autoIndexes, vmSteps: executed.vmSteps,
                isTransaction: origin.isTransaction, hasDetails: plan != nil || withArguments, callSite: origin.callSite,
                isEngineWork: origin.isEngineWork)
            guard lendsStatementTexts else {
                // Texts made only if the sink asks (the recorder seldom does).
                sink?.receiveStatement(parts, texts: {
                    StatementTexts(
                        sql: statement.sql, shape: info.shape,
                        arguments: withArguments ? RenderedArguments(values: executed.arguments).renderedText : "",
                        purpose: origin.purpose, queryPlan: plan, callSite: origin.callSite)
                }) {
                    Self.event(executed, info, withArguments: withArguments, plan: plan, origin: origin)
                }
                return
            }
            // The texts are lent, not copied; bound values are rendered only
            // when read, and a lone integer (a key lookup's) not at all.
            sink?.receiveStatement(
                parts, sql: statement.sql, shape: info.shape, sqlIsShape: info.sqlIsShape,
                arguments: withArguments ? Self.arguments(executed.arguments) : .none, purpose: origin.purpose,
                queryPlan: plan, callSite: origin.callSite
            ) {
                Self.event(executed, info, withArguments: withArguments, plan: plan, origin: origin)
            }
        }
    }

    /// The statement's query plan, read once per prepared statement.
    private static func plan(_ statement: Statement, _ info: StatementInfo) -> [String]? {
        info.planRecorded = true
        return statement.connection.explainQueryPlan(statement.sql)
    }

    /// The whole event, for a sink that needs it.
    private static func event(
        _ executed: ExecutedStatement, _ info: StatementInfo, withArguments: Bool, plan: [String]?, origin: StatementOrigin
    ) -> SQLEvent {
        SQLEvent(
            start: executed.start, durationNanoseconds: executed.durationNanoseconds, thread: ProbeClock.threadID(),
            sql: executed.statement.sql, shape: info.shape, shapeID: info.shapeID,
            arguments: withArguments ? executed.arguments.map { $0.description } : [],
            rowsReturned: executed.rowsReturned, rowsChanged: executed.rowsChanged,
            fullScanSteps: executed.fullScanSteps, sorts: executed.sorts, autoIndexes: executed.autoIndexes,
            vmSteps: executed.vmSteps, purpose: origin.purpose, queryPlan: plan, callSite: origin.callSite,
            textID: info.textID, facts: origin.facts)
    }

    /// Bound values as a sink gets them: a lone integer as it is, any
    /// others to be rendered if a sink reads them.
    private static func arguments(_ arguments: [DatabaseValue]) -> StatementArguments {
        if arguments.count == 1, case .integer(let value) = arguments[0] { return .integer(value) }
        return .values(RenderedArguments(values: arguments))
    }
}

/// Bound values rendered as ``StatementTexts/arguments`` has them; the one
/// value most statements have without an array of texts.
struct RenderedArguments: BoundValues {
    let values: [DatabaseValue]

    var renderedText: String {
        values.count == 1 ? values[0].description : StatementTexts.joined(values.map(\.description))
    }
}
