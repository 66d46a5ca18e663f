/// Key-value access (throwing) and typed access (for subclasses' properties).
extension ManagedObject {
    // MARK: Key-value access

    /// The value of an attribute; fires the fault.
    public final func value(forKey key: String) throws(ObjectGraphError) -> Value {
        try usableContext().attributeValue(self, key)
    }

    /// Sets an attribute. The value must fit the attribute's type (an
    /// integer converts to a double, never the other way with a loss).
    public final func setValue(_ value: Value, forKey key: String) throws(ObjectGraphError) {
        try usableContext().setAttribute(self, key, value)
    }

    /// The value at a key path through to-one relationships (`owner.name`);
    /// a to-one at the end gives the destination's primary key.
    public final func value(forKeyPath keyPath: String) throws(ObjectGraphError) -> Value {
        switch try usableContext().read(self, keyPath: keyPath) {
        case .value(let value): value
        case .object(let id): id.map { .integer($0.primaryKey) } ?? .null
        }
    }

    /// The destination of a to-one relationship.
    public final func object(forKey key: String) throws(ObjectGraphError) -> ManagedObject? {
        let context = try usableContext()
        return try context.toOne(self, context.relationship(self, key, toMany: false))
    }

    /// Sets a to-one relationship; the inverse follows.
    public final func setObject(_ object: ManagedObject?, forKey key: String) throws(ObjectGraphError) {
        try usableContext().setToOne(self, key, object)
    }

    /// The destinations of a to-many relationship, in primary-key order;
    /// fires the relationship fault.
    public final func objects(forKey key: String) throws(ObjectGraphError) -> [ManagedObject] {
        let context = try usableContext()
        return try context.toMany(self, context.relationship(self, key, toMany: true))
    }

    /// Replaces the destinations of a to-many relationship; inverses follow.
    public final func setObjects(_ objects: [ManagedObject], forKey key: String) throws(ObjectGraphError) {
        try usableContext().setToMany(self, key, objects)
    }

    /// Adds one destination to a to-many relationship.
    public final func addObject(_ object: ManagedObject, forKey key: String) throws(ObjectGraphError) {
        try usableContext().addToMany(self, key, object, adding: true)
    }

    /// Removes one destination from a to-many relationship.
    public final func removeObject(_ object: ManagedObject, forKey key: String) throws(ObjectGraphError) {
        try usableContext().addToMany(self, key, object, adding: false)
    }

    /// Fires the fault now, reporting a deleted row or an unusable object
    /// as an error.
    public final func fireFault() throws(ObjectGraphError) {
        try usableContext().fulfill(self)
    }

    private func usableContext() throws(ObjectGraphError) -> ObjectContext {
        if case .invalidated(let reason) = state { throw .objectInvalidated(objectID, reason: reason) }
        guard let context = _context else { throw .objectInvalidated(objectID, reason: "its context was released") }
        return context
    }

    // MARK: Typed access

    /// A typed attribute, for subclasses' properties. A failure stops the
    /// program with a message naming the object, the key and the cause.
    public final subscript<T: AttributeValue>(attribute key: String) -> T {
        get {
            let value = typed(key) { () throws(ObjectGraphError) in try self.value(forKey: key) }
            guard let typed = T(attributeValue: value) else {
                fail(key, "holds \(value.typeName) \(value), which is not a \(T.self)")
            }
            return typed
        }
        set {
            typed(key) { () throws(ObjectGraphError) in try self.setValue(newValue.attributeValue, forKey: key) }
        }
    }

    /// A typed to-one relationship.
    public final subscript<T: ManagedObject>(toOne key: String) -> T? {
        get {
            let object = typed(key) { () throws(ObjectGraphError) in try self.object(forKey: key) }
            guard let object else { return nil }
            guard let typed = object as? T else { fail(key, "holds a \(type(of: object)), not a \(T.self)") }
            return typed
        }
        set {
            typed(key) { () throws(ObjectGraphError) in try self.setObject(newValue, forKey: key) }
        }
    }

    /// A typed to-many relationship, in primary-key order.
    public final subscript<T: ManagedObject>(toMany key: String) -> [T] {
        get {
            let objects = typed(key) { () throws(ObjectGraphError) in try self.objects(forKey: key) }
            return objects.map { object in
                guard let typed = object as? T else { fail(key, "holds a \(type(of: object)), not a \(T.self)") }
                return typed
            }
        }
        set {
            typed(key) { () throws(ObjectGraphError) in try self.setObjects(newValue, forKey: key) }
        }
    }

    private func typed<R>(_ key: String, _ body: () throws(ObjectGraphError) -> R) -> R {
        do {
            return try body()
        } catch {
            fail(key, error.description)
        }
    }

    private func fail(_ key: String, _ reason: String) -> Never {
        fatalError("Faultline: \(objectID.entityName).\(key) of \(objectID): \(reason)")
    }
}
