import Probes

/// Key-value access (throwing) and typed access (for subclasses' properties).
extension ManagedObject {
    // MARK: Key-value access

    /// The value of an attribute; fires the fault.
    public final func value(forKey key: String, file: String = #fileID, line: Int = #line) throws(ObjectGraphError) -> Value {
        let context = try usableContext(key)
        return try context.withCallSite(CallSite(file: file, line: line)) { () throws(ObjectGraphError) in
            try context.attributeValue(self, key)
        }
    }

    /// Sets an attribute. The value must fit the attribute's type (an
    /// integer converts to a double, never the other way with a loss).
    public final func setValue(_ value: Value, forKey key: String, file: String = #fileID, line: Int = #line) throws(ObjectGraphError) {
        let context = try usableContext(key)
        try context.withCallSite(CallSite(file: file, line: line)) { () throws(ObjectGraphError) in
            try context.setAttribute(self, key, value)
        }
    }

    /// The value at a key path through to-one relationships (`owner.name`);
    /// a to-one at the end gives the destination's primary key.
    public final func value(forKeyPath keyPath: String, file: String = #fileID, line: Int = #line) throws(ObjectGraphError) -> Value {
        let context = try usableContext(keyPath)
        let operand = try context.withCallSite(CallSite(file: file, line: line)) { () throws(ObjectGraphError) in
            try context.read(self, keyPath: keyPath)
        }
        switch operand {
        case .value(let value): return value
        case .object(let id): return id.map { .integer($0.primaryKey) } ?? .null
        case .list: return .null
        }
    }

    /// The destination of a to-one relationship.
    public final func object(forKey key: String, file: String = #fileID, line: Int = #line) throws(ObjectGraphError) -> ManagedObject? {
        let context = try usableContext(key)
        return try context.withCallSite(CallSite(file: file, line: line)) { () throws(ObjectGraphError) in
            try context.toOne(self, context.relationship(self, key, toMany: false))
        }
    }

    /// Sets a to-one relationship; the inverse follows.
    public final func setObject(_ object: ManagedObject?, forKey key: String, file: String = #fileID, line: Int = #line) throws(ObjectGraphError) {
        let context = try usableContext(key)
        try context.withCallSite(CallSite(file: file, line: line)) { () throws(ObjectGraphError) in
            try context.setToOne(self, key, object)
        }
    }

    /// The destinations of a to-many relationship, in primary-key order;
    /// fires the relationship fault.
    public final func objects(forKey key: String, file: String = #fileID, line: Int = #line) throws(ObjectGraphError) -> [ManagedObject] {
        let context = try usableContext(key)
        return try context.withCallSite(CallSite(file: file, line: line)) { () throws(ObjectGraphError) in
            try context.toMany(self, context.relationship(self, key, toMany: true))
        }
    }

    /// Replaces the destinations of a to-many relationship; inverses follow.
    public final func setObjects(_ objects: [ManagedObject], forKey key: String, file: String = #fileID, line: Int = #line) throws(ObjectGraphError) {
        let context = try usableContext(key)
        try context.withCallSite(CallSite(file: file, line: line)) { () throws(ObjectGraphError) in
            try context.setToMany(self, key, objects)
        }
    }

    /// Adds one destination to a to-many relationship.
    public final func addObject(_ object: ManagedObject, forKey key: String, file: String = #fileID, line: Int = #line) throws(ObjectGraphError) {
        let context = try usableContext(key)
        try context.withCallSite(CallSite(file: file, line: line)) { () throws(ObjectGraphError) in
            try context.addToMany(self, key, object, adding: true)
        }
    }

    /// Removes one destination from a to-many relationship.
    public final func removeObject(_ object: ManagedObject, forKey key: String, file: String = #fileID, line: Int = #line) throws(ObjectGraphError) {
        let context = try usableContext(key)
        try context.withCallSite(CallSite(file: file, line: line)) { () throws(ObjectGraphError) in
            try context.addToMany(self, key, object, adding: false)
        }
    }

    /// Fires the fault now, reporting a deleted row or an unusable object
    /// as an error.
    public final func fireFault(file: String = #fileID, line: Int = #line) throws(ObjectGraphError) {
        let context = try usableContext("(fault)")
        try context.withCallSite(CallSite(file: file, line: line)) { () throws(ObjectGraphError) in
            try context.fulfill(self)
        }
    }

    private func usableContext(_ key: String) throws(ObjectGraphError) -> ObjectContext {
        if case .invalidated(let reason) = state { throw .objectInvalidated(objectID, reason: reason) }
        guard let context = _context else { throw .objectInvalidated(objectID, reason: "its context was released") }
        ConcurrencyGuard.check(context, "access to \(objectID.entityName).\(key) of \(objectID)")
        return context
    }

    // MARK: Typed access

    /// A typed attribute, for subclasses' properties. A failure stops the
    /// program with a message naming the object, the key and the cause.
    /// Its events are attributed to the innermost enclosing call site (a
    /// `perform` block, a fetch, a scenario step).
    ///
    /// Inlinable, so that a subclass's property gets a copy specialised for
    /// its type: a generic copy would look up `Optional<T>`'s metadata at
    /// run time on every read.
    @inlinable
    public final subscript<T: AttributeValue>(attribute key: String) -> T {
        get {
            let value = attributeValueForTypedAccess(key)
            guard let typed = T(attributeValue: value) else { failTypedAccess(key, value, expected: "\(T.self)") }
            return typed
        }
        set {
            setAttributeForTypedAccess(key, newValue.attributeValue)
        }
    }

    /// The attribute's value for a typed property; stops the program on a
    /// failure.
    @usableFromInline
    final func attributeValueForTypedAccess(_ key: String) -> Value {
        // The common cases first: a loaded object or a fault of a live
        // context without the concurrency debug flag. An unusable object,
        // an unknown key or the flag take the full path, which checks and
        // reports.
        if contextReference?._withUnsafeGuaranteedRef({ $0.checksConcurrency }) == false,
           let index = objectID.entity.attributePosition(key) {
            switch state {
            case .loaded:
                return values[index]
            case .fault:
                // A fault of a live context: fire it (it checks and reports)
                // without the key-value path's second round of checks.
                let failure = contextReference!._withUnsafeGuaranteedRef { context -> ObjectGraphError? in
                    do {
                        try context.fulfill(self)
                        return nil
                    } catch let error as ObjectGraphError {
                        return error
                    } catch {
                        preconditionFailure("fulfill throws only ObjectGraphError")
                    }
                }
                if let failure { fail(key, failure.description) }
                return values[index]
            case .invalidated:
                break
            }
        }
        return typed(key) { () throws(ObjectGraphError) in try self.usableContext(key).attributeValue(self, key) }
    }

    @usableFromInline
    final func setAttributeForTypedAccess(_ key: String, _ value: Value) {
        typed(key) { () throws(ObjectGraphError) in try self.usableContext(key).setAttribute(self, key, value) }
    }

    /// Stops the program: the attribute holds a value of another type.
    @usableFromInline
    final func failTypedAccess(_ key: String, _ value: Value, expected: String) -> Never {
        fail(key, "holds \(value.typeName) \(value), which is not a \(expected)")
    }

    /// A typed to-one relationship.
    public final subscript<T: ManagedObject>(toOne key: String) -> T? {
        get {
            let object = typed(key) { () throws(ObjectGraphError) in
                let context = try self.usableContext(key)
                return try context.toOne(self, context.relationship(self, key, toMany: false))
            }
            guard let object else { return nil }
            guard let typed = object as? T else { fail(key, "holds a \(type(of: object)), not a \(T.self)") }
            return typed
        }
        set {
            typed(key) { () throws(ObjectGraphError) in try self.usableContext(key).setToOne(self, key, newValue) }
        }
    }

    /// A typed to-many relationship, in primary-key order.
    public final subscript<T: ManagedObject>(toMany key: String) -> [T] {
        get {
            let (objects, destinationType) = typed(key) { () throws(ObjectGraphError) in
                let context = try self.usableContext(key)
                let relationship = try context.relationship(self, key, toMany: true)
                return (try context.toMany(self, relationship), context.store.model.destination(of: relationship).objectType)
            }
            // Every destination is an instance of its entity's class: one
            // check for the whole array instead of a cast per object (arrays
            // of class references share their layout).
            if destinationType is T.Type { return unsafeBitCast(objects, to: [T].self) }
            return objects.map { object in
                guard let typed = object as? T else { fail(key, "holds a \(type(of: object)), not a \(T.self)") }
                return typed
            }
        }
        set {
            typed(key) { () throws(ObjectGraphError) in try self.usableContext(key).setToMany(self, key, newValue) }
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
