/// The objects a save inserted, updated and deleted: what another context
/// needs to merge the save (see ``ObjectContext/merge(_:)``).
public struct ChangeSet: Sendable, Equatable {
    public var inserted: Set<ObjectID>
    public var updated: Set<ObjectID>
    public var deleted: Set<ObjectID>
    /// The name of the context that saved.
    public var contextName: String

    public init(inserted: Set<ObjectID> = [], updated: Set<ObjectID> = [], deleted: Set<ObjectID> = [], contextName: String = "") {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.contextName = contextName
    }

    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}
