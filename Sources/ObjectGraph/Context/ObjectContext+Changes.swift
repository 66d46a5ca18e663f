/// Inserting, changing and deleting objects. Both sides of a relationship
/// are kept consistent in memory (inverse maintenance), which loads the
/// relationships involved.
extension ObjectContext {
    /// Inserts a new object of an entity, with its attributes' defaults. Its
    /// primary key, and so its ID, is final at once.
    @discardableResult
    public func insert(entityName: String) throws(ObjectGraphError) -> ManagedObject {
        ConcurrencyGuard.check(self, "insert(entityName: \(entityName))")
        let entity = try store.model.entity(entityName)
        guard !entity.isAbstract else { throw .abstractEntity(entity.name) }
        let id = ObjectID(entity: entity, primaryKey: store.allocatePrimaryKeys(for: entity))
        let object = registerFault(id)
        object.values = entity.attributes.map(\.defaultValue)
        object.slots = RelationshipSlots(entity.relationships.map { $0.isToMany ? .toMany([]) : .toOne(nil, nil) })
        object.state = .loaded
        object.isInsertedFlag = true
        inserted[id] = object
        object.awakeFromInsert()
        return object
    }

    /// Inserts a new object of the entity a class names.
    public func insert<T: EntityNamed>(_ type: T.Type) throws(ObjectGraphError) -> T {
        let object = try insert(entityName: T.entityName)
        guard let typed = object as? T else {
            throw .typeMismatch(entity: T.entityName, key: "class", expected: "\(T.self)", got: "\(Swift.type(of: object))")
        }
        return typed
    }

    /// Marks an object deleted and applies its relationships' delete rules
    /// now: `nullify` removes it from its destinations, `cascade` deletes
    /// them, `deny` refuses (nothing changes), `noAction` leaves them (join
    /// rows of a many-to-many still go). Deleting an unsaved object forgets it.
    public func delete(_ object: ManagedObject) throws(ObjectGraphError) {
        ConcurrencyGuard.check(self, "delete(\(object.objectID))")
        try checkUsable(object)
        object.noteUse()
        guard !object.isDeletedFlag else { return }
        // The object deleted is the application's to load; what its delete
        // rules load is the engine's.
        try fulfill(object)
        try asEngineWork(.deleteRule) { () throws(ObjectGraphError) in try applyDeleteRules(object) }
        let id = object.objectID
        if object.isInsertedFlag {
            unregister(object, reason: "it was deleted before it was saved")
            return
        }
        updated[id] = nil
        deleted[id] = object
    }

    /// Refuses a delete a `deny` rule forbids, then applies the other rules.
    private func applyDeleteRules(_ object: ManagedObject) throws(ObjectGraphError) {
        let entity = object.entity
        for relationship in entity.relationships where relationship.deleteRule == .deny {
            let empty = relationship.isToMany
                ? try toMany(object, relationship).isEmpty
                : try toOneID(object, relationship) == nil
            if !empty { throw .deleteDenied(object: object.objectID, key: relationship.name) }
        }
        object.isDeletedFlag = true
        for relationship in entity.relationships {
            let destinations = relationship.isToMany
                ? try toMany(object, relationship)
                : (try toOne(object, relationship)).map { [$0] } ?? []
            switch relationship.deleteRule {
            case .nullify, .deny:
                for destination in destinations { try unlink(object, relationship, destination) }
            case .cascade:
                for destination in destinations {
                    try unlink(object, relationship, destination)
                    try delete(destination)
                }
            case .noAction:
                if let table = relationship.sql.joinTable {
                    for destination in destinations {
                        joinChanges.remove(pair(object, relationship, destination), in: table)
                    }
                }
            }
        }
    }

    // MARK: Attributes

    func setAttribute(_ object: ManagedObject, _ key: String, _ value: Value) throws(ObjectGraphError) {
        try checkUsable(object)
        try fulfill(object)
        guard let index = object.entity.attributeIndex[key] else {
            throw .unknownKey(entity: object.entity.name, key: key)
        }
        let attribute = object.entity.attributes[index]
        guard attribute.derivation == nil else { throw .derivedAttribute(entity: object.entity.name, key: key) }
        guard let converted = value.converted(to: attribute.type) else {
            throw .typeMismatch(entity: object.entity.name, key: key, expected: attribute.type.rawValue, got: value.typeName)
        }
        guard object.values[index] != converted else { return }
        object.replaceValue(at: index, with: converted)
        markChanged(object, key)
    }

    func markChanged(_ object: ManagedObject, _ key: String) {
        object.changedKeys.insert(key)
        if !object.isInsertedFlag, !object.isDeletedFlag {
            updated[object.objectID] = object
        }
    }

    // MARK: Relationships

    // The object changed is loaded as the application's read (as setting
    // an attribute loads it); what keeping both sides in step loads (the
    // old and new destinations, their inverse lists, the list changed) is
    // the engine's (``EngineWork/inverse``).

    func setToOne(_ object: ManagedObject, _ key: String, _ destination: ManagedObject?) throws(ObjectGraphError) {
        try checkUsable(object)
        let relationship = try relationship(object, key, toMany: false)
        if let destination { try checkDestination(destination, of: relationship, in: object) }
        try fulfill(object)
        try asEngineWork(.inverse) { () throws(ObjectGraphError) in
            let current = try toOne(object, relationship)
            guard current !== destination else { return }
            if let destination {
                try link(object, relationship, destination)
            } else if let current {
                try unlink(object, relationship, current)
            }
        }
    }

    func setToMany(_ object: ManagedObject, _ key: String, _ destinations: [ManagedObject]) throws(ObjectGraphError) {
        try checkUsable(object)
        let relationship = try relationship(object, key, toMany: true)
        for destination in destinations { try checkDestination(destination, of: relationship, in: object) }
        try fulfill(object)
        try asEngineWork(.inverse) { () throws(ObjectGraphError) in
            let wanted = Set(destinations.map(\.objectID))
            for current in try toMany(object, relationship) where !wanted.contains(current.objectID) {
                try unlink(object, relationship, current)
            }
            for destination in destinations { try link(object, relationship, destination) }
        }
    }

    func addToMany(_ object: ManagedObject, _ key: String, _ destination: ManagedObject, adding: Bool) throws(ObjectGraphError) {
        try checkUsable(object)
        let relationship = try relationship(object, key, toMany: true)
        try checkDestination(destination, of: relationship, in: object)
        try fulfill(object)
        try asEngineWork(.inverse) { () throws(ObjectGraphError) in
            if adding {
                try link(object, relationship, destination)
            } else {
                try unlink(object, relationship, destination)
            }
        }
    }

    private func checkDestination(_ destination: ManagedObject, of relationship: RelationshipDescription, in object: ManagedObject)
        throws(ObjectGraphError)
    {
        try checkUsable(destination)
        guard destination.entity.isKind(of: store.model.destination(of: relationship)) else {
            throw .typeMismatch(
                entity: object.entity.name, key: relationship.name, expected: "\(relationship.destinationName) object",
                got: "\(destination.entity.name) object")
        }
        if destination.isDeletedFlag {
            throw .objectInvalidated(destination.objectID, reason: "it is deleted and cannot be related to \(object.objectID)")
        }
    }

    /// Makes `a.relationship` contain (or point to) `b`, and the inverse
    /// point back, detaching whatever a to-one pointed to before.
    func link(_ a: ManagedObject, _ relationship: RelationshipDescription, _ b: ManagedObject) throws(ObjectGraphError) {
        if relationship.isToMany {
            guard try insert(b, into: a, relationship) else { return }
        } else {
            let old = try toOne(a, relationship)
            if old === b { return }
            if let old { try unlink(a, relationship, old) }
            try setSlot(a, relationship, b)
        }
        if let inverse = store.model.inverse(of: relationship) {
            if inverse.isToMany {
                _ = try insert(a, into: b, inverse)
            } else {
                let other = try toOne(b, inverse)
                if other !== a {
                    if let other { try unlink(b, inverse, other) }
                    try setSlot(b, inverse, a)
                }
            }
        }
        if let table = relationship.sql.joinTable {
            joinChanges.add(pair(a, relationship, b), in: table)
        }
    }

    /// Removes `b` from `a.relationship` and `a` from the inverse.
    func unlink(_ a: ManagedObject, _ relationship: RelationshipDescription, _ b: ManagedObject) throws(ObjectGraphError) {
        if relationship.isToMany {
            guard try remove(b, from: a, relationship) else { return }
        } else {
            guard try toOne(a, relationship) === b else { return }
            try setSlot(a, relationship, nil)
        }
        if let inverse = store.model.inverse(of: relationship) {
            if inverse.isToMany {
                _ = try remove(a, from: b, inverse)
            } else if try toOne(b, inverse) === a {
                try setSlot(b, inverse, nil)
            }
        }
        if let table = relationship.sql.joinTable {
            joinChanges.remove(pair(a, relationship, b), in: table)
        }
    }

    /// The join row relating `a` to `b` through `relationship`, a many-to-many.
    func pair(_ a: ManagedObject, _ relationship: RelationshipDescription, _ b: ManagedObject) -> JoinChanges.Pair {
        let row = relationship.sql.joinRow(owner: a.objectID.primaryKey, destination: b.objectID.primaryKey)
        return JoinChanges.Pair(source: row.source, destination: row.destination, ends: [a.objectID, b.objectID])
    }

    private func setSlot(_ object: ManagedObject, _ relationship: RelationshipDescription, _ destination: ManagedObject?)
        throws(ObjectGraphError)
    {
        try fulfill(object)
        object.slots[relationship.index] = .toOne(destination?.objectID, destination)
        markChanged(object, relationship.name)
    }

    /// Inserts into a to-many slot (kept in primary-key order); false when
    /// already there.
    private func insert(_ destination: ManagedObject, into object: ManagedObject, _ relationship: RelationshipDescription)
        throws(ObjectGraphError) -> Bool
    {
        let key = destination.objectID.primaryKey
        let inserted = try changeToMany(object, relationship) { objects in
            let position = insertionPoint(of: key, in: objects)
            if position < objects.count, objects[position].objectID.primaryKey == key { return false }
            objects.insert(destination, at: position)
            return true
        }
        if inserted { markChanged(object, relationship.name) }
        return inserted
    }

    private func remove(_ destination: ManagedObject, from object: ManagedObject, _ relationship: RelationshipDescription)
        throws(ObjectGraphError) -> Bool
    {
        let key = destination.objectID.primaryKey
        let removed = try changeToMany(object, relationship) { objects in
            let position = insertionPoint(of: key, in: objects)
            guard position < objects.count, objects[position].objectID.primaryKey == key else { return false }
            objects.remove(at: position)
            return true
        }
        if removed { markChanged(object, relationship.name) }
        return removed
    }

    /// Changes a to-many slot's destinations in place. The slot gives up
    /// its array while `change` runs, so that the array is not shared and
    /// an insertion or removal does not copy it: adding N destinations one
    /// by one cost N copies of a growing array (and the releases of every
    /// element of each old copy), quadratic in N.
    private func changeToMany<R>(
        _ object: ManagedObject, _ relationship: RelationshipDescription, _ change: (inout [ManagedObject]) -> R
    ) throws(ObjectGraphError) -> R {
        var objects = try toMany(object, relationship)
        object.slots[relationship.index] = .fault
        defer { object.slots[relationship.index] = .toMany(objects) }
        return change(&objects)
    }

    private func insertionPoint(of key: Int64, in objects: [ManagedObject]) -> Int {
        var low = 0
        var high = objects.count
        while low < high {
            let middle = (low + high) / 2
            if objects[middle].objectID.primaryKey < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
