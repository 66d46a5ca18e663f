import CSQLite
import Foundation
import Probes

/// Batch requests run straight on the store, each in one write
/// transaction, bypassing contexts. Afterwards the row cache forgets the
/// rows they touched (so a refreshed object reads the new values; all of
/// the entity's after an update that only counted its rows), history
/// records them when it is on, and change observers hear of them.
extension Store {
    /// Runs a batch update as one `UPDATE` statement.
    @discardableResult
    public func execute(_ request: BatchUpdateRequest, author: String? = nil, file: String = #fileID, line: Int = #line)
        throws(ObjectGraphError) -> BatchResult
    {
        let entity = try model.entity(request.entityName)
        guard !request.propertiesToUpdate.isEmpty else { throw .invalidBatchRequest("batch update of \(entity.name) sets nothing") }
        var assignments: [BatchSQL.Assignment] = []
        var arguments: [DatabaseValue] = []
        for key in request.propertiesToUpdate.keys.sorted() {
            guard let attribute = entity.attribute(named: key) else { throw .unknownKey(entity: entity.name, key: key) }
            guard attribute.derivation == nil else { throw .derivedAttribute(entity: entity.name, key: key) }
            switch request.propertiesToUpdate[key]! {
            case .value(let value):
                guard let converted = value.converted(to: attribute.type) else {
                    throw .typeMismatch(entity: entity.name, key: key, expected: attribute.type.rawValue, got: value.typeName)
                }
                if converted.isNull, !attribute.isOptional {
                    throw .invalidBatchRequest("batch update of \(entity.name) sets non-optional \(key) to nil")
                }
                assignments.append(.value(column: attribute.column))
                arguments.append(converted.databaseValue)
            case .arithmetic(let source, let op, let operand):
                guard let other = entity.attribute(named: source) else { throw .unknownKey(entity: entity.name, key: source) }
                let numeric: Set<AttributeType> = [.int16, .int32, .int64, .double]
                guard numeric.contains(attribute.type), numeric.contains(other.type) else {
                    throw .typeMismatch(entity: entity.name, key: key, expected: "a number for \(source) \(op.rawValue) …", got: other.type.rawValue)
                }
                guard let number = operand.converted(to: .double), !number.isNull else {
                    throw .typeMismatch(entity: entity.name, key: key, expected: "a number", got: operand.typeName)
                }
                assignments.append(.arithmetic(column: attribute.column, source: other.column, op))
                arguments.append((operand.converted(to: .int64) ?? number).databaseValue)
            }
        }
        let (matching, conditionArguments) = try rows(of: entity, matching: request.predicate)
        arguments += conditionArguments
        let readsKeys = updateReadsKeys(request.resultType)
        let statement = BatchSQL.update(entity, setting: assignments, matching: matching, returningKeys: readsKeys)
        let bound = arguments
        return try runBatch("update", entity, request.resultType, author: author, CallSite(file: file, line: line)) { connection in
            guard readsKeys else { return (ChangeSet(contextName: "batch update"), try connection.run(statement, bound)) }
            var ids: [ObjectID] = []
            try connection.query(statement, bound) { row in ids.append(entity.objectID(row, model: model)) }
            return (ChangeSet(updated: Set(ids), contextName: "batch update"), nil)
        }
    }

    /// Whether a batch update reads back the keys of the rows it changes
    /// (`RETURNING pk`): when its result lists them, when history records
    /// them, when derived attributes are recomputed for them, or when change
    /// observers hear of them. Otherwise it only counts them, and the row
    /// cache drops every snapshot of the entity: returning the rows cost
    /// SQLite a temporary table of them and the engine a set of their IDs,
    /// two thirds of the instructions of a 500-row update.
    func updateReadsKeys(_ resultType: BatchResultType) -> Bool {
        if case .objectIDs = resultType { return true }
        return configuration.persistentHistoryTracking || model.entities.contains { !$0.derivedAttributes.isEmpty }
            || hasChangeObservers
    }

    /// Runs a batch insert in one transaction (an upsert on the entity's
    /// first uniqueness constraint, when it has one).
    @discardableResult
    public func execute(_ request: BatchInsertRequest, author: String? = nil, file: String = #fileID, line: Int = #line)
        throws(ObjectGraphError) -> BatchResult
    {
        let entity = try model.entity(request.entityName)
        guard !entity.isAbstract else { throw .abstractEntity(entity.name) }
        var rows: [[String: Value]] = []
        switch request.source {
        case .objects(let objects):
            rows = objects
        case .handler(let handler):
            while true {
                var row: [String: Value] = [:]
                if handler(&row) { break }
                rows.append(row)
            }
        }
        var prepared: [[DatabaseValue]] = []
        for (number, row) in rows.enumerated() {
            for key in row.keys {
                guard let attribute = entity.attribute(named: key) else {
                    throw .invalidBatchRequest("batch insert into \(entity.name), row \(number + 1): no attribute \(key)")
                }
                guard attribute.derivation == nil else { throw .derivedAttribute(entity: entity.name, key: key) }
            }
            var values: [DatabaseValue] = []
            for attribute in entity.attributes {
                let value = row[attribute.name] ?? attribute.defaultValue
                guard let converted = value.converted(to: attribute.type) else {
                    throw .invalidBatchRequest(
                        "batch insert into \(entity.name), row \(number + 1): \(attribute.name) expects \(attribute.type.rawValue), got \(value.typeName)")
                }
                if converted.isNull, !attribute.isOptional {
                    throw .invalidBatchRequest("batch insert into \(entity.name), row \(number + 1): no value for non-optional \(attribute.name)")
                }
                values.append(converted.databaseValue)
            }
            prepared.append(values)
        }
        let statement = BatchSQL.insert(entity)
        let first = allocatePrimaryKeys(for: entity, count: prepared.count)
        return try runBatch("insert", entity, request.resultType, author: author, CallSite(file: file, line: line)) { connection in
            var inserted = Set<ObjectID>()
            var updated = Set<ObjectID>()
            for (offset, values) in prepared.enumerated() {
                let key = first + Int64(offset)
                try connection.query(statement, [.integer(key)] + values) { row in
                    let id = entity.objectID(row, model: model)
                    if id.primaryKey == key { inserted.insert(id) } else { updated.insert(id) }
                }
            }
            return (ChangeSet(inserted: inserted, updated: updated, contextName: "batch insert"), nil)
        }
    }

    /// Runs a batch delete in one transaction, with join rows and delete rules.
    @discardableResult
    public func execute(_ request: BatchDeleteRequest, author: String? = nil, file: String = #fileID, line: Int = #line)
        throws(ObjectGraphError) -> BatchResult
    {
        let entity = try model.entity(request.entityName)
        let (matching, arguments) = try rows(of: entity, matching: request.predicate)
        let query = BatchSQL.selectKeys(entity, matching: matching)
        let bound = arguments
        let model = self.model
        return try runBatch("delete", entity, request.resultType, author: author, CallSite(file: file, line: line)) { connection in
            var ids: [ObjectID] = []
            try connection.query(query, bound) { row in ids.append(entity.objectID(row, model: model)) }
            var changes = ChangeSet(contextName: "batch delete")
            try deleteRows(ids, connection, &changes)
            return (changes, nil)
        }
    }

    /// The FROM and WHERE of the rows of `entity` (its subentities'
    /// included) that `predicate` matches, and the values to bind; nil when
    /// every row of the table is one and there is no predicate.
    private func rows(of entity: EntityDescription, matching predicate: ObjectPredicate?) throws(ObjectGraphError)
        -> ((from: String, condition: String)?, [DatabaseValue])
    {
        var builder = QueryBuilder(model: model, root: entity)
        let condition = try predicate.map { predicate throws(ObjectGraphError) in try builder.compile(predicate) }
        let family = entity.sql.familyCondition
        switch (family, condition) {
        case (nil, nil): return (nil, [])
        case (let family?, nil): return ((builder.from, family), [])
        case (nil, let condition?): return ((builder.from, condition), builder.arguments)
        case (let family?, let condition?): return ((builder.from, "\(family) AND \(condition)"), builder.arguments)
        }
    }

    /// The IDs of rows of `entity`'s table by key, each of its own entity:
    /// read from the table when `entity` has subentities (a row may be of
    /// any of them), `entity`'s otherwise.
    private func objectIDs(_ keys: [Int64], of entity: EntityDescription, _ connection: Connection) throws -> [ObjectID] {
        guard entity.hasSubentities, !keys.isEmpty else { return keys.map { ObjectID(entity: entity, primaryKey: $0) } }
        var ids: [ObjectID] = []
        let list = KeyList.argument(keys.map { ObjectID(entity: entity, primaryKey: $0) })
        try connection.query(entity.sql.selectKeysOfRows, [list]) { row in ids.append(entity.objectID(row, model: model)) }
        return ids
    }

    /// Deletes rows and applies delete rules, depth first, one entity at a
    /// time: an object's own entity decides which relationships it has.
    private func deleteRows(_ ids: [ObjectID], _ connection: Connection, _ changes: inout ChangeSet) throws {
        var byEntity: [Int: [Int64]] = [:]
        for id in ids where !changes.deleted.contains(id) { byEntity[id.entity.index, default: []].append(id.primaryKey) }
        for (index, keys) in byEntity.sorted(by: { $0.key < $1.key }) {
            try deleteRows(keys, of: model.entities[index], connection, &changes)
        }
    }

    /// Deletes rows of exactly `entity` and applies its delete rules.
    private func deleteRows(_ keys: [Int64], of entity: EntityDescription, _ connection: Connection, _ changes: inout ChangeSet) throws {
        let pending = keys.filter { !changes.deleted.contains(ObjectID(entity: entity, primaryKey: $0)) }
        guard !pending.isEmpty else { return }
        for key in pending { changes.deleted.insert(ObjectID(entity: entity, primaryKey: key)) }
        let list = KeyList.argument(pending.map { ObjectID(entity: entity, primaryKey: $0) })
        for relationship in entity.relationships {
            let destination = model.destination(of: relationship)
            switch relationship.sql.deletion {
            case .joinRows(let destinations, let delete):
                var partners: [Int64] = []
                try connection.query(destinations, [list]) { partners.append($0.int64(0)) }
                if relationship.deleteRule == .deny, !partners.isEmpty {
                    throw ObjectGraphError.deleteDenied(object: ObjectID(entity: entity, primaryKey: pending[0]), key: relationship.name)
                }
                try connection.run(delete, [list])
                let ids = try objectIDs(partners, of: destination, connection)
                if relationship.deleteRule == .cascade {
                    try deleteRows(ids, connection, &changes)
                } else {
                    changes.updated.formUnion(ids.filter { !changes.deleted.contains($0) })
                }
            case .keyInOwners(let destinations):
                // A to-one whose inverse is to-many (or none): the key is in
                // the deleted row; cascade deletes the destinations, and
                // their to-many lists change.
                var targets: [Int64] = []
                try connection.query(destinations, [list]) { targets.append($0.int64(0)) }
                switch relationship.deleteRule {
                case .deny where !targets.isEmpty:
                    throw ObjectGraphError.deleteDenied(object: ObjectID(entity: entity, primaryKey: pending[0]), key: relationship.name)
                case .cascade:
                    try deleteRows(try objectIDs(targets, of: destination, connection), connection, &changes)
                default:
                    if model.inverse(of: relationship) != nil {
                        changes.updated.formUnion(try objectIDs(targets, of: destination, connection).filter { !changes.deleted.contains($0) })
                    }
                }
            case .keyInDestinations(let holdersSQL, let nullify):
                // A to-many by foreign key, or the other side of a one-to-one:
                // the destinations hold this object's key.
                var holders: [Int64] = []
                try connection.query(holdersSQL, [list]) { holders.append($0.int64(0)) }
                guard !holders.isEmpty else { continue }
                switch relationship.deleteRule {
                case .deny:
                    throw ObjectGraphError.deleteDenied(object: ObjectID(entity: entity, primaryKey: pending[0]), key: relationship.name)
                case .cascade:
                    try deleteRows(try objectIDs(holders, of: destination, connection), connection, &changes)
                case .nullify:
                    let ids = try objectIDs(holders, of: destination, connection)
                    try connection.run(nullify, [list])
                    changes.updated.formUnion(ids.filter { !changes.deleted.contains($0) })
                case .noAction:
                    break
                }
            }
        }
        try connection.run(entity.sql.deleteRows, [list])
    }

    /// Runs a batch body in a write transaction with history, row cache
    /// invalidation, events and observers.
    /// Runs `body` in a batch transaction, then tells the row cache, the
    /// instrumentation and the observers. `body` returns the changes, and
    /// the number of rows of `entity` it changed without reading their keys
    /// (nil when the changes list every row).
    private func runBatch(
        _ kind: String, _ entity: EntityDescription, _ resultType: BatchResultType, author: String?, _ site: CallSite,
        _ body: (Connection) throws -> (ChangeSet, unlistedRows: Int?)
    ) throws(ObjectGraphError) -> BatchResult {
        let traced = instrumentation.isOn(.batchRequest)
        let start = traced ? ProbeClock.now() : 0
        let tracking = configuration.persistentHistoryTracking
        let identifier = storeIdentifier
        var changes: ChangeSet
        var direct = ChangeSet()
        var unlistedRows: Int?
        do {
            changes = try inBatchTransaction(site) { connection in
                var changes: ChangeSet
                (changes, unlistedRows) = try body(connection)
                direct = changes
                changes.author = author
                let derived = try DerivedAttributes.update(changes, model: model, on: connection)
                for id in derived.keys where !changes.inserted.contains(id) && !changes.deleted.contains(id) { changes.updated.insert(id) }
                if tracking, !changes.isEmpty {
                    let number = try HistoryRecorder.record(changes, author: author, context: changes.contextName, on: connection)
                    changes.historyToken = HistoryToken(storeIdentifier: identifier, transactionNumber: number)
                }
                return changes
            }
        } catch let error as ObjectGraphError {
            throw error
        } catch let error as SQLiteError {
            throw ObjectContext.saveError(error, object: nil, model: model)
        } catch {
            throw .invalidBatchRequest("\(error)")
        }
        var rows = CommittedRows()
        rows.invalidatedRows = changes.updated
        rows.invalidatedRows.formUnion(changes.deleted)
        rows.invalidatedRows.formUnion(changes.inserted)
        rowCache.apply(rows)
        if unlistedRows != nil { rowCache.removeSnapshots(of: entity) }
        let own = { (ids: Set<ObjectID>) in ids.filter { $0.entity.isKind(of: entity) } }
        let affected = unlistedRows
            ?? [direct.inserted, direct.updated, direct.deleted].reduce(0) { $0 + $1.count { $0.entity.isKind(of: entity) } }
        if traced {
            instrumentation.emit(.batchRequest(BatchRequestEvent(
                start: start, durationNanoseconds: ProbeClock.nanoseconds(since: start), thread: ProbeClock.threadID(), kind: kind,
                entity: entity.name, rowsAffected: affected, callSite: site)))
        }
        if !changes.isEmpty { notifyAfterBatch(changes) }
        switch resultType {
        case .status: return .status(true)
        case .count: return .count(affected)
        case .objectIDs:
            let ids = kind == "delete" ? own(direct.deleted) : own(direct.inserted.union(direct.updated))
            return .objectIDs(ids.sorted())
        }
    }
}

extension ObjectContext {
    /// Brings the context up to date with a batch request's affected IDs:
    /// registered objects among them are refreshed (the next read loads the
    /// new row), deleted ones forgotten.
    public func mergeBatchResult(_ result: BatchResult, deleted: Bool = false) {
        guard let ids = result.objectIDs else { return }
        merge(deleted ? ChangeSet(deleted: Set(ids), contextName: "batch") : ChangeSet(updated: Set(ids), contextName: "batch"))
    }
}

extension Store {
    /// Relates objects in bulk through a relationship, in one transaction:
    /// for a many-to-many one, an `INSERT OR IGNORE` per pair into its join
    /// table; for a one-to-many one, an `UPDATE` of each destination's
    /// foreign key; for a to-one, an `UPDATE` of each owner's foreign key
    /// (and of each destination's, for a one-to-one, whose two sides each
    /// keep one). For building data sets; contexts are
    /// bypassed as by other batch requests (merge the returned change set to
    /// see the new relationships). Derived attributes follow.
    @discardableResult
    public func relate(
        _ pairs: [(ObjectID, ObjectID)], through relationship: String, of entityName: String, file: String = #fileID, line: Int = #line
    ) throws(ObjectGraphError) -> ChangeSet {
        let entity = try model.entity(entityName)
        guard let description = entity.relationship(named: relationship) else {
            throw .unknownKey(entity: entity.name, key: relationship)
        }
        guard let sql = description.sql.relate else {
            throw .invalidBatchRequest("\(entity.name).\(relationship) cannot be related in bulk")
        }
        let destination = model.destination(of: description)
        // A one-to-one's other side keeps its own key: set it too.
        let inverse = description.isToMany ? nil : model.inverse(of: description).flatMap { $0.isToMany ? nil : $0.sql.relate }
        for (a, b) in pairs where !a.entity.isKind(of: entity) || !b.entity.isKind(of: destination) {
            throw .invalidBatchRequest("relate through \(entity.name).\(relationship) needs \(entity.name) and \(destination.name) IDs, got \(a) and \(b)")
        }
        var changes = ChangeSet(contextName: "batch relate")
        changes.updated = Set(pairs.map(\.0)).union(pairs.map(\.1))
        let touched = changes
        let model = self.model
        do {
            try inBatchTransaction(CallSite(file: file, line: line)) { connection in
                for (a, b) in pairs {
                    try connection.run(sql, [.integer(a.primaryKey), .integer(b.primaryKey)])
                    if let inverse { try connection.run(inverse, [.integer(b.primaryKey), .integer(a.primaryKey)]) }
                }
                _ = try DerivedAttributes.update(touched, model: model, on: connection)
            }
        } catch let error as SQLiteError {
            throw .saveFailed(error)
        } catch {
            throw .invalidBatchRequest("\(error)")
        }
        var rows = CommittedRows()
        rows.invalidatedRows = changes.updated
        rowCache.apply(rows)
        notifyAfterBatch(changes)
        return changes
    }
}
