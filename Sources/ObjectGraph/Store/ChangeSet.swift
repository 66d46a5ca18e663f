/// The objects a save inserted, updated and deleted: what another context
/// needs to merge the save (see ``ObjectContext/merge(_:)``).
public struct ChangeSet: Sendable, Equatable {
    /// The objects inserted.
    public var inserted: Set<ObjectID>
    /// The objects updated.
    public var updated: Set<ObjectID>
    /// The objects deleted.
    public var deleted: Set<ObjectID>
    /// The name of the context that saved (`batch update`, … for batch requests).
    public var contextName: String
    /// The saving context's `transactionAuthor`.
    public var author: String?
    /// The history transaction recorded for it, when history is on.
    public var historyToken: HistoryToken?

    /// A change set of these objects; empty by default.
    public init(
        inserted: Set<ObjectID> = [], updated: Set<ObjectID> = [], deleted: Set<ObjectID> = [], contextName: String = "",
        author: String? = nil, historyToken: HistoryToken? = nil
    ) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.contextName = contextName
        self.author = author
        self.historyToken = historyToken
    }

    /// Whether no object was inserted, updated or deleted.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}
