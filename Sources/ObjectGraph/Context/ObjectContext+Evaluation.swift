/// Evaluating predicates on objects in memory (pending changes, in-memory
/// filtering, the predicate-ordering experiments).
extension ObjectContext {
    /// Whether `object` matches `predicate`, evaluated in memory with the
    /// same meaning as the SQL a fetch would run. The predicate is checked
    /// against the model first, so a wrong key or type is an error here too.
    public func evaluate(_ predicate: ObjectPredicate, on object: ManagedObject) throws(ObjectGraphError) -> Bool {
        try checkUsable(object)
        object.noteUse()
        var builder = QueryBuilder(model: store.model, root: object.entity)
        _ = try builder.compile(predicate)
        do {
            return try evaluator().evaluate(predicate, on: object)
        } catch let error as ObjectGraphError {
            throw error
        } catch {
            throw .invalidPredicate("\(error)")
        }
    }

    /// The objects among `objects` that match, in order.
    public func filter(_ objects: [ManagedObject], _ predicate: ObjectPredicate) throws(ObjectGraphError) -> [ManagedObject] {
        try store.checkCancelled()
        guard let first = objects.first else { return [] }
        var builder = QueryBuilder(model: store.model, root: first.entity)
        _ = try builder.compile(predicate)
        let evaluator = self.evaluator()
        for object in objects { object.noteUse() }
        do {
            return try objects.filter { try evaluator.evaluate(predicate, on: $0) }
        } catch let error as ObjectGraphError {
            throw error
        } catch {
            throw .invalidPredicate("\(error)")
        }
    }

    func evaluator() -> InMemoryEvaluator {
        InMemoryEvaluator(
            read: { [unowned self] object, path in try self.read(object, keyPath: path) },
            toMany: { [unowned self] object, path in try self.toMany(object, alongPath: path) })
    }

    /// The destinations of the to-many relationship at the end of `path`
    /// (after to-one steps).
    func toMany(_ object: ManagedObject, alongPath path: String) throws(ObjectGraphError) -> [ManagedObject] {
        var current = object
        let parts = path.split(separator: ".").map(String.init)
        for (index, part) in parts.enumerated() {
            guard let relationship = current.entity.relationship(named: part) else {
                throw .unknownKey(entity: current.entity.name, key: part)
            }
            if index == parts.count - 1 {
                guard relationship.isToMany else { throw .invalidPredicate("\(path) does not end at a to-many relationship") }
                return try toMany(current, relationship)
            }
            guard !relationship.isToMany, let next = try toOne(current, relationship) else { return [] }
            current = next
        }
        return []
    }
}
