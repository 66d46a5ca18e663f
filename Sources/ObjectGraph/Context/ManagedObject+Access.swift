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
        object?.noteUse()
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
        for object in objects { object.noteUse() }
        try context.withCallSite(CallSite(file: file, line: line)) { () throws(ObjectGraphError) in
            try context.setToMany(self, key, objects)
        }
    }

    /// Adds one destination to a to-many relationship.
    public final func addObject(_ object: ManagedObject, forKey key: String, file: String = #fileID, line: Int = #line) throws(ObjectGraphError) {
        let context = try usableContext(key)
        object.noteUse()
        try context.withCallSite(CallSite(file: file, line: line)) { () throws(ObjectGraphError) in
            try context.addToMany(self, key, object, adding: true)
        }
    }

    /// Removes one destination from a to-many relationship.
    public final func removeObject(_ object: ManagedObject, forKey key: String, file: String = #fileID, line: Int = #line) throws(ObjectGraphError) {
        let context = try usableContext(key)
        object.noteUse()
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

    /// The object's context for an access by the application, which uses
    /// the object (``noteUse()``).
    private func usableContext(_ key: String) throws(ObjectGraphError) -> ObjectContext {
        if case .invalidated = state { throw .objectInvalidated(objectID, reason: invalidationReason) }
        guard let context = _context else { throw .objectInvalidated(objectID, reason: "its context was released") }
        ConcurrencyGuard.check(context, "access to \(objectID.entityName).\(key) of \(objectID)")
        noteUse()
        return context
    }

    /// Notes that the application used the object (read or set a property,
    /// deleted it, set it as a relationship's value): the first use after a
    /// fetch returned it counts for that fetch's run. A flag test.
    @inline(__always)
    final func noteUse() {
        if unusedFetchRun != 0 { noteFirstUse() }
    }

    /// The first use since a fetch returned the object.
    @inline(never)
    final func noteFirstUse() {
        let run = unusedFetchRun
        unusedFetchRun = 0
        contextReference?._withUnsafeGuaranteedRef { $0.noteUse(ofFetchRun: run) }
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
        @inline(__always) get {
            // A loaded object of a live context: convert the stored value in
            // place. Anything else (a fault, a failure) takes the full path.
            if let index = loadedAttributePosition(key), let typed = T(attributeValue: storedValues[index]) {
                return typed
            }
            return typedAttribute(key)
        }
        set {
            setAttributeForTypedAccess(key, newValue.attributeValue)
        }
    }

    /// The position of an attribute of a loaded object of a live context
    /// without the concurrency debug flag, whose value a typed property can
    /// read in place; nil for anything else (and for an entity of more than
    /// 16 attributes, whose key the out-of-line path looks up). Inlined into
    /// every property: a read is then a few compares and the copy of one
    /// payload.
    @inlinable @inline(__always)
    final func loadedAttributePosition(_ key: String) -> Int? {
        // Loaded, of a live context without the flag, and no fetch waits
        // for its first use (which the out-of-line path notes): one bit,
        // which the out-of-line path sets (``TypedFields/readable``).
        guard typedFields.isReadable else { return nil }
        return objectID.entity.scannedAttributePosition(key)
    }

    /// A typed attribute the fast path did not read: a fault to fire, an
    /// attribute of a large entity, a value of another type, or a failure
    /// to report (which stops the program). Out of line, so that the
    /// properties stay small.
    @inlinable @inline(never)
    final func typedAttribute<T: AttributeValue>(_ key: String) -> T {
        let value = attributeValueFiringFault(key)
        guard let typed = T(attributeValue: value) else { failTypedAccess(key, value, expected: "\(T.self)") }
        return typed
    }

    /// Whether the object's context is live and does not check concurrency:
    /// the typed accessors' fast path needs no further check.
    @inlinable @inline(__always)
    final var hasFastAccess: Bool {
        contextReference?._withUnsafeGuaranteedRef({ $0.checksConcurrency }) == false
    }

    /// The attribute's value for a typed property that is not loaded (or
    /// not readable in place): fires the fault, or stops the program with
    /// the failure.
    @usableFromInline
    final func attributeValueFiringFault(_ key: String) -> Value {
        // An object of a live context without the concurrency debug flag:
        // read a loaded one in place (an entity of more than 16 attributes
        // comes here), fire a fault (it checks and reports) without the
        // key-value path's second round of checks. An unusable object, an
        // unknown key or the flag take the full path, which checks and
        // reports.
        // The names' bits first (a few word compares), the full lookup for
        // a key they do not find.
        let entity = objectID.entity
        if unusedFetchRun != 0 { noteFirstUse() }
        if hasFastAccess, let index = entity.scannedAttributePosition(key) ?? entity.attributePosition(key) {
            switch state {
            case .loaded:
                typedFields.grantReadable()
                return storedValues[index]
            case .fault:
                // Fires the fault (or stops the program) and lets the object
                // be read in place.
                _ = contextReference.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.prepareTypedRead(self, key) }
                return storedValues[index]
            case .invalidated: break
            }
        }
        return checkedAttributeValue(key)
    }

    // MARK: Typed fields

    /// A typed attribute kept in a stored property of the class (see
    /// ``AttributeField``): while the object may be read in place and the
    /// field holds the value, a test of one word and the field's read;
    /// anything else (a fault to fire, a first read, a failure) out of
    /// line. `index` is the attribute's index among the entity's attributes.
    ///
    /// Each path returns its own value: the fast path copies the field's
    /// value (a retain of a string's storage), and the caller's object is
    /// not retained around the read. Reading the field in one place after
    /// both paths instead let the caller borrow the value, but made it
    /// retain and release the object around every read, which cost more
    /// (AttributeRead: 82 instructions per read against 72).
    ///
    /// A first read of an object that may be read in place (a fetch's
    /// object, a loaded one) decodes the value into the field here, without
    /// a call, when `index` is the key's: a read-once loop costs what the
    /// untyped read did.
    @inlinable @inline(__always)
    public final func attribute<T: AttributeValue>(_ key: String, at index: Int, in field: inout AttributeField<T>) -> T {
        if typedFields.canRead(index), let value = field.value { return value }
        if let typed = decodedInPlace(key, at: index, &field) { return typed }
        return fillField(key, at: index, &field)
    }

    /// A readable object's first read of a field: the value decoded from the
    /// object's values into the field (nil when the object may not be read
    /// in place, `index` is not the key's, or the value is not a `T`).
    @inlinable @inline(__always)
    final func decodedInPlace<T: AttributeValue>(_ key: String, at index: Int, _ field: inout AttributeField<T>) -> T? {
        guard typedFields.isReadable, let position = objectID.entity.fieldPosition(key, at: index),
            let typed = T(attributeValue: storedValues[position])
        else { return nil }
        field.value = typed
        typedFields.fill(index)
        return typed
    }

    /// Sets a typed attribute kept in a stored property of the class:
    /// through the engine's change tracking, as ``setValue(_:forKey:file:line:)``
    /// sets it, and into the field.
    @inlinable
    public final func setAttribute<T: AttributeValue>(_ key: String, at index: Int, to newValue: T, in field: inout AttributeField<T>) {
        if setAttributeForTypedField(key, at: index, newValue.attributeValue) { field.value = newValue }
    }

    /// A typed field's read that its inlined test did not serve. A refault
    /// of an unchanged object with no sink is served here, inlined
    /// (``ObjectContext/readsInPlace(_:)``); anything else is one call
    /// into the engine (``ObjectContext/prepareTypedRead(_:_:field:)``: it
    /// fires a fault, notes a first use, lets the object be read in place).
    /// A refault of an unchanged object then finds its field valid; only a
    /// field to fill goes on to ``decodeField(_:at:_:)``. Out of line and
    /// small (its own frame is part of every refault), specialised for the
    /// field's type in the class's module.
    @inlinable @inline(never)
    final func fillField<T: AttributeValue>(_ key: String, at index: Int, _ field: inout AttributeField<T>) -> T {
        if let context = contextReference {
            // A loaded object, or a refault of an unchanged one in place
            // (inlined: its fields stay valid), or one call into the engine.
            let valid: Bool
            if context._withUnsafeGuaranteedRef({ $0.readsInPlace(self) }) {
                typedFields.grantReadable()
                valid = typedFields.canRead(index)
            } else {
                valid = context._withUnsafeGuaranteedRef { $0.prepareTypedRead(self, key, field: index) }
            }
            if valid, let value = field.value { return value }
            // A first read of a loaded object: decoded here.
            if let typed = decodedInPlace(key, at: index, &field) { return typed }
        }
        return decodeField(key, at: index, &field)
    }

    /// Decodes a typed field's value from the object's values (firing what
    /// is left to fire through the key-value path, which checks and reports
    /// a failure) and keeps it in the field when the field may keep it.
    @inlinable @inline(never)
    final func decodeField<T: AttributeValue>(_ key: String, at index: Int, _ field: inout AttributeField<T>) -> T {
        let value = attributeValueFiringFault(key)
        guard let typed = T(attributeValue: value) else { failTypedAccess(key, value, expected: "\(T.self)") }
        if claimsField(key, at: index) { field.value = typed }
        return typed
    }

    /// Stops the program: the fault of a typed read failed.
    @usableFromInline @inline(never)
    final func failFault(_ key: String, _ failure: ObjectGraphError) -> Never {
        fail(key, failure.description)
    }

    /// Whether the field at `index` may keep the value just read or
    /// written for `key`, and if so marks it filled: the object may be read
    /// in place and `index` is the key's own index in the object's entity
    /// (a class's mistaken index is never cached).
    @usableFromInline
    final func claimsField(_ key: String, at index: Int) -> Bool {
        guard typedFields.isReadable, TypedFields.hasField(index) else { return false }
        let entity = objectID.entity
        guard (entity.scannedAttributePosition(key) ?? entity.attributePosition(key)) == index else { return false }
        typedFields.fill(index)
        return true
    }

    /// Sets an attribute for a typed field's property; whether the field
    /// may keep the value as given (stored without a conversion, and
    /// ``claimsField(_:at:)``).
    @usableFromInline
    final func setAttributeForTypedField(_ key: String, at index: Int, _ value: Value) -> Bool {
        setAttributeForTypedAccess(key, value)
        if hasFastAccess, case .loaded = state, unusedFetchRun == 0 { typedFields.grantReadable() }
        guard TypedFields.hasField(index), index < storedValues.count, storedValues[index] == value else { return false }
        return claimsField(key, at: index)
    }

    /// The key-value path for a typed property, which checks everything
    /// and stops the program on a failure. Out of line: its error handling
    /// made the fault path above twice as long.
    @inline(never)
    private func checkedAttributeValue(_ key: String) -> Value {
        typed(key) { () throws(ObjectGraphError) in
            let context = try self.usableContext(key)
            return try context.typedAccess { () throws(ObjectGraphError) in try context.attributeValue(self, key) }
        }
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
                return try context.typedAccess { () throws(ObjectGraphError) in
                    try context.toOne(self, context.relationship(self, key, toMany: false))
                }
            }
            guard let object else { return nil }
            guard let typed = object as? T else { fail(key, "holds a \(type(of: object)), not a \(T.self)") }
            return typed
        }
        set {
            newValue?.noteUse()
            typed(key) { () throws(ObjectGraphError) in try self.usableContext(key).setToOne(self, key, newValue) }
        }
    }

    /// A typed to-many relationship, in primary-key order.
    public final subscript<T: ManagedObject>(toMany key: String) -> [T] {
        get {
            let (objects, destinationType) = typed(key) { () throws(ObjectGraphError) in
                let context = try self.usableContext(key)
                let relationship = try context.relationship(self, key, toMany: true)
                let objects = try context.typedAccess { () throws(ObjectGraphError) in try context.toMany(self, relationship) }
                return (objects, context.store.model.destination(of: relationship).objectType)
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
            for object in newValue { object.noteUse() }
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
