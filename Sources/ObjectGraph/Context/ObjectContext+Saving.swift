import CSQLite
import Probes

/// Saving: every change of the context in one SQLite transaction, all or
/// nothing.
extension ObjectContext {
    /// Writes the context's changes to the store in one transaction and
    /// returns what changed (also sent to the store's change observers).
    ///
    /// Order inside the transaction: inserts, updates (changed columns
    /// only), join-row deletions and insertions, deletes; objects in ID
    /// order. Validation runs first: a non-optional attribute or to-one
    /// without a value is refused before any SQL. When any statement fails
    /// the transaction is rolled back, the store is exactly as before, and
    /// the context keeps its changes.
    @discardableResult
    public func save(file: String = #fileID, line: Int = #line) throws(ObjectGraphError) -> ChangeSet {
        ConcurrencyGuard.check(self, "save()")
        guard hasChanges else { return ChangeSet(contextName: name) }
        try store.checkCancelled()
        let insertedObjects = self.insertedObjects
        let updatedObjects = self.updatedObjects
        let deletedObjects = self.deletedObjects
        try validate(insertedObjects + updatedObjects)
        let site = CallSite(file: file, line: line)
        let traced = instrumentation.isOn(.save)
        let start = traced ? ProbeClock.now() : 0
        func report(_ error: ObjectGraphError?) {
            guard traced else { return }
            instrumentation.emit(.save(SaveEvent(
                start: start, durationNanoseconds: ProbeClock.nanoseconds(since: start), thread: ProbeClock.threadID(), context: name,
                inserted: insertedObjects.count, updated: updatedObjects.count, deleted: deletedObjects.count,
                success: error == nil, error: error?.description ?? "", callSite: site)))
        }
        do {
            let changes = try withCallSite(site) { () throws(ObjectGraphError) in
                try write(insertedObjects, updatedObjects, deletedObjects)
            }
            report(nil)
            advancePinnedGeneration()
            store.notifyObservers(changes)
            instrumentation.contextChanged(name, kind: .save)
            return changes
        } catch {
            report(error)
            throw error
        }
    }

    private func write(_ insertedObjects: [ManagedObject], _ updatedObjects: [ManagedObject], _ deletedObjects: [ManagedObject])
        throws(ObjectGraphError) -> ChangeSet
    {

        var current: ObjectID?
        var changes: ChangeSet
        let model = store.model
        let tracking = store.configuration.persistentHistoryTracking
        let author = transactionAuthor
        let contextName = name
        let identifier = store.storeIdentifier
        let initial = ChangeSet(
            inserted: Set(insertedObjects.map(\.objectID)), updated: Set(updatedObjects.map(\.objectID)),
            deleted: Set(deletedObjects.map(\.objectID)), contextName: name, author: transactionAuthor)
        let joinTables = joinChanges.tables.sorted { $0.key < $1.key }
        do {
            changes = try store.pool.write(purpose: "save", callSite: currentCallSite, { connection in
                var changes = initial
                for object in insertedObjects {
                    current = object.objectID
                    try insertRow(object, connection)
                }
                for object in updatedObjects {
                    current = object.objectID
                    try updateRow(object, connection)
                }
                current = nil
                for (_, changes) in joinTables {
                    for pair in changes.deleted.sorted() {
                        try connection.run(changes.sql.deleteRow, [.integer(pair.source), .integer(pair.destination)])
                    }
                    for pair in changes.inserted.sorted() {
                        try connection.run(changes.sql.insertRow, [.integer(pair.source), .integer(pair.destination)])
                    }
                }
                for object in deletedObjects {
                    current = object.objectID
                    try connection.run(object.entity.sql.deleteRow, [.integer(object.objectID.primaryKey)])
                }
                current = nil
                let derived = try DerivedAttributes.update(changes, model: model, on: connection)
                for id in derived.keys where !changes.inserted.contains(id) { changes.updated.insert(id) }
                if tracking {
                    let number = try HistoryRecorder.record(changes, author: author, context: contextName, on: connection)
                    changes.historyToken = HistoryToken(storeIdentifier: identifier, transactionNumber: number)
                }
                return (changes, derived)
            }, afterCommit: { result, generation in
                let derived = result.1
                // Derived values computed by the store, into the objects
                // that are loaded here; other affected rows leave the cache.
                var stale: [ObjectID] = []
                for (id, values) in derived {
                    if let object = registered[id]?.object, case .loaded = object.state {
                        for (index, value) in values { object.replaceValue(at: index, with: value) }
                    } else {
                        stale.append(id)
                    }
                }
                var rows = committedRows(insertedObjects + updatedObjects, deletedObjects, generation: generation)
                rows.invalidatedRows.formUnion(stale)
                rowCache.apply(rows)
            }).0
        } catch let error as SQLiteError {
            throw Self.saveError(error, object: current, model: model)
        } catch let error as ObjectGraphError {
            throw error
        } catch {
            throw .saveFailed(SQLiteError(extendedResultCode: SQLITE_ERROR, message: "\(error)", path: store.path))
        }

        for object in insertedObjects + updatedObjects {
            object.isInsertedFlag = false
            object.changedKeys = []
        }
        inserted = [:]
        updated = [:]
        joinChanges = JoinChanges()
        for object in deletedObjects {
            unregister(object, reason: "its deletion was saved")
        }
        return changes
    }

    private func validate(_ objects: [ManagedObject]) throws(ObjectGraphError) {
        for object in objects {
            let entity = object.entity
            for attribute in entity.attributes where !attribute.isOptional && object.values[attribute.index].isNull {
                throw .missingValue(object: object.objectID, key: attribute.name)
            }
            for index in entity.toOneIndexes where !entity.relationships[index].isOptional {
                if case .toOne(nil, _) = object.slots[index] {
                    throw .missingValue(object: object.objectID, key: entity.relationships[index].name)
                }
            }
        }
    }

    private func insertRow(_ object: ManagedObject, _ connection: Connection) throws {
        let entity = object.entity
        var arguments: [DatabaseValue] = [.integer(object.objectID.primaryKey)]
        arguments.reserveCapacity(1 + entity.attributes.count + entity.toOneIndexes.count)
        for attribute in entity.attributes {
            arguments.append(object.values[attribute.index].databaseValue)
        }
        for index in entity.toOneIndexes {
            arguments.append(foreignKey(object, index))
        }
        try connection.run(entity.sql.insertRow, arguments)
    }

    private func updateRow(_ object: ManagedObject, _ connection: Connection) throws {
        let entity = object.entity
        var attributes: [Int] = []
        var toOnes: [Int] = []
        var arguments: [DatabaseValue] = []
        for attribute in entity.attributes where object.changedKeys.contains(attribute.name) {
            attributes.append(attribute.index)
            arguments.append(object.values[attribute.index].databaseValue)
        }
        for index in entity.toOneIndexes where object.changedKeys.contains(entity.relationships[index].name) {
            toOnes.append(index)
            arguments.append(foreignKey(object, index))
        }
        guard !arguments.isEmpty else { return }
        arguments.append(.integer(object.objectID.primaryKey))
        try connection.run(entity.sql.updateRow(attributes: attributes, toOnes: toOnes), arguments)
    }

    private func foreignKey(_ object: ManagedObject, _ index: Int) -> DatabaseValue {
        if case .toOne(let id?, _) = object.slots[index] { return .integer(id.primaryKey) }
        return .null
    }

    /// What the row cache keeps after the save: the rows as written, and the
    /// loaded to-many lists of the objects saved.
    private func committedRows(_ written: [ManagedObject], _ deleted: [ManagedObject], generation: UInt64) -> CommittedRows {
        var rows = CommittedRows()
        for object in written {
            let entity = object.entity
            var toOne: [ObjectID?] = []
            if !entity.toOneIndexes.isEmpty { toOne = Array(filledWith: nil, count: entity.relationships.count) }
            for index in entity.toOneIndexes {
                if case .toOne(let id, _) = object.slots[index] { toOne[index] = id }
            }
            rows.snapshots[object.objectID] = RowSnapshot(attributes: object.values, toOne: toOne, generation: generation)
            for relationship in entity.relationships where relationship.isToMany {
                if case .toMany(let objects) = object.slots[relationship.index] {
                    rows.toMany[object.objectID, default: [:]][relationship.index] = objects.map(\.objectID)
                }
            }
        }
        for object in deleted { rows.invalidatedRows.insert(object.objectID) }
        return rows
    }

    /// Names what a failed statement broke, where SQLite says.
    static func saveError(_ error: SQLiteError, object: ObjectID?, model: Model) -> ObjectGraphError {
        let message = error.message
        if error.extendedResultCode == 2067 || error.extendedResultCode == 1555,
            let range = message.range(of: "constraint failed: ")
        {
            let columns = message[range.upperBound...].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            let entity = columns.first.map { String($0.split(separator: ".").first ?? "") } ?? object?.entityName ?? "?"
            let keys = columns.map { String($0.split(separator: ".").last ?? "") }
            return .uniquenessViolation(entity: entity, keys: keys, object: object)
        }
        if error.extendedResultCode == 1299, let object, let range = message.range(of: "constraint failed: ") {
            let key = String(message[range.upperBound...].split(separator: ".").last ?? "")
            return .missingValue(object: object, key: key)
        }
        return .saveFailed(error)
    }
}
