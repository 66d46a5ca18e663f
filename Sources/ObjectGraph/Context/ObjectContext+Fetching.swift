import Probes

/// Fetch requests: objects, IDs, dictionaries and counts. Each public call
/// is one `fetch` event; what it runs inside (prefetches, pages, faults)
/// shows as SQL events with their purpose.
extension ObjectContext {
    /// Fetches objects. See ``FetchRequest`` for what each option costs.
    public func fetch<Object: ManagedObject>(_ request: FetchRequest<Object>, file: String = #fileID, line: Int = #line)
        throws(ObjectGraphError) -> FetchedResults<Object>
    {
        try instrumented(request, "objects", CallSite(file: file, line: line)) { () throws(ObjectGraphError) in
            let results = try fetchObjects(request, tracksUse: true)
            return (results, results.count, results.objectsIfLoaded)
        }
    }

    /// Fetches the IDs of the matching objects without registering objects
    /// (unless pending changes need them evaluated).
    public func fetchObjectIDs<Object: ManagedObject>(_ request: FetchRequest<Object>, file: String = #fileID, line: Int = #line)
        throws(ObjectGraphError) -> [ObjectID]
    {
        try instrumented(request, "ids", CallSite(file: file, line: line)) { () throws(ObjectGraphError) in
            let ids = try fetchIDs(request)
            return (ids, ids.count, nil)
        }
    }

    /// Counts the matching objects with `SELECT count(*)`, building no
    /// objects (pending changes are counted in memory when there are some).
    public func count<Object: ManagedObject>(for request: FetchRequest<Object>, file: String = #fileID, line: Int = #line)
        throws(ObjectGraphError) -> Int
    {
        try instrumented(request, "count", CallSite(file: file, line: line)) { () throws(ObjectGraphError) in
            let count = try countObjects(request)
            return (count, count, nil)
        }
    }

    /// Fetches attribute values as dictionaries keyed by key path
    /// (``FetchRequest/propertiesToFetch``, or every attribute). Pending
    /// changes are not included.
    public func fetchDictionaries<Object: ManagedObject>(
        _ request: FetchRequest<Object>, file: String = #fileID, line: Int = #line
    ) throws(ObjectGraphError) -> [[String: Value]] {
        try instrumented(request, "dictionaries", CallSite(file: file, line: line)) { () throws(ObjectGraphError) in
            let dictionaries = try fetchValues(request)
            return (dictionaries, dictionaries.count, nil)
        }
    }

    /// Runs a fetch with its call site, and emits its `fetch` event.
    private func instrumented<Object, Result>(
        _ request: FetchRequest<Object>, _ resultType: String, _ site: CallSite,
        _ body: () throws(ObjectGraphError) -> (Result, Int, [ManagedObject]?)
    ) throws(ObjectGraphError) -> Result {
        ConcurrencyGuard.check(self, "fetch of \(request.entityName)")
        try store.checkCancelled()
        guard instrumentation.isOn(.fetch) else {
            return try withCallSite(site) { () throws(ObjectGraphError) in try body().0 }
        }
        let start = ProbeClock.now()
        let (result, count, objects) = try withCallSite(site) { () throws(ObjectGraphError) in try body() }
        let duration = ProbeClock.nanoseconds(since: start)
        instrumentation.emit(.fetch(FetchEvent(
            start: start, durationNanoseconds: duration, thread: ProbeClock.threadID(), context: name,
            entity: request.entityName, predicate: request.predicate?.description ?? "",
            sort: request.sortKeys.map(\.description).joined(separator: ", "), resultType: resultType, resultCount: count,
            fetchLimit: request.fetchLimit, fetchOffset: request.fetchOffset, fetchBatchSize: request.fetchBatchSize,
            returnsObjectsAsFaults: request.returnsObjectsAsFaults, includesPropertyValues: request.includesPropertyValues,
            includesPendingChanges: request.includesPendingChanges,
            prefetch: request.relationshipKeyPathsForPrefetching.joined(separator: ", "),
            intendedLazyLoads: request.intendedLazyLoads.joined(separator: ", "), callSite: site,
            objects: instrumentation.details.contains(.objectValues)
                ? objects?.map { "\($0.objectID) \(describeValues($0))" } : nil)))
        return result
    }

    // MARK: Implementations

    /// - Parameter tracksUse: track which of the objects the application
    ///   then uses (``FetchRuns``): for the application's own fetches, not
    ///   the engine's.
    func fetchObjects<Object: ManagedObject>(_ request: FetchRequest<Object>, tracksUse: Bool = false) throws(ObjectGraphError)
        -> FetchedResults<Object>
    {
        let entity = try store.model.entity(request.entityName)
        var request = request
        if let amendment = store.configuration.whatIf.amendment(for: entity.name, at: currentCallSite) {
            amendment.apply(to: &request)
        }
        let prefetchPaths = try prefetchSteps(request.relationshipKeyPathsForPrefetching, from: entity)
        let pending = request.includesPendingChanges && hasChanges
        var query = try SelectQuery(request, entity: entity, model: store.model, applyingLimits: !pending)
        let purpose = "fetch \(entity.name)"
        // The objects of this run of the fetch, and what is reached from them.
        let origin = fetchOrigin(entity)

        if request.fetchBatchSize > 0 {
            var ids = try selectIDs(&query, purpose: purpose)
            if pending { ids = try mergePending(ids.map { object(with: $0) }, request, entity).map(\.objectID) }
            let site = currentCallSite
            let run = tracksUse ? startBatchedFetchRun(count: ids.count, origin: origin) : nil
            let batched = BatchedObjects(ids: ids, batchSize: request.fetchBatchSize) { [unowned self] page in
                let loaded = try? withCallSite(site) { () throws(ObjectGraphError) in
                    try registering(from: origin) { () throws(ObjectGraphError) in
                        try loadRows(page, entity: entity, purpose: "batch page \(entity.name)")
                    }
                }
                let objects = loaded ?? page.map { self.object(with: $0) }
                if let run { for object in objects { object.unusedFetchRun = run } }
                return objects
            }
            return FetchedResults(storage: .batched(batched))
        }

        let loadValues = !request.returnsObjectsAsFaults || !prefetchPaths.isEmpty
        var objects: [ManagedObject]
        if request.includesPropertyValues || !prefetchPaths.isEmpty {
            let sql = query.sql(columns: entity.sql.snapshotColumns)
            let model = store.model  // once, not twice a row
            objects = try registering(from: origin) { () throws(ObjectGraphError) in
                try storeRead(purpose: purpose, facts: query.facts) { connection, generation in
                    var objects: [ManagedObject] = []
                    try connection.query(sql, query.arguments) { row in
                        let id = entity.objectID(row, model: model)
                        let snapshot = RowSnapshot.read(row, entity: id.entity, model: model, generation: generation)
                        objects.append(register(id, snapshot: snapshot, fulfill: loadValues))
                    }
                    return objects
                }
            }
        } else {
            let ids = try selectIDs(&query, purpose: purpose)
            objects = registering(from: origin) { ids.map { object(with: $0) } }
        }
        if pending { objects = try mergePending(objects, request, entity) }
        if !prefetchPaths.isEmpty { try prefetch(prefetchPaths, from: objects, origin: origin) }
        if tracksUse { noteFetchRun(objects, origin: origin) }
        return FetchedResults(storage: .objects(objects))
    }

    func fetchIDs<Object: ManagedObject>(_ request: FetchRequest<Object>) throws(ObjectGraphError) -> [ObjectID] {
        let entity = try store.model.entity(request.entityName)
        if request.includesPendingChanges && hasChanges {
            var plain = request
            plain.fetchBatchSize = 0
            plain.relationshipKeyPathsForPrefetching = []
            plain.includesPropertyValues = false
            return try fetchObjects(plain).objectIDs
        }
        var query = try SelectQuery(request, entity: entity, model: store.model, applyingLimits: true)
        return try selectIDs(&query, purpose: "fetch \(entity.name)")
    }

    func countObjects<Object: ManagedObject>(_ request: FetchRequest<Object>) throws(ObjectGraphError) -> Int {
        let entity = try store.model.entity(request.entityName)
        if request.includesPendingChanges && hasChanges {
            return try fetchIDs(request).count
        }
        let query = try SelectQuery(request, entity: entity, model: store.model, applyingLimits: true)
        let (sql, arguments) = query.count
        return try storeRead(purpose: "count \(entity.name)", facts: query.facts) { connection, _ in
            var count = 0
            try connection.query(sql, arguments) { row in count = Int(row.int64(0)) }
            return count
        }
    }

    func fetchValues<Object: ManagedObject>(_ request: FetchRequest<Object>) throws(ObjectGraphError) -> [[String: Value]] {
        let entity = try store.model.entity(request.entityName)
        var query = try SelectQuery(request, entity: entity, model: store.model, applyingLimits: true)
        let keys = request.propertiesToFetch ?? entity.attributes.map(\.name)
        var columns: [String] = []
        var types: [AttributeType] = []
        for key in keys {
            guard case .attribute(let column, let attribute, _) = try query.builder.resolve(key) else {
                throw .invalidFetchRequest("propertiesToFetch names \(key), a relationship of \(entity.name); name attributes")
            }
            columns.append(column)
            types.append(attribute.type)
        }
        let sql = query.sql(columns: columns.isEmpty ? "t0.pk" : columns.joined(separator: ", "))
        return try storeRead(purpose: "fetch \(entity.name)", facts: query.facts) { connection, _ in
            var results: [[String: Value]] = []
            try connection.query(sql, query.arguments) { row in
                var dictionary: [String: Value] = [:]
                for (offset, key) in keys.enumerated() { dictionary[key] = Value.read(row, offset, as: types[offset]) }
                results.append(dictionary)
            }
            return results
        }
    }

    // MARK: Running queries

    private func selectIDs(_ query: inout SelectQuery, purpose: String) throws(ObjectGraphError) -> [ObjectID] {
        let entity = query.entity
        let sql = query.sql(columns: entity.sql.keyColumns)
        let model = store.model
        return try storeRead(purpose: purpose, facts: query.facts) { connection, _ in
            var ids: [ObjectID] = []
            try connection.query(sql, query.arguments) { row in ids.append(entity.objectID(row, model: model)) }
            return ids
        }
    }

    /// Registers (or finds) the object for a fetched row and caches the
    /// row; with `fulfill`, a fault gets the row's values (no fault fires).
    func register(_ id: ObjectID, snapshot: RowSnapshot, fulfill: Bool) -> ManagedObject {
        let object: ManagedObject
        if let registeredObject = registered[id]?.object {
            object = registeredObject
            if usesRowCache { rowCache.store(snapshot, for: id) }
        } else if usesRowCache {
            // A new object: its registration and its row in one step of the
            // row cache.
            object = makeObject(id)
            rowCache.register(id, storing: snapshot)
        } else {
            object = registerFault(id)
        }
        if fulfill, case .fault = object.state {
            object.load(snapshot)
            // Its first typed read decodes in place (a fetch that tracks the
            // use of its objects withdraws this when it marks them).
            if !checksConcurrency, object.storedUnusedFetchRun == 0 { object.typedFields.grantReadable() }
        }
        return object
    }

    /// Loads the rows of a page of IDs in one SELECT; objects come back with
    /// their values, in the order of `ids`.
    func loadRows(_ ids: [ObjectID], entity: EntityDescription, purpose: String) throws(ObjectGraphError) -> [ManagedObject] {
        let model = store.model
        let loaded: [ObjectID: ManagedObject] = try storeRead(purpose: purpose, facts: .keyLookup(entity.name)) { connection, generation in
            var loaded: [ObjectID: ManagedObject] = [:]
            try connection.query(entity.sql.selectRows, [KeyList.argument(ids)]) { row in
                let id = entity.objectID(row, model: model)
                let snapshot = RowSnapshot.read(row, entity: id.entity, model: model, generation: generation)
                loaded[id] = register(id, snapshot: snapshot, fulfill: true)
            }
            return loaded
        }
        return ids.map { loaded[$0] ?? object(with: $0) }
    }

    /// Applies the context's unsaved changes to a fetch's result: deleted
    /// objects leave, updated and inserted ones are evaluated in memory,
    /// then sort, offset and limit are applied in memory.
    private func mergePending<Object>(_ objects: [ManagedObject], _ request: FetchRequest<Object>, _ entity: EntityDescription)
        throws(ObjectGraphError) -> [ManagedObject]
    {
        let evaluator = self.evaluator()
        func matches(_ object: ManagedObject) throws(ObjectGraphError) -> Bool {
            guard let predicate = request.predicate else { return true }
            do {
                return try evaluator.evaluate(predicate, on: object)
            } catch let error as ObjectGraphError {
                throw error
            } catch {
                throw .invalidPredicate("\(error)")
            }
        }
        var result = objects.filter { !$0.isDeletedFlag }
        var present = Set(result.map(\.objectID))
        let included = { (object: ManagedObject) in
            request.includesSubentities ? object.entity.isKind(of: entity) : object.entity === entity
        }
        for object in updatedObjects where included(object) {
            let match = try matches(object)
            if match, !present.contains(object.objectID) {
                result.append(object)
                present.insert(object.objectID)
            } else if !match, present.contains(object.objectID) {
                result.removeAll { $0 === object }
                present.remove(object.objectID)
            }
        }
        for object in insertedObjects where included(object) && !present.contains(object.objectID) {
            if try matches(object) { result.append(object) }
        }
        if !request.sortKeys.isEmpty {
            result = try sorted(result, by: request.sortKeys)
        }
        if request.fetchOffset > 0 { result = Array(result.dropFirst(request.fetchOffset)) }
        if request.fetchLimit > 0 { result = Array(result.prefix(request.fetchLimit)) }
        return result
    }

    /// Sorts objects in memory with the same order SQLite gives (nil first
    /// ascending, text by bytes), ties broken by primary key.
    func sorted(_ objects: [ManagedObject], by keys: [SortKey]) throws(ObjectGraphError) -> [ManagedObject] {
        var keyed: [(ManagedObject, [Value])] = []
        for object in objects {
            var values: [Value] = []
            for key in keys {
                switch try read(object, keyPath: key.keyPath) {
                case .value(let value): values.append(value)
                case .object(let id): values.append(id.map { .integer($0.primaryKey) } ?? .null)
                case .list: values.append(.null)
                }
            }
            keyed.append((object, values))
        }
        keyed.sort { lhs, rhs in
            for (index, key) in keys.enumerated() {
                let order = ValueComparison.ascending(lhs.1[index], rhs.1[index])
                if order != 0 { return key.ascending ? order < 0 : order > 0 }
            }
            return lhs.0.objectID.primaryKey < rhs.0.objectID.primaryKey
        }
        return keyed.map(\.0)
    }
}
