/// An executed statement's figures, without its texts: what a sink that
/// adds statements up needs once it has seen the statement's shape and
/// text (``EventSink/receiveStatement(_:texts:event:)``).
public struct StatementParts: Sendable {
    /// ``SQLEvent/shapeID``.
    public var shapeID: Int
    /// ``SQLEvent/textID``.
    public var textID: Int
    /// ``SQLEvent/durationNanoseconds``.
    public var durationNanoseconds: UInt64
    /// ``SQLEvent/rowsReturned``.
    public var rowsReturned: Int
    /// ``SQLEvent/rowsChanged``.
    public var rowsChanged: Int
    /// ``SQLEvent/fullScanSteps``.
    public var fullScanSteps: Int
    /// ``SQLEvent/sorts``.
    public var sorts: Int
    /// ``SQLEvent/autoIndexes``.
    public var autoIndexes: Int
    /// ``SQLEvent/vmSteps``.
    public var vmSteps: Int
    /// Whether the engine ran it to begin or end a transaction.
    public var isTransaction: Bool
    /// Whether the event would carry a query plan or bound values.
    public var hasDetails: Bool
    /// ``SQLEvent/callSite``: where it ran (a pending one is named later).
    public var callSite: CallSite
    /// Whether the engine ran it for its own bookkeeping (``EngineWork``,
    /// ``SQLEvent/isEngineWork``): no read of the application's.
    public var isEngineWork: Bool

    /// Figures with these values.
    public init(
        shapeID: Int, textID: Int, durationNanoseconds: UInt64, rowsReturned: Int, rowsChanged: Int, fullScanSteps: Int,
        sorts: Int, autoIndexes: Int, vmSteps: Int, isTransaction: Bool, hasDetails: Bool, callSite: CallSite = .unknown,
        isEngineWork: Bool = false
    ) {
        self.callSite = callSite
        self.isEngineWork = isEngineWork
        self.shapeID = shapeID
        self.textID = textID
        self.durationNanoseconds = durationNanoseconds
        self.rowsReturned = rowsReturned
        self.rowsChanged = rowsChanged
        self.fullScanSteps = fullScanSteps
        self.sorts = sorts
        self.autoIndexes = autoIndexes
        self.vmSteps = vmSteps
        self.isTransaction = isTransaction
        self.hasDetails = hasDetails
    }

    /// The figures of an event (a text without an interned number gets -1).
    public init(_ event: SQLEvent) {
        self.init(
            shapeID: event.shapeID, textID: event.textID ?? -1, durationNanoseconds: event.durationNanoseconds,
            rowsReturned: event.rowsReturned, rowsChanged: event.rowsChanged, fullScanSteps: event.fullScanSteps, sorts: event.sorts,
            autoIndexes: event.autoIndexes, vmSteps: event.vmSteps, isTransaction: event.purpose == SQLEvent.transactionPurpose,
            hasDetails: event.queryPlan != nil || !event.arguments.isEmpty, callSite: event.callSite, isEngineWork: event.isEngineWork)
    }
}
