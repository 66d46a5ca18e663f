/// An executed statement's texts, for a sink that writes them out beside
/// the figures (the LTTng tracepoints) without the whole ``SQLEvent``:
/// building, copying and destroying the event cost that sink more than
/// the texts themselves (``EventSink/receiveStatement(_:texts:event:)``).
public struct StatementTexts: Sendable {
    /// ``SQLEvent/sql``.
    public var sql: String
    /// ``SQLEvent/shape``.
    public var shape: String
    /// ``SQLEvent/arguments`` joined with `", "`: empty when no sink asked
    /// for bound values, or there are none.
    public var arguments: String
    /// ``SQLEvent/purpose``.
    public var purpose: String
    /// ``SQLEvent/queryPlan``.
    public var queryPlan: [String]?
    /// ``SQLEvent/callSite``.
    public var callSite: CallSite

    /// Texts with these values; `arguments` already joined.
    public init(sql: String, shape: String, arguments: String, purpose: String, queryPlan: [String]?, callSite: CallSite) {
        self.sql = sql
        self.shape = shape
        self.arguments = arguments
        self.purpose = purpose
        self.queryPlan = queryPlan
        self.callSite = callSite
    }

    /// The texts of an event.
    public init(_ event: SQLEvent) {
        self.init(
            sql: event.sql, shape: event.shape, arguments: Self.joined(event.arguments), purpose: event.purpose,
            queryPlan: event.queryPlan, callSite: event.callSite)
    }

    /// Bound values as one field: most statements have one or none, so no
    /// joining then.
    public static func joined(_ arguments: [String]) -> String {
        arguments.count == 1 ? arguments[0] : arguments.joined(separator: ", ")
    }
}
