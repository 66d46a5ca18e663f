/// Bringing a context up to date with another context's save.
extension ObjectContext {
    /// Merges a save made by another context of the same store: objects it
    /// deleted are forgotten here, objects it updated are refreshed (turned
    /// into faults, or reloaded with this context's own unsaved changes
    /// applied again on top). Objects it inserted appear in the next fetch.
    ///
    /// Call it inside this context's `perform`, with the ``ChangeSet`` the
    /// other context's ``save()`` returned or a store change observer got.
    public func merge(_ changes: ChangeSet) {
        ConcurrencyGuard.check(self, "merge(_:)")
        defer {
            advancePinnedGeneration()
            instrumentation.contextChanged(name, kind: .merge)
        }
        for id in changes.deleted.sorted() {
            guard let object = registered[id]?.object else { continue }
            unregister(object, reason: "it was deleted by context \(changes.contextName)")
        }
        for id in changes.updated.sorted() {
            guard let object = registered[id]?.object, !object.isDeletedFlag else { continue }
            if object.hasChanges {
                refresh(object, mergeChanges: true)
            } else {
                refresh(object, mergeChanges: false)
            }
        }
    }
}
