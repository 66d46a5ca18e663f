/// Prefetching (`relationshipKeyPathsForPrefetching`): loading the
/// destinations of relationships for all the fetched objects at once.
///
/// Queries per step of a key path, whatever the number of objects (the keys
/// of the sources are bound as one JSON array):
/// - to-one: one SELECT of the destination rows not loaded yet;
/// - one-to-many: one SELECT of the destination rows by foreign key;
/// - many-to-many: one SELECT of the join table's (source, destination)
///   pairs, then one SELECT of each distinct destination row not loaded yet
///   (about twice as fast as one join returning a row per pair).
/// A step whose sources are empty, or whose destinations are all loaded,
/// runs fewer queries. The sources come back with their values, the
/// destinations too, and the relationships are loaded.
extension ObjectContext {
    /// The relationship steps of each key path, checked against the model:
    /// a key that is not a relationship is an error, not a silent no-op.
    func prefetchSteps(_ keyPaths: [String], from entity: EntityDescription) throws(ObjectGraphError) -> [[RelationshipDescription]] {
        var steps: [[RelationshipDescription]] = []
        for keyPath in keyPaths {
            var current = entity
            var path: [RelationshipDescription] = []
            for component in keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
                guard let relationship = current.relationship(named: component) else {
                    let what = current.attribute(named: component) != nil ? "an attribute" : "not a key"
                    throw .invalidFetchRequest(
                        "prefetch key path \"\(keyPath)\": \(current.name).\(component) is \(what), not a relationship")
                }
                path.append(relationship)
                current = store.model.destination(of: relationship)
            }
            steps.append(path)
        }
        return steps
    }

    /// - Parameter origin: where the sources came from (the fetch): the
    ///   destinations of each step come from there through the key path.
    func prefetch(_ paths: [[RelationshipDescription]], from sources: [ManagedObject], origin: ObjectOrigin = .none)
        throws(ObjectGraphError)
    {
        // Each distinct prefix is prefetched once: "people" and
        // "people.selfies" share their first step.
        var done: [String: [ManagedObject]] = [:]
        for path in paths {
            var level = sources
            var levelOrigin = origin
            var prefix = ""
            for relationship in path {
                prefix += "/\(relationship.destinationIndex).\(relationship.name)"
                levelOrigin = self.origin(through: relationship, from: levelOrigin)
                if let destinations = done[prefix] {
                    level = destinations
                    continue
                }
                let sourcesOfStep = level
                level = try registering(from: levelOrigin) { () throws(ObjectGraphError) in try prefetch(relationship, from: sourcesOfStep) }
                done[prefix] = level
            }
        }
    }

    /// Prefetches one relationship of `sources`; returns the distinct
    /// destinations, in key order.
    private func prefetch(_ relationship: RelationshipDescription, from sources: [ManagedObject]) throws(ObjectGraphError)
        -> [ManagedObject]
    {
        guard !sources.isEmpty else { return [] }
        let destination = store.model.destination(of: relationship)
        let purpose = "prefetch \(sources[0].entity.name).\(relationship.name)"
        switch relationship.sql.prefetch {
        case .destinationRowsByKey:
            var ids = Set<ObjectID>()
            for source in sources {
                try fulfill(source)
                if let id = try toOneID(source, relationship) { ids.insert(id) }
            }
            let loaded = try loadMissing(ids.sorted(), of: destination, purpose: purpose)
            var tally = PrefetchTally()
            for source in sources {
                if case .toOne(let id?, nil) = source.slots[relationship.index] {
                    source.slots[relationship.index] = .toOne(id, loaded[id])
                    markPrefetched(source, relationship)
                    tally.add(source.entity)
                }
            }
            note(tally, relationship)
            return ids.sorted().compactMap { loaded[$0] }

        case .destinationRowsByForeignKey(let sql):
            let inverseIndex = relationship.inverseIndex!
            let model = store.model
            let groups: [Int64: [ManagedObject]] = try storeRead(purpose: purpose, facts: .keyLookup(destination.name)) {
                connection, generation in
                var groups: [Int64: [ManagedObject]] = [:]
                try connection.query(sql, [KeyList.argument(sources.map(\.objectID))]) { row in
                    let id = destination.objectID(row, model: model)
                    let snapshot = RowSnapshot.read(row, entity: id.entity, model: model, generation: generation)
                    let object = register(id, snapshot: snapshot, fulfill: true)
                    if let owner = snapshot.toOne[inverseIndex] { groups[owner.primaryKey, default: []].append(object) }
                }
                return groups
            }
            var all: [ManagedObject] = []
            var loaded = PrefetchTally()
            for source in sources {
                let objects = groups[source.objectID.primaryKey] ?? []
                if setLoaded(source, relationship, objects) { loaded.add(source.entity) }
                all += objects
            }
            note(loaded, relationship)
            return all.sorted { $0.objectID < $1.objectID }

        case .keyPairs(let sql):
            // (source, destination) pairs, ordered by source then destination.
            // The destinations' entities, when their table is shared by a
            // hierarchy (a third column).
            let shared = destination.sql.hasEntityColumn
            let model = store.model
            let (sourceKeys, targetKeys, targetEntities): ([Int64], [Int64], [Int64: EntityDescription]) = try storeRead(
                purpose: purpose
            ) { connection, _ in
                var sourceKeys: [Int64] = []
                var targetKeys: [Int64] = []
                var targetEntities: [Int64: EntityDescription] = [:]
                try connection.query(sql, [KeyList.argument(sources.map(\.objectID))]) { row in
                    sourceKeys.append(row.int64(0))
                    targetKeys.append(row.int64(1))
                    if shared { targetEntities[row.int64(1)] = model.entity(code: row.int64(2), kindOf: destination) }
                }
                return (sourceKeys, targetKeys, targetEntities)
            }
            // The distinct destination keys, in order.
            let distinctKeys = DistinctKeys.sorted(targetKeys)
            let distinct = distinctKeys.map { ObjectID(entity: targetEntities[$0] ?? destination, primaryKey: $0) }
            let loaded = try loadMissing(distinct, of: destination, purpose: purpose)
            // Keys to objects through tables, not a hash per pair.
            var targets = KeyTable<ManagedObject>(keys: distinct.lazy.map(\.primaryKey))
            for (id, object) in loaded { targets[id.primaryKey] = object }
            var bySource = KeyTable<[ManagedObject]>(keys: sources.lazy.map(\.objectID.primaryKey))
            var start = 0
            while start < sourceKeys.count {
                let key = sourceKeys[start]
                var end = start
                var objects: [ManagedObject] = []
                while end < sourceKeys.count, sourceKeys[end] == key {
                    if let object = targets[targetKeys[end]] { objects.append(object) }
                    end += 1
                }
                bySource[key] = objects
                start = end
            }
            var tally = PrefetchTally()
            for source in sources {
                if setLoaded(source, relationship, bySource[source.objectID.primaryKey] ?? []) { tally.add(source.entity) }
            }
            note(tally, relationship)
            return distinct.compactMap { loaded[$0] }
        }
    }

    /// The objects for `ids`, loading in one SELECT the rows of those that
    /// are not loaded in this context.
    private func loadMissing(_ ids: [ObjectID], of entity: EntityDescription, purpose: String) throws(ObjectGraphError)
        -> [ObjectID: ManagedObject]
    {
        var objects: [ObjectID: ManagedObject] = [:]
        var missing: [ObjectID] = []
        for id in ids {
            let object = self.object(with: id)
            objects[id] = object
            if case .fault = object.state { missing.append(id) }
        }
        if !missing.isEmpty { _ = try loadRows(missing, entity: entity, purpose: purpose) }
        return objects
    }

    /// Loads a to-many slot that is still a fault (a loaded one may hold
    /// unsaved changes) and caches its IDs; returns whether it did.
    private func setLoaded(_ source: ManagedObject, _ relationship: RelationshipDescription, _ objects: [ManagedObject]) -> Bool {
        guard case .fault = source.slots[relationship.index] else { return false }
        source.slots[relationship.index] = .toMany(objects)
        markPrefetched(source, relationship)
        if usesRowCache { rowCache.storeToMany(objects.map(\.objectID), for: source.objectID, relationship: relationship.index) }
        return true
    }

    /// Marks `relationship` of `source` loaded by a prefetch and not read
    /// since (``ManagedObject/unreadPrefetches``; the first 64 relationships).
    private func markPrefetched(_ source: ManagedObject, _ relationship: RelationshipDescription) {
        if relationship.index < 64 { source.unreadPrefetches |= 1 << UInt64(relationship.index) }
    }

    /// Adds a step's loaded sources to the prefetch usage (for the
    /// unused-prefetch insight): one entry per entity, not one per source.
    private func note(_ tally: PrefetchTally, _ relationship: RelationshipDescription) {
        guard relationship.index < 64 else { return }
        for (entity, count) in tally.counts {
            prefetchUsage["\(entity.name).\(relationship.name)", default: (0, 0, currentCallSite)].prefetched += count
        }
    }
}
