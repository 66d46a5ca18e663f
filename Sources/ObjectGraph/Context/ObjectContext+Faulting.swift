import Probes

/// Firing faults: an object's values come from the row cache when it holds
/// a fresh snapshot (a hit) and from SQLite otherwise (a miss, one
/// primary-key SELECT); a to-many relationship's destinations come from the
/// row cache or one SELECT on the join table or the destination's foreign
/// key, as object faults.
extension ObjectContext {
    /// Throws unless the object belongs to this context and can be used.
    func checkUsable(_ object: ManagedObject) throws(ObjectGraphError) {
        if case .invalidated = object.state {
            throw .objectInvalidated(object.objectID, reason: object.invalidationReason)
        }
        guard object.contextReference != nil else {
            throw .objectInvalidated(object.objectID, reason: "its context was released")
        }
        guard object.belongs(to: self) else { throw .wrongContext(object.objectID) }
    }

    /// Loads the object's values if it is a fault.
    ///
    /// The untraced hit is the hot path (a fault loop over objects the
    /// context holds): it takes the row cache's lock once, loads the
    /// snapshot's values into the object in place (one retain of the
    /// values, one release of the old ones) and reads no clock. A traced
    /// fault and a miss each go through a function of their own, so that
    /// their call site, clock readings and event do not weigh on the hit.
    func fulfill(_ object: ManagedObject) throws(ObjectGraphError) {
        switch object.state {
        case .loaded: return
        case .invalidated: throw .objectInvalidated(object.objectID, reason: object.invalidationReason)
        case .fault: break
        }
        if !object.belongs(to: self) { try checkUsable(object) }
        // Asked once: a session that starts mid-fault gets the next fault,
        // not one with a start time of zero.
        if hasSink, instrumentation.isOn(.fault) { return try fulfillTraced(object) }
        guard usesRowCache, rowCache.fill(object, staleness: stalenessNanoseconds) == nil else {
            return try fulfillFromStore(object, at: currentCallSite)
        }
    }

    /// A fault some sink wants an event for: timed from before the row
    /// cache is asked until the values are loaded. The hit stays in a small
    /// frame; the miss, its call site and its event go out of line.
    @inline(never)
    private func fulfillTraced(_ object: ManagedObject) throws(ObjectGraphError) {
        let start = ProbeClock.now()
        guard let missed = usesRowCache ? rowCache.fill(object, staleness: stalenessNanoseconds) : .absent else {
            return instrumentation.rowCacheFault(start: start, context: self, name: name, object: object)
        }
        try fulfillTracedFromStore(object, start: start, missed: missed)
    }

    /// A traced miss: the row from SQLite, and the fault's event.
    @inline(never)
    private func fulfillTracedFromStore(_ object: ManagedObject, start: UInt64, missed: CacheMissReason) throws(ObjectGraphError) {
        // Read before the row replaces the fault's state.
        let origin = object.origin
        // The line that read the object, found once for the query's event and the fault's.
        let site = readSite
        try fulfillFromStore(object, at: site)
        instrumentation.fault(
            start: start, context: name, id: object.objectID, source: .database, missReason: missed,
            origin: { originPaths.faultOrigin(origin) }, callSite: { site }, engineWork: engineWork
        ) {
            describeValues(object)
        }
    }

    /// A miss: one primary-key SELECT at `site`, kept in the row cache and
    /// loaded into the object. Untraced callers pass the current site,
    /// read in their own frame (a frame of its own for that cost every
    /// miss about 20 instructions more).
    @inline(never)
    func fulfillFromStore(_ object: ManagedObject, at site: CallSite) throws(ObjectGraphError) {
        let id = object.objectID
        guard let snapshot = try readRow(id, at: site) else { throw .objectDeleted(id) }
        if usesRowCache { rowCache.store(snapshot, for: id) }
        object.load(snapshot)
    }

    /// Before a typed field's read out of line (``ManagedObject/fillField(_:at:_:)``),
    /// for an object of this context: notes a first use, fires the fault
    /// (stopping the program on a failure) and lets the object be read in
    /// place when it may. An object that may not (an invalidated one, a
    /// context checking concurrency) is left to the key-value path, which
    /// checks and reports.
    /// Returns whether the field at `index` then holds the value and may
    /// be read in place (false for an index without a field).
    @usableFromInline @discardableResult
    func prepareTypedRead(_ object: ManagedObject, _ key: String, field index: Int = -1) -> Bool {
        if object.storedUnusedFetchRun != 0 { object.noteFirstUse() }
        guard !checksConcurrency else { return false }
        switch object.storedState {
        case .loaded: break
        case .fault:
            // Whether a sink wants the fault is asked once, as in ``fulfill(_:)``.
            if hasSink, instrumentation.isOn(.fault) {
                fulfillTracedForTypedRead(object, key)
            } else if stalenessNanoseconds != nil || pinnedToGeneration || !rowCache.refault(object) {
                // Not a refault the row cache's content generation serves
                // (a few loads and compares, inlined here).
                fulfillUntracedForTypedRead(object, key)
            }
        case .invalidated: return false
        }
        object.typedFields.grantReadable()
        return object.typedFields.canRead(index)
    }

    /// ``fulfill(_:)``'s untraced path for a typed read's fault, without
    /// the typed-access bookkeeping, which only a traced event reads (its
    /// call site); stops the program on a failure, naming `key`.
    @inline(never)
    private func fulfillUntracedForTypedRead(_ object: ManagedObject, _ key: String) {
        guard usesRowCache, rowCache.fill(object, staleness: stalenessNanoseconds) == nil else {
            do {
                return try fulfillFromStore(object, at: currentCallSite)
            } catch {
                object.failFault(key, error)
            }
        }
    }

    /// ``fulfillTraced(_:)`` for a typed read's fault: its events are
    /// attributed to the line that read the property (``typedAccess(_:)``);
    /// stops the program on a failure, naming `key`. Inlined into
    /// ``prepareTypedRead(_:_:field:)``: one call fewer for every traced refault.
    /// A hit that a tally only counts reads no call site, so it skips the
    /// typed-access bookkeeping (and the stack mark's frame); what reads a
    /// site (a hit sent on, a miss) goes out of line with it.
    @inline(__always)
    private func fulfillTracedForTypedRead(_ object: ManagedObject, _ key: String) {
        let start = ProbeClock.now()
        guard let missed = usesRowCache ? rowCache.fill(object, staleness: stalenessNanoseconds) : .absent else {
            if instrumentation.rowCacheFaultsAreOnlyCounted {
                // ``Instrumentation/rowCacheFault(start:context:name:object:)``'s
                // count, without its questions.
                rowCacheFaultCell?.count(entity: object.entity.index, nanoseconds: ProbeClock.nanoseconds(since: start))
                return
            }
            return sendRowCacheFaultOfTypedRead(object, start: start)
        }
        fulfillTracedFromStore(object, key, start: start, missed: missed)
    }

    /// A traced hit of a typed read whose event reads its call site.
    @inline(never)
    private func sendRowCacheFaultOfTypedRead(_ object: ManagedObject, start: UInt64) {
        typedAccess { instrumentation.rowCacheFault(start: start, context: self, name: name, object: object) }
    }

    /// A traced miss of a typed read, stopping the program on a failure.
    @inline(never)
    private func fulfillTracedFromStore(_ object: ManagedObject, _ key: String, start: UInt64, missed: CacheMissReason) {
        do {
            try typedAccess { () throws(ObjectGraphError) in try fulfillTracedFromStore(object, start: start, missed: missed) }
        } catch {
            object.failFault(key, error)
        }
    }

    /// The event of a fault the row cache served (``Instrumentation/rowCacheFault(start:context:name:object:)``),
    /// for a sink that takes it whole.
    func rowCacheFaultEvent(
        _ object: ManagedObject, start: UInt64, durationNanoseconds: UInt64, callSite: CallSite? = nil
    ) -> FaultEvent {
        let id = object.objectID
        return FaultEvent(
            start: start, durationNanoseconds: durationNanoseconds, thread: ProbeClock.threadID(), context: name,
            entity: id.entityName, primaryKey: id.primaryKey, source: .rowCache, callSite: callSite ?? readSite,
            values: instrumentation.details.contains(.objectValues) ? describeValues(object) : nil, missReason: nil,
            origin: originPaths.faultOrigin(object.origin))
    }

    /// `{name = "Ada"; age = nil}`, for detailed logs.
    func describeValues(_ object: ManagedObject) -> String {
        guard case .loaded = object.state else { return "{fault}" }
        let entity = object.entity
        var parts = entity.attributes.map { "\($0.name) = \(object.values[$0.index])" }
        for index in entity.toOneIndexes {
            if case .toOne(let id, _) = object.slots[index] {
                parts.append("\(entity.relationships[index].name) = \(id.map(\.description) ?? "nil")")
            }
        }
        return "{" + parts.joined(separator: "; ") + "}"
    }

    /// One primary-key SELECT, attributed to `site`; its purpose is
    /// `fault`, or the engine's work (`engine inverse Category`) while it
    /// does some. The site is lent down to the connection's origin, not
    /// wrapped in an optional (a copy, a retain and a release per traced
    /// miss).
    func readRow(_ id: ObjectID, at site: CallSite) throws(ObjectGraphError) -> RowSnapshot? {
        let entity = id.entity
        let purpose = engineWork.map { $0.purpose(entity.name) } ?? "fault"
        return try storeRead(purpose: purpose, facts: .keyLookup(entity.name), at: site) { connection, generation in
            var snapshot: RowSnapshot?
            try connection.query(entity.sql.selectRow, [.integer(id.primaryKey)]) { row in
                snapshot = RowSnapshot.read(row, entity: entity, model: store.model, generation: generation)
            }
            return snapshot
        }
    }

    /// Runs a read on the store, turning SQLite errors into store errors.
    /// `facts` describe the statements `body` runs (a fetch's), for their events.
    func storeRead<T>(
        purpose: String, facts: StatementFacts? = nil, callSite: CallSite? = nil, _ body: (Connection, UInt64) throws -> T
    ) throws(ObjectGraphError) -> T {
        try storeRead(purpose: purpose, facts: facts, at: callSite ?? currentCallSite, body)
    }

    /// ``storeRead(purpose:facts:callSite:_:)`` at a site the caller holds.
    func storeRead<T>(
        purpose: String, facts: StatementFacts?, at site: CallSite, _ body: (Connection, UInt64) throws -> T
    ) throws(ObjectGraphError) -> T {
        do {
            if !hasRead {
                readerLease = try store.pool.makeLease()
                hasRead = true
            }
            return try store.pool.read(purpose: purpose, callSite: site, facts: facts, lease: readerLease, body)
        } catch let error as ObjectGraphError {
            throw error
        } catch let error as SQLiteError {
            throw .store(path: store.path, reason: Store.explain(error), sqlite: error)
        } catch {
            throw .store(path: store.path, reason: "\(error)", sqlite: nil)
        }
    }

    // MARK: Reading values

    func attributeValue(_ object: ManagedObject, _ key: String) throws(ObjectGraphError) -> Value {
        try fulfill(object)
        guard let index = object.entity.attributePosition(key) else {
            throw .unknownKey(entity: object.entity.name, key: key)
        }
        return object.values[index]
    }

    func relationship(_ object: ManagedObject, _ key: String, toMany: Bool) throws(ObjectGraphError) -> RelationshipDescription {
        guard let index = object.entity.relationshipIndex[key] else {
            throw .unknownKey(entity: object.entity.name, key: key)
        }
        let relationship = object.entity.relationships[index]
        guard relationship.isToMany == toMany else {
            throw .typeMismatch(
                entity: object.entity.name, key: key, expected: toMany ? "to-many relationship" : "to-one relationship",
                got: relationship.isToMany ? "to-many relationship" : "to-one relationship")
        }
        return relationship
    }

    /// The destination of a to-one relationship.
    func toOne(_ object: ManagedObject, _ relationship: RelationshipDescription) throws(ObjectGraphError) -> ManagedObject? {
        try fulfill(object)
        guard case .toOne(let id, let cached) = object.slots[relationship.index] else { return nil }
        if let cached {
            if object.unreadPrefetches != 0 { notePrefetchRead(object, relationship) }
            return cached
        }
        guard let id else { return nil }
        let destination: ManagedObject
        if let registeredObject = registered[id]?.object {
            destination = registeredObject
        } else {
            // Reached through the relationship from where `object` came from.
            destination = registering(from: origin(through: relationship, from: object.origin)) { registerFault(id) }
        }
        object.slots[relationship.index] = .toOne(id, destination)
        return destination
    }

    /// The destination ID of a to-one relationship, without firing the
    /// object's fault when the row cache has its row.
    func toOneID(_ object: ManagedObject, _ relationship: RelationshipDescription) throws(ObjectGraphError) -> ObjectID? {
        if case .toOne(let id, _) = object.slots[relationship.index] { return id }
        if case .fault = object.state, let snapshot = rowCache.snapshot(for: object.objectID) {
            return snapshot.toOne[relationship.index]
        }
        try fulfill(object)
        if case .toOne(let id, _) = object.slots[relationship.index] { return id }
        return nil
    }

    /// The destinations of a to-many relationship, firing the object's
    /// fault and the relationship fault as needed.
    func toMany(_ object: ManagedObject, _ relationship: RelationshipDescription) throws(ObjectGraphError) -> [ManagedObject] {
        try fulfill(object)
        if case .toMany(let objects) = object.slots[relationship.index] {
            if object.unreadPrefetches != 0 { notePrefetchRead(object, relationship) }
            return objects
        }
        let id = object.objectID
        let traced = instrumentation.isOn(.relationshipFault)
        let start = traced ? ProbeClock.now() : 0
        let ids: [ObjectID]
        let source: FaultSource
        let site = traced ? readSite : currentCallSite
        if usesRowCache, let cached = rowCache.toMany(id, relationship: relationship.index) {
            ids = cached
            source = .rowCache
        } else {
            ids = try readDestinations(of: id, relationship, callSite: site)
            if usesRowCache { rowCache.storeToMany(ids, for: id, relationship: relationship.index) }
            source = .database
        }
        // This context's own loop: no concurrency check per destination.
        let destinationOrigin = origin(through: relationship, from: object.origin)
        // Whether the application then reads the destinations this fault
        // registers tells a to-many loaded for its count from an N+1 (the
        // repeated-count rule): those are marked, objects the context held
        // already are not (no work per fault for a loop over shared ones).
        let tracks = source == .database && engineWork == nil && destinationOrigin.path != 0
        var fresh = 0
        let objects = registering(from: destinationOrigin) {
            ids.map { id in
                if let registered = registered[id]?.object { return registered }
                let new = registerFault(id)
                if tracks {
                    new.unusedFetchRun = FetchRuns.pendingRun
                    fresh += 1
                }
                return new
            }
        }
        object.slots[relationship.index] = .toMany(objects)
        if fresh > 0 { noteDestinationRun(objects, fresh: fresh, origin: destinationOrigin) }
        if traced {
            instrumentation.emit(.relationshipFault(RelationshipFaultEvent(
                start: start, durationNanoseconds: ProbeClock.nanoseconds(since: start), thread: ProbeClock.threadID(), context: name,
                entity: id.entityName, relationship: relationship.name, primaryKey: id.primaryKey,
                destinationEntity: relationship.destinationName, destinationCount: ids.count, source: source,
                callSite: site, missReason: source == .database ? .absent : nil,
                origin: originPaths.faultOrigin(destinationOrigin), engineWork: engineWork)))
        }
        return objects
    }

    /// The first read of a relationship a prefetch loaded for `object`
    /// (to-one or to-many), for the unused-prefetch insight.
    @inline(never)
    func notePrefetchRead(_ object: ManagedObject, _ relationship: RelationshipDescription) {
        let bit: UInt64 = relationship.index < 64 ? 1 << UInt64(relationship.index) : 0
        // The engine's own use (an inverse kept in step) is no read.
        guard object.unreadPrefetches & bit != 0, engineWork == nil else { return }
        object.unreadPrefetches &= ~bit
        prefetchUsage["\(object.entity.name).\(relationship.name)", default: (0, 0, currentCallSite)].read += 1
    }

    /// One SELECT of a to-many relationship's destination keys, in key order.
    func readDestinations(of id: ObjectID, _ relationship: RelationshipDescription, callSite: CallSite? = nil) throws(ObjectGraphError)
        -> [ObjectID]
    {
        let destination = store.model.destination(of: relationship)
        guard let sql = relationship.sql.destinationKeys else {
            preconditionFailure("to-one relationship \(relationship.name) read as to-many")
        }
        // Destinations by foreign key read the destination's table; a join table is no entity's.
        let facts: StatementFacts? = relationship.joinTable == nil ? .keyLookup(destination.name) : nil
        // `relationship` is one of the object's own entity's (its index is
        // theirs); the engine's own work says so (`engine inverse Category.recipes`).
        let purpose = engineWork.map { $0.purpose("\(id.entityName).\(relationship.name)") }
            ?? id.entity.relationshipFaultPurposes[relationship.index]
        // Read once, not per row (each read retained and released the
        // store and its model).
        let model = store.model
        return try storeRead(purpose: purpose, facts: facts, callSite: callSite) { connection, _ in
            var ids: [ObjectID] = []
            // Most relationships hold a few destinations: room for them
            // without growing the array row by row.
            ids.reserveCapacity(16)
            try connection.query(sql, [.integer(id.primaryKey)]) { row in
                ids.append(destination.objectID(row, model: model))
            }
            return ids
        }
    }

    /// Reads a key path through to-one relationships, for in-memory
    /// predicate evaluation and sorting.
    func read(_ object: ManagedObject, keyPath: String) throws(ObjectGraphError) -> InMemoryEvaluator.Operand {
        // A plain attribute, the common case: no splitting.
        if object.entity.attributeIndex[keyPath] != nil { return .value(try attributeValue(object, keyPath)) }
        if keyPath == QueryBuilder.EntityTest.key, object.entity.relationship(named: keyPath) == nil {
            return .value(.string(object.entity.name))
        }
        if keyPath == QueryBuilder.ObjectTest.key, object.entity.relationship(named: keyPath) == nil {
            return .object(object.objectID)
        }
        var current: ManagedObject? = object
        let components = keyPath.split(separator: ".", omittingEmptySubsequences: false)
        for (position, component) in components.enumerated() {
            let key = String(component)
            let last = position == components.count - 1
            guard let step = current else { return .value(.null) }
            if step.entity.attributeIndex[key] != nil {
                guard last else { throw .invalidPredicate("\(step.entity.name).\(key) is an attribute, in key path \(keyPath)") }
                return .value(try attributeValue(step, key))
            }
            let relationship = try relationship(step, key, toMany: false)
            if last { return .object(try toOneID(step, relationship)) }
            current = try toOne(step, relationship)
        }
        return .value(.null)
    }
}
