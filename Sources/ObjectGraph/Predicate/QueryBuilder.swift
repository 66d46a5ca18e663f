/// Builds the SQL of one query on an entity: the `FROM` clause with a
/// `LEFT JOIN` per to-one step of a key path, a `WHERE` clause compiled
/// from a ``ObjectPredicate``, `ORDER BY`, and the values to bind, in order.
///
/// Names in the SQL come from the model (checked identifiers); every value
/// is a bound parameter.
struct QueryBuilder {
    let model: Model
    let root: EntityDescription
    private(set) var arguments: [DatabaseValue] = []
    private var joins: [String] = []
    private var aliases: [String: String] = [:]

    init(model: Model, root: EntityDescription) {
        self.model = model
        self.root = root
    }

    /// `"Entity" t0 LEFT JOIN …`.
    var from: String {
        ([quoted(root.table) + " t0"] + joins).joined(separator: " ")
    }

    /// What a key path ends on.
    enum Resolved {
        /// An attribute: its column and description.
        case attribute(column: String, AttributeDescription, owner: EntityDescription)
        /// A to-one relationship: its foreign key column and destination.
        case toOne(column: String, RelationshipDescription, destination: EntityDescription)
    }

    /// Resolves a key path to a column, adding joins for to-one steps.
    mutating func resolve(_ keyPath: String) throws(ObjectGraphError) -> Resolved {
        let components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var entity = root
        var alias = "t0"
        var prefix = ""
        for (position, component) in components.enumerated() {
            let last = position == components.count - 1
            if let attribute = entity.attribute(named: component) {
                guard last else {
                    throw .invalidPredicate("\(entity.name).\(component) is an attribute, not a relationship, in key path \(keyPath)")
                }
                return .attribute(column: "\(alias).\(quoted(attribute.column))", attribute, owner: entity)
            }
            guard let relationship = entity.relationship(named: component) else {
                throw .unknownKey(entity: entity.name, key: component)
            }
            guard !relationship.isToMany else {
                throw .invalidPredicate(
                    "\(entity.name).\(component) is a to-many relationship; key path \(keyPath) needs ANY, ALL, NONE or @count")
            }
            let column = "\(alias).\(quoted(relationship.foreignKeyColumn!))"
            let destination = model.destination(of: relationship)
            if last { return .toOne(column: column, relationship, destination: destination) }
            prefix += (prefix.isEmpty ? "" : ".") + component
            if let existing = aliases[prefix] {
                alias = existing
            } else {
                let next = "t\(aliases.count + 1)"
                joins.append("LEFT JOIN \(quoted(destination.table)) \(next) ON \(next).pk = \(column)")
                aliases[prefix] = next
                alias = next
            }
            entity = destination
        }
        throw .unknownKey(entity: entity.name, key: keyPath)
    }

    // MARK: WHERE

    /// Compiles a predicate to SQL whose truth is the predicate's (nil
    /// handled as ``ObjectPredicate`` documents).
    mutating func compile(_ predicate: ObjectPredicate) throws(ObjectGraphError) -> String {
        switch predicate {
        case .constant(let value):
            return value ? "1" : "0"
        case .and(let terms):
            guard !terms.isEmpty else { return "1" }
            var parts: [String] = []
            for term in terms { parts.append(try compile(term)) }
            return "(" + parts.joined(separator: " AND ") + ")"
        case .or(let terms):
            guard !terms.isEmpty else { return "0" }
            var parts: [String] = []
            for term in terms { parts.append(try compile(term)) }
            return "(" + parts.joined(separator: " OR ") + ")"
        case .not(let operand):
            // A comparison with NULL is NULL in SQL; `IS NOT 1` makes NOT of
            // it true, as the predicate semantics say.
            return "(\(try compile(operand)) IS NOT 1)"
        case .comparison(let lhs, let op, let rhs):
            return try compileComparison(lhs, op, rhs)
        }
    }

    private mutating func compileComparison(_ lhs: ObjectExpression, _ op: ComparisonOperator, _ rhs: ObjectExpression)
        throws(ObjectGraphError) -> String
    {
        switch (lhs, rhs) {
        case (.keyPath(let path), .value(let value)):
            return try compareKey(path, op, value: value)
        case (.value(let value), .keyPath(let path)):
            return try compareKey(path, op.swapped, value: value)
        case (.keyPath(let path), .object(let id)):
            return try compareKey(path, op, object: id)
        case (.object(let id), .keyPath(let path)):
            return try compareKey(path, op.swapped, object: id)
        case (.keyPath(let left), .keyPath(let right)):
            let a = try resolve(left)
            let b = try resolve(right)
            switch (a, b) {
            case (.attribute(let x, let ax, let ox), .attribute(let y, let bx, _)):
                guard ax.type == bx.type || (ax.type.isNumeric && bx.type.isNumeric) else {
                    throw .typeMismatch(entity: ox.name, key: left, expected: ax.type.rawValue, got: "\(bx.type.rawValue) (\(right))")
                }
                return keyKey(x, op, y)
            case (.toOne(let x, _, let dx), .toOne(let y, _, let dy)):
                guard dx === dy, op == .equal || op == .notEqual else {
                    throw .invalidPredicate("\(left) \(op.rawValue) \(right) compares relationships to different entities")
                }
                return keyKey(x, op, y)
            default:
                throw .invalidPredicate("\(left) \(op.rawValue) \(right) compares an attribute with a relationship")
            }
        default:
            return InMemoryEvaluator.compareConstants(lhs, op, rhs) ? "1" : "0"
        }
    }

    private func keyKey(_ x: String, _ op: ComparisonOperator, _ y: String) -> String {
        switch op {
        case .equal: "\(x) IS \(y)"
        case .notEqual: "\(x) IS NOT \(y)"
        default: "\(x) \(op.sql) \(y)"
        }
    }

    private mutating func compareKey(_ path: String, _ op: ComparisonOperator, value: Value) throws(ObjectGraphError) -> String {
        switch try resolve(path) {
        case .attribute(let column, let attribute, let owner):
            if value.isNull {
                switch op {
                case .equal: return "\(column) IS NULL"
                case .notEqual: return "\(column) IS NOT NULL"
                default: return "0"
                }
            }
            guard let converted = value.converted(to: attribute.type) else {
                throw .typeMismatch(entity: owner.name, key: path, expected: attribute.type.rawValue, got: value.typeName)
            }
            arguments.append(converted.databaseValue)
            return op == .notEqual ? "\(column) IS NOT ?" : "\(column) \(op.sql) ?"
        case .toOne(let column, _, let destination):
            guard value.isNull else {
                throw .typeMismatch(entity: root.name, key: path, expected: "\(destination.name) object", got: value.typeName)
            }
            switch op {
            case .equal: return "\(column) IS NULL"
            case .notEqual: return "\(column) IS NOT NULL"
            default: throw .invalidPredicate("\(path) is a relationship: only == and != compare it")
            }
        }
    }

    private mutating func compareKey(_ path: String, _ op: ComparisonOperator, object id: ObjectID) throws(ObjectGraphError) -> String {
        guard case .toOne(let column, _, let destination) = try resolve(path) else {
            throw .typeMismatch(entity: root.name, key: path, expected: "an attribute value", got: "\(id.entityName) object")
        }
        guard id.entity === destination else {
            throw .typeMismatch(entity: root.name, key: path, expected: "\(destination.name) object", got: "\(id.entityName) object")
        }
        arguments.append(.integer(id.primaryKey))
        switch op {
        case .equal: return "\(column) = ?"
        case .notEqual: return "\(column) IS NOT ?"
        default: throw .invalidPredicate("\(path) is a relationship: only == and != compare it")
        }
    }

    // MARK: ORDER BY

    mutating func orderBy(_ keys: [SortKey]) throws(ObjectGraphError) -> String {
        var terms: [String] = []
        for key in keys {
            let column: String
            switch try resolve(key.keyPath) {
            case .attribute(let c, _, _): column = c
            case .toOne(let c, _, _): column = c
            }
            terms.append(column + (key.ascending ? "" : " DESC"))
        }
        return terms.joined(separator: ", ")
    }
}
