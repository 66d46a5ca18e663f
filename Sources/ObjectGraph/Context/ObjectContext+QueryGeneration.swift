/// Query generations: a context can pin itself to the store's state at a
/// moment; its reads then see that snapshot, however many saves other
/// contexts make, until it unpins, saves or merges (which move it to the
/// newest state).
///
/// Debian's SQLite has no snapshot API (`SQLITE_ENABLE_SNAPSHOT` is off), so
/// a pinned context holds a read transaction open on its own connection.
/// While it does, WAL checkpoints cannot go past its snapshot and the WAL file
/// grows: unpin when done. A pinned context neither reads nor fills the
/// shared row cache (which holds the newest rows): its faults go to SQLite.
/// Memory stores have one connection and cannot pin.
extension ObjectContext {
    /// Whether the context is pinned to a query generation.
    public var isPinned: Bool { pinnedToGeneration }

    /// Pins the context to the store's current state.
    public func pinQueryGeneration() throws(ObjectGraphError) {
        ConcurrencyGuard.check(self, "pinQueryGeneration()")
        guard store.pool.supportsPinning else {
            throw .store(path: store.path, reason: "query generations need a file store (a memory store has one connection)", sqlite: nil)
        }
        readerLease?.reader.pinned = false
        pinnedToGeneration = false
        try storeRead(purpose: "pin") { connection, _ in
            // A read starts the snapshot the context keeps.
            try connection.query(SchemaSQL.countMetadata) { _ in }
        }
        readerLease?.reader.pinned = true
        pinnedToGeneration = true
    }

    /// Unpins the context: its next read sees the newest state.
    public func unpinQueryGeneration() {
        ConcurrencyGuard.check(self, "unpinQueryGeneration()")
        readerLease?.reader.pinned = false
        pinnedToGeneration = false
    }

    /// Moves a pinned context to the newest state (after a save or merge).
    func advancePinnedGeneration() {
        guard isPinned else { return }
        try? pinQueryGeneration()
    }

    /// Whether faults may use the shared row cache.
    var usesRowCache: Bool { !isPinned }
}
