@_spi(FastPath) import Probes

/// Turns executed statements into SQL events: the shape is computed once
/// per prepared statement (kept with the statement), bound
/// values are rendered only when a sink wants them, and the query plan is
/// read once per statement when a sink wants plans.
///
/// A struct kept in place in its statement: the hook reads the numbers
/// through the statement without copying the info (a copy retains and
/// releases the shape's text, per statement).
struct StatementInfo {
    let shape: String
    let shapeID: Int
    let textID: Int
    /// Whether the statement's text is its shape's (values bound, none in
    /// the text): a sink that names shapes then need not repeat the text.
    let sqlIsShape: Bool
    /// Touched only from its statement's connection.
    var planRecorded = false

    init(sql: String) {
        (shape, shapeID, textID) = SQLShape.internStatement(sql)
        sqlIsShape = sql == shape
    }
}

extension Instrumentation {
    /// The hook to install on one connection: the user's hook and the SQL
    /// event, with the purpose and call site `origin` holds for that
    /// connection. nil when neither is wanted, so statements are not even
    /// timed.
    func statementHook(user: (@Sendable (ExecutedStatement) -> Void)?, origin: StatementOrigin) -> ExecutionHook? {
        #if FAULTLINE_NO_INSTRUMENTATION
        let instrumented = false
        #else
        let instrumented = sink != nil
        #endif
        guard instrumented || user != nil else { return nil }
        return { [self] statement, arguments, figures in
            user?(ExecutedStatement(statement, arguments, figures))
            // The sink called through the optional (as faults are): bound
            // to a local it was retained and released per statement.
            guard let details = statementDetails else { return }
            if statement.instrumentationInfo == nil { Self.makeInfo(statement) }
            let plan: [String]? = details.contains(.queryPlans) && statement.instrumentationInfo?.planRecorded == false ? Self.plan(statement) : nil
            let withArguments = details.contains(.sqlArguments) && !arguments.isEmpty
            // The figures first; the event itself only for a sink that needs
            // it whole (the recorder adds up most statements from these).
            let parts = StatementParts(
                shapeID: statement.instrumentationInfo?.shapeID ?? 0, textID: statement.instrumentationInfo?.textID ?? 0,
                durationNanoseconds: figures.durationNanoseconds,
                rowsReturned: figures.rowsReturned, rowsChanged: figures.rowsChanged, fullScanSteps: figures.fullScanSteps,
                sorts: figures.sorts, autoIndexes: figures.autoIndexes, vmSteps: figures.vmSteps,
                isTransaction: origin.isTransaction, hasDetails: plan != nil || withArguments, callSite: origin.callSite,
                isEngineWork: origin.isEngineWork)
            guard lendsStatementTexts else {
                // Texts made only if the sink asks (the recorder seldom does).
                sink?.receiveStatement(parts, texts: {
                    StatementTexts(
                        sql: statement.sql, shape: statement.instrumentationInfo?.shape ?? statement.sql,
                        arguments: withArguments ? RenderedArguments(values: arguments).renderedText : "",
                        purpose: origin.purpose, queryPlan: plan, callSite: origin.callSite)
                }) {
                    Self.event(statement, arguments, figures, withArguments: withArguments, plan: plan, origin: origin)
                }
                return
            }
            // The texts are lent, not copied; bound values are rendered only
            // when read, and a lone integer (a key lookup's) not at all.
            // The shape's text and the call site are not lent again: the
            // sink finds them from the figures (the shape's number, the
            // call site), so neither is copied for the call.
            sink?.receiveStatement(
                parts, sql: statement.sql, sqlIsShape: statement.instrumentationInfo?.sqlIsShape ?? false,
                arguments: withArguments ? Self.arguments(arguments) : .none, purpose: origin.purpose, queryPlan: plan
            ) {
                Self.event(statement, arguments, figures, withArguments: withArguments, plan: plan, origin: origin)
            }
        }
    }

    /// The info of a statement that has none yet, kept with it.
    @inline(never)
    private static func makeInfo(_ statement: Statement) {
        statement.instrumentationInfo = StatementInfo(sql: statement.sql)
    }

    /// The statement's query plan, read once per prepared statement.
    private static func plan(_ statement: Statement) -> [String]? {
        statement.instrumentationInfo?.planRecorded = true
        return statement.connection.explainQueryPlan(statement.sql)
    }

    /// The whole event, for a sink that needs it.
    private static func event(
        _ statement: Statement, _ arguments: [DatabaseValue], _ figures: ExecutionFigures, withArguments: Bool,
        plan: [String]?, origin: StatementOrigin
    ) -> SQLEvent {
        let info = statement.instrumentationInfo ?? StatementInfo(sql: statement.sql)
        return SQLEvent(
            start: figures.start, durationNanoseconds: figures.durationNanoseconds, thread: ProbeClock.threadID(),
            sql: statement.sql, shape: info.shape, shapeID: info.shapeID,
            arguments: withArguments ? arguments.map { $0.description } : [],
            rowsReturned: figures.rowsReturned, rowsChanged: figures.rowsChanged,
            fullScanSteps: figures.fullScanSteps, sorts: figures.sorts, autoIndexes: figures.autoIndexes,
            vmSteps: figures.vmSteps, purpose: origin.purpose, queryPlan: plan, callSite: origin.callSite,
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
