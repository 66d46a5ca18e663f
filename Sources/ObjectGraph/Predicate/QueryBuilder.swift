import Foundation
import Probes

/// Builds the SQL of one query on an entity: the `FROM` clause with a
/// `LEFT JOIN` per to-one step of a key path, a `WHERE` clause compiled
/// from an ``ObjectPredicate``, `ORDER BY`, and the values to bind, in order.
///
/// Names in the SQL come from the model (checked identifiers); every value
/// is a bound parameter. To-many key paths (quantifiers, aggregates,
/// `SUBQUERY`) become correlated subqueries; counts compared with zero become
/// `EXISTS`/`NOT EXISTS`, which SQLite stops at the first row (about 0.6 ms
/// against 33 ms for `(SELECT COUNT(*) …) > 0` on the Selfies data set).
struct QueryBuilder {
    /// The pseudo-key of an object's entity in predicates (`entity ==
    /// 'Book'`), unless the entity has a property of that name.
    enum EntityTest {
        static let key = "entity"
    }

    /// The pseudo-key of the object itself in predicates (`SELF IN %@`
    /// with object IDs, as Core Data's `SELF IN %@`: one fetch of the
    /// objects of a list of IDs), unless the entity has a property of that
    /// name. It compares with object IDs through the primary key.
    enum ObjectTest {
        static let key = "SELF"
    }

    let model: Model
    let root: EntityDescription
    private(set) var arguments: [DatabaseValue] = []
    private var joins: [String] = []
    private var aliases: [String: String] = [:]
    /// Alias prefix: `t` at the top (`t0`, `t1`…), `s1_` in a subquery.
    private let prefix: String
    /// The `SUBQUERY` variable bound to the root, without `$`.
    private let variable: String?
    private var subqueries = 0
    /// What the WHERE and ORDER BY clauses say of the root table, for the
    /// statement's ``StatementFacts`` (kept by the top-level builder only).
    private(set) var filters: [StatementFacts.Filter] = []
    private(set) var sortKeys: [StatementFacts.Column] = []
    private(set) var hasDisjunction = false
    private(set) var hasOtherConditions = false

    init(model: Model, root: EntityDescription) {
        self.init(model: model, root: root, prefix: "t", variable: nil)
    }

    private init(model: Model, root: EntityDescription, prefix: String, variable: String?) {
        self.model = model
        self.root = root
        self.prefix = prefix
        self.variable = variable
    }

    private var rootAlias: String { prefix + "0" }

    /// `"Entity" t0 LEFT JOIN …`.
    var from: String {
        ([root.sql.table + " " + rootAlias] + joins).joined(separator: " ")
    }

    /// What a key path ends on.
    enum Resolved {
        /// An attribute: its column and description.
        case attribute(column: String, AttributeDescription, owner: EntityDescription)
        /// A to-one relationship: its foreign key column and destination.
        case toOne(column: String, RelationshipDescription, destination: EntityDescription)
    }

    /// The components of a key path, without a leading `$variable`.
    private func components(_ keyPath: String) throws(ObjectGraphError) -> [String] {
        var parts = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if let variable {
            guard parts.first == "$" + variable else {
                throw .invalidPredicate("inside SUBQUERY, key paths start with $\(variable): \(keyPath)")
            }
            parts.removeFirst()
        } else if let first = parts.first, first.hasPrefix("$") {
            throw .invalidPredicate("variable \(first) has no value (in \(keyPath))")
        }
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty }) else {
            throw .invalidPredicate("\"\(keyPath)\" is not a key path")
        }
        return parts
    }

    /// Walks the to-one steps of `parts`, adding joins; returns the alias
    /// and entity reached, and the index of the first part not walked (an
    /// attribute, or a to-many relationship).
    private mutating func walk(_ parts: [String], keyPath: String) throws(ObjectGraphError)
        -> (alias: String, entity: EntityDescription, index: Int)
    {
        var entity = root
        var alias = rootAlias
        var path = ""
        for (index, component) in parts.enumerated() {
            if entity.attribute(named: component) != nil { return (alias, entity, index) }
            guard let relationship = entity.relationship(named: component) else {
                throw .unknownKey(entity: entity.name, key: component)
            }
            if relationship.isToMany || index == parts.count - 1 { return (alias, entity, index) }
            let destination = model.destination(of: relationship)
            path += (path.isEmpty ? "" : ".") + component
            if let existing = aliases[path] {
                alias = existing
            } else {
                let next = "\(prefix)\(aliases.count + 1)"
                joins.append(relationship.sql.leftJoin(next, from: alias))
                aliases[path] = next
                alias = next
            }
            entity = destination
        }
        return (alias, entity, parts.count)
    }

    /// Resolves a key path through to-one relationships to a column, adding joins.
    mutating func resolve(_ keyPath: String) throws(ObjectGraphError) -> Resolved {
        let parts = try components(keyPath)
        let (alias, entity, index) = try walk(parts, keyPath: keyPath)
        guard index == parts.count - 1 else {
            if index < parts.count, entity.attribute(named: parts[index]) != nil {
                throw .invalidPredicate("\(entity.name).\(parts[index]) is an attribute, not a relationship, in key path \(keyPath)")
            }
            throw .invalidPredicate(
                "\(entity.name).\(parts[min(index, parts.count - 1)]) is a to-many relationship; key path \(keyPath) needs ANY, ALL, NONE or @count")
        }
        let key = parts[index]
        if let attribute = entity.attribute(named: key) {
            return .attribute(column: "\(alias).\(quoted(attribute.column))", attribute, owner: entity)
        }
        let relationship = entity.relationship(named: key)!
        guard !relationship.isToMany else {
            throw .invalidPredicate("\(entity.name).\(key) is a to-many relationship; key path \(keyPath) needs ANY, ALL, NONE or @count")
        }
        return .toOne(column: relationship.sql.foreignKey(in: alias), relationship, destination: model.destination(of: relationship))
    }

    /// A to-many step in a key path: its destinations for the owner row (the
    /// correlated FROM and WHERE), and a builder for conditions on them.
    private struct ToMany {
        var relationship: RelationshipDescription
        var owner: EntityDescription
        var destinations: CorrelatedDestinations
        var child: QueryBuilder
        /// The key path after the to-many step, if any.
        var rest: String?
    }

    private mutating func toMany(_ keyPath: String, variable childVariable: String? = nil) throws(ObjectGraphError) -> ToMany {
        let parts = try components(keyPath)
        let (alias, entity, index) = try walk(parts, keyPath: keyPath)
        guard index < parts.count, let relationship = entity.relationship(named: parts[index]), relationship.isToMany else {
            throw .invalidPredicate("\(keyPath) has no to-many relationship for ANY, ALL, NONE, SUBQUERY or an aggregate")
        }
        subqueries += 1
        let childPrefix = "\(prefix == "t" ? "" : prefix)s\(subqueries)_"
        let destination = model.destination(of: relationship)
        guard let destinations = relationship.sql.destinations(of: alias, alias: childPrefix + "0", joinAlias: childPrefix + "j") else {
            preconditionFailure("to-one storage for to-many \(relationship.name)")
        }
        let rest = index + 1 < parts.count ? parts[(index + 1)...].joined(separator: ".") : nil
        let child = QueryBuilder(model: model, root: destination, prefix: childPrefix, variable: childVariable)
        return ToMany(relationship: relationship, owner: entity, destinations: destinations, child: child, rest: rest)
    }

    /// `[NOT] EXISTS (SELECT 1 FROM <to-many> <child joins> WHERE <correlation> [AND <condition>])`.
    private mutating func exists(_ many: ToMany, condition: String?, negated: Bool = false, bare: Bool = false) -> String {
        arguments += many.child.arguments
        return many.destinations.exists(joins: many.child.joins, where: condition, bare: bare, negated: negated)
    }

    /// `(SELECT <expression> FROM <to-many> <child joins> WHERE <correlation> [AND <condition>])`.
    private mutating func scalar(_ expression: String, _ many: ToMany, condition: String?, bare: Bool) -> String {
        arguments += many.child.arguments
        return many.destinations.scalar(expression, joins: many.child.joins, where: condition, bare: bare)
    }

    // MARK: WHERE

    /// Compiles a predicate to SQL whose truth is the predicate's.
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
            if terms.count > 1 { hasDisjunction = true }
            var parts: [String] = []
            for term in terms { parts.append(try compile(term)) }
            return "(" + parts.joined(separator: " OR ") + ")"
        case .not(let operand):
            // A comparison with NULL is NULL in SQL; `IS NOT 1` makes NOT of
            // it true, as the predicate semantics say.
            return "(\(try compile(operand)) IS NOT 1)"
        case .comparison(let comparison):
            return try compile(comparison)
        }
    }

    private mutating func compile(_ c: Comparison) throws(ObjectGraphError) -> String {
        if c.isContainsOnKeyPath, case .keyPath(let path) = c.lhs, let parts = try? components(path),
            let relationship = model.toManyRelationship(at: parts, from: root)
        {
            return try compileContains(c, path, relationship)
        }
        if let quantifier = c.quantifier { return try compileQuantified(c, quantifier) }
        switch (c.lhs, c.rhs) {
        case (.aggregate, _), (.subqueryCount, _):
            return try compileAggregate(c.lhs, c.op, c.rhs)
        case (_, .aggregate), (_, .subqueryCount):
            guard let swapped = c.op.swapped else {
                throw .invalidPredicate("\(c.op.rawValue) needs the aggregate on its left: \(ObjectPredicate.comparison(c))")
            }
            return try compileAggregate(c.rhs, swapped, c.lhs)
        case (.keyPath(let path), _):
            return try compileKey(path, c.op, c.rhs, c.options)
        case (_, .keyPath(let path)):
            guard let swapped = c.op.swapped else {
                throw .invalidPredicate("\(c.op.rawValue) needs a key path on its left: \(ObjectPredicate.comparison(c))")
            }
            return try compileKey(path, swapped, c.lhs, c.options)
        default:
            return try InMemoryEvaluator.compareConstants(c) ? "1" : "0"
        }
    }

    private mutating func compileKey(_ path: String, _ op: ComparisonOperator, _ rhs: ObjectExpression, _ options: ComparisonOptions)
        throws(ObjectGraphError) -> String
    {
        if try components(path) == [EntityTest.key], root.attribute(named: EntityTest.key) == nil,
            root.relationship(named: EntityTest.key) == nil
        {
            hasOtherConditions = true
            return try compileEntityTest(op, rhs)
        }
        if try components(path) == [ObjectTest.key], root.attribute(named: ObjectTest.key) == nil,
            root.relationship(named: ObjectTest.key) == nil
        {
            hasOtherConditions = true
            return try compileToOne("\(rootAlias).pk", root, owner: root.name, path, op, rhs)
        }
        switch try resolve(path) {
        case .attribute(let column, let attribute, let owner):
            if case .keyPath(let other) = rhs {
                hasOtherConditions = true
                return try compileKeyKey(column, attribute, owner, path, op, other, options)
            }
            // A condition on a column of the root table, for the facts.
            let fact = owner === root && !path.contains(".") ? StatementFacts.Column(attribute: attribute.name, indexed: attribute.isIndexed) : nil
            if fact == nil { hasOtherConditions = true }
            return try compileColumn(column, attribute.type, owner: owner.name, key: path, op, rhs, options, fact: fact)
        case .toOne(let column, _, let destination):
            hasOtherConditions = true
            return try compileToOne(column, destination, owner: root.name, path, op, rhs)
        }
    }

    /// `entity == 'Book'`, `entity != 'Book'`, `entity IN {'Book', 'Folder'}`:
    /// whether an object is of exactly these entities (as Core Data's
    /// `entity == %@`), by the shared table's entity column with the
    /// entities' codes bound; a constant for a table of one entity.
    private mutating func compileEntityTest(_ op: ComparisonOperator, _ rhs: ObjectExpression) throws(ObjectGraphError) -> String {
        let names: [ObjectExpression]
        switch (op, rhs) {
        case (.equal, _), (.notEqual, _): names = [rhs]
        case (.in, .list(let items)): names = items
        default: throw .invalidPredicate("entity compares with ==, != or IN and entity names, not \(op.rawValue)")
        }
        var codes: [Int] = []
        for name in names {
            guard case .value(.string(let text)) = name else {
                throw .invalidPredicate("entity compares with entity names ('Book'), not \(name)")
            }
            let entity = try model.entity(text)
            if entity.isKind(of: root) { codes.append(entity.index) }
        }
        let negated = op == .notEqual
        guard root.sql.hasEntityColumn else {
            return (codes.contains(root.index) != negated) ? "1" : "0"
        }
        guard !codes.isEmpty else { return negated ? "1" : "0" }
        for code in codes { arguments.append(.integer(Int64(code))) }
        let column = "\(rootAlias).\(EntitySQL.entityColumn)"
        if codes.count == 1 { return negated ? "\(column) <> ?" : "\(column) = ?" }
        return "\(column) \(negated ? "NOT IN" : "IN") (\(Array(repeating: "?", count: codes.count).joined(separator: ", ")))"
    }

    private mutating func compileKeyKey(
        _ x: String, _ a: AttributeDescription, _ owner: EntityDescription, _ left: String, _ op: ComparisonOperator,
        _ right: String, _ options: ComparisonOptions
    ) throws(ObjectGraphError) -> String {
        guard case .attribute(let y, let b, _) = try resolve(right) else {
            throw .invalidPredicate("\(left) \(op.rawValue) \(right) compares an attribute with a relationship")
        }
        guard a.type == b.type || (a.type.isNumeric && b.type.isNumeric) else {
            throw .typeMismatch(entity: owner.name, key: left, expected: a.type.rawValue, got: "\(b.type.rawValue) (\(right))")
        }
        let (lx, ly) = options.isEmpty || a.type != .string
            ? (x, y) : ("faultline_fold(\(x), \(options.rawValue))", "faultline_fold(\(y), \(options.rawValue))")
        switch op {
        case .equal: return "\(lx) IS \(ly)"
        case .notEqual: return "\(lx) IS NOT \(ly)"
        case .less, .lessOrEqual, .greater, .greaterOrEqual: return "\(lx) \(op.sql) \(ly)"
        default: throw .invalidPredicate("\(op.rawValue) compares a key with a value, not with the key \(right)")
        }
    }

    /// A value for a column of `type`, or a type error naming both types.
    private func convert(_ value: Value, _ type: AttributeType, owner: String, key: String) throws(ObjectGraphError) -> Value {
        // Numbers compare as numbers: `age > 35.5` on an integer column is fine.
        switch (type, value) {
        case (.int16, .double), (.int32, .double), (.int64, .double): return value
        case (.int16, .integer), (.int32, .integer), (.int64, .integer): return value
        default: break
        }
        guard let converted = value.converted(to: type) else {
            throw .typeMismatch(entity: owner, key: key, expected: type.rawValue, got: value.typeName)
        }
        return converted
    }

    private func constantValue(_ expression: ObjectExpression, key: String) throws(ObjectGraphError) -> Value {
        switch expression {
        case .value(let value): return value
        case .variable(let name): throw .invalidPredicate("variable $\(name) has no value")
        case .object(let id): throw .typeMismatch(entity: root.name, key: key, expected: "a value", got: "\(id.entityName) object")
        default: throw .invalidPredicate("\(key) compares with \(expression), which is not a value")
        }
    }

    /// A comparison of one column with constants.
    ///
    /// `fact` names the root table's attribute the column is, when it is
    /// one: the condition is then noted in ``filters`` with whether an
    /// index can serve it.
    private mutating func compileColumn(
        _ column: String, _ type: AttributeType, owner: String, key: String, _ op: ComparisonOperator, _ rhs: ObjectExpression,
        _ options: ComparisonOptions, fact: StatementFacts.Column? = nil
    ) throws(ObjectGraphError) -> String {
        let folding = !options.isEmpty && type == .string
        let subject = folding ? "faultline_fold(\(column), \(options.rawValue))" : column
        func note(_ use: StatementFacts.IndexUse) {
            guard let fact else { return }
            // A folded column (`faultline_fold(…)`) is a function of it,
            // whatever compares it; a pattern function keeps its name.
            filters.append(StatementFacts.Filter(column: fact, use: folding && use != .patternMatch ? .function : use))
        }
        func bind(_ value: Value) throws(ObjectGraphError) {
            let converted = try convert(value, type, owner: owner, key: key)
            if folding, case .string(let text) = converted {
                arguments.append(.text(StringMatching.fold(text, options)))
            } else {
                arguments.append(converted.databaseValue)
            }
        }
        switch op {
        case .in, .between:
            guard case .list(let items) = rhs else {
                throw .invalidPredicate("\(op.rawValue) needs a list ({…} or an array argument) after \(key)")
            }
            var values: [Value] = []
            for item in items { values.append(try constantValue(item, key: key)) }
            if op == .between {
                guard values.count == 2 else { throw .invalidPredicate("BETWEEN needs {low, high} after \(key), got \(values.count) values") }
                guard !values[0].isNull, !values[1].isNull else { return "0" }
                try bind(values[0])
                try bind(values[1])
                note(.comparison)
                return "\(subject) BETWEEN ? AND ?"
            }
            let present = values.filter { !$0.isNull }
            guard !present.isEmpty else { return "0" }
            for value in present { try bind(value) }
            note(.comparison)
            return "\(subject) IN (\(Array(repeating: "?", count: present.count).joined(separator: ", ")))"
        case .like, .contains, .beginsWith, .endsWith, .matches:
            guard type == .string else { throw .typeMismatch(entity: owner, key: key, expected: "string for \(op.rawValue)", got: type.rawValue) }
            let value = try constantValue(rhs, key: key)
            guard case .string(let text) = value else {
                if value.isNull { return "0" }
                throw .typeMismatch(entity: owner, key: key, expected: "string", got: value.typeName)
            }
            if op == .matches {
                guard StringMatching.regularExpression(text, options) != nil else {
                    throw .invalidPredicate("MATCHES: \"\(text)\" is not a valid regular expression")
                }
                arguments.append(.text(text))
                note(.patternMatch)
                return "faultline_matches(\(column), ?, \(options.rawValue)) = 1"
            }
            let folded = StringMatching.fold(text, options)
            if op == .like, !LikePattern.isPlain(folded) {
                // As Core Data: a registered function, the pattern compiled
                // once per statement and matched per row (LikePattern).
                arguments.append(.text(text))
                note(.patternMatch)
                return "faultline_like(\(column), ?, \(options.rawValue)) = 1"
            }
            let pattern = switch op {
            case .like: StringMatching.globPattern(like: folded)
            case .contains: "*" + StringMatching.globLiteral(folded) + "*"
            case .beginsWith: StringMatching.globLiteral(folded) + "*"
            default: "*" + StringMatching.globLiteral(folded)
            }
            arguments.append(.text(pattern))
            // A GLOB with a literal prefix is a range of the index; one
            // from a wildcard reads every row.
            note(pattern.hasPrefix("*") || pattern.hasPrefix("?") || pattern.hasPrefix("[") ? .wildcardPattern : .comparison)
            return "\(subject) GLOB ?"
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            let value = try constantValue(rhs, key: key)
            if value.isNull {
                switch op {
                case .equal:
                    note(.comparison)
                    return "\(column) IS NULL"
                case .notEqual:
                    note(.comparison)
                    return "\(column) IS NOT NULL"
                default: return "0"
                }
            }
            try bind(value)
            note(.comparison)
            return op == .notEqual ? "\(subject) IS NOT ?" : "\(subject) \(op.sql) ?"
        }
    }

    /// A comparison of a key column (a to-one's foreign key, a destination's
    /// or a join table's key) with objects or nil; errors name `owner`, the
    /// entity `path` starts from.
    private mutating func compileToOne(
        _ column: String, _ destination: EntityDescription, owner: String, _ path: String, _ op: ComparisonOperator, _ rhs: ObjectExpression
    ) throws(ObjectGraphError) -> String {
        var ids: [ObjectID?] = []
        switch rhs {
        case .value(let value) where value.isNull: ids = [nil]
        case .object(let id): ids = [id]
        case .list(let items) where op == .in:
            for item in items {
                guard case .object(let id) = item else {
                    throw .typeMismatch(entity: owner, key: path, expected: "\(destination.name) objects", got: "\(item)")
                }
                ids.append(id)
            }
        case .variable(let name): throw .invalidPredicate("variable $\(name) has no value")
        default: throw .typeMismatch(entity: owner, key: path, expected: "\(destination.name) object", got: "\(rhs)")
        }
        for case let id? in ids where !id.entity.isKind(of: destination) {
            throw .typeMismatch(entity: owner, key: path, expected: "\(destination.name) object", got: "\(id.entityName) object")
        }
        switch op {
        case .equal, .notEqual:
            guard let id = ids[0] else { return op == .equal ? "\(column) IS NULL" : "\(column) IS NOT NULL" }
            arguments.append(.integer(id.primaryKey))
            return op == .equal ? "\(column) = ?" : "\(column) IS NOT ?"
        case .in:
            let keys = ids.compactMap { $0 }
            guard !keys.isEmpty else { return "0" }
            arguments += keys.map { .integer($0.primaryKey) }
            return "\(column) IN (\(Array(repeating: "?", count: keys.count).joined(separator: ", ")))"
        default:
            throw .invalidPredicate("\(path) is a relationship: only ==, != and IN compare it")
        }
    }

    /// `ANY`/`ALL`/`NONE` over a to-many key path, as `EXISTS` subqueries.
    private mutating func compileQuantified(_ c: Comparison, _ quantifier: Quantifier) throws(ObjectGraphError) -> String {
        hasOtherConditions = true
        guard case .keyPath(let path) = c.lhs else {
            throw .invalidPredicate("\(quantifier.rawValue) needs a to-many key path on its left: \(ObjectPredicate.comparison(c))")
        }
        var many = try toMany(path)
        let condition: String
        if let rest = many.rest {
            var child = many.child
            condition = try child.compileKey(rest, c.op, c.rhs, c.options)
            many.child = child
        } else if quantifier != .all, let key = many.destinations.joinedDestinationKey, Self.namesObjects(c) {
            // `ANY people == %@`, `ANY people IN %@` and their NONE: the
            // owners are the join table's rows that point at the objects,
            // read through its index, not an EXISTS per owner row that
            // visits every destination.
            var child = many.child
            let keys = try child.compileToOne(key, model.destination(of: many.relationship), owner: root.name, path, c.op, c.rhs)
            arguments += child.arguments
            return many.destinations.owners(whereDestination: keys, negated: quantifier == .none)
        } else {
            // `ANY employees == %@`: the destination itself, by key.
            condition = try many.child.compileToOne(
                many.destinations.destinationKey, model.destination(of: many.relationship), owner: root.name, path, c.op, c.rhs)
        }
        switch quantifier {
        case .any: return exists(many, condition: condition)
        case .none: return exists(many, condition: condition, negated: true)
        // No destination for which the condition is not true.
        case .all: return exists(many, condition: "(\(condition)) IS NOT 1", negated: true)
        }
    }

    /// `toMany CONTAINS object`: compiled as `ANY toMany == object`, the
    /// same SQL (join-table membership, or the destination by key). Only one
    /// object, of the destination's entity, fits on the right.
    private mutating func compileContains(_ c: Comparison, _ path: String, _ relationship: RelationshipDescription)
        throws(ObjectGraphError) -> String
    {
        let destination = model.destination(of: relationship).name
        switch c.rhs {
        case .object: break
        case .variable(let name): throw .invalidPredicate("variable $\(name) has no value")
        case .list:
            throw .invalidPredicate(
                "\(path) CONTAINS takes one \(destination) object; for any of several, write ANY \(path) IN {…}")
        default:
            throw .typeMismatch(entity: root.name, key: path, expected: "\(destination) object for CONTAINS", got: "\(c.rhs)")
        }
        guard c.options.isEmpty else {
            throw .invalidPredicate("\(path) CONTAINS\(c.options.modifier): [c] and [d] apply to strings, not to objects")
        }
        return try compileQuantified(c.asAnyEqual, .any)
    }

    /// Whether a comparison's right side names objects (`== object`,
    /// `IN {objects}`), with no nil among them.
    private static func namesObjects(_ c: Comparison) -> Bool {
        switch (c.op, c.rhs) {
        case (.equal, .object): return true
        case (.in, .list(let items)):
            return !items.isEmpty && items.allSatisfy { if case .object = $0 { return true } else { return false } }
        default: return false
        }
    }

    /// Aggregates and subquery counts compared with a value.
    private mutating func compileAggregate(_ expression: ObjectExpression, _ op: ComparisonOperator, _ rhs: ObjectExpression)
        throws(ObjectGraphError) -> String
    {
        hasOtherConditions = true
        let label = expression.description
        guard op.isOrdering || op == .equal || op == .notEqual || op == .between || op == .in else {
            throw .invalidPredicate("\(op.rawValue) does not apply to \(label)")
        }
        var many: ToMany
        var select: String
        var type: AttributeType
        var condition: String?
        var bare = false
        switch expression {
        case .aggregate(let aggregate, let path, let attribute):
            many = try toMany(path)
            guard many.rest == nil else {
                throw .invalidPredicate("\(label): the aggregate must follow the to-many relationship")
            }
            if aggregate == .count {
                guard attribute == nil else { throw .invalidPredicate("\(label): @count takes no attribute") }
                select = "COUNT(*)"
                type = .int64
                bare = true
            } else {
                guard let attribute else { throw .invalidPredicate("\(label): \(aggregate.rawValue) needs an attribute") }
                guard case .attribute(let column, let description, let owner) = try many.child.resolve(attribute) else {
                    throw .invalidPredicate("\(label): \(attribute) is not an attribute")
                }
                switch aggregate {
                case .sum:
                    guard description.type.isNumeric, description.type != .date else {
                        throw .typeMismatch(entity: owner.name, key: attribute, expected: "number for @sum", got: description.type.rawValue)
                    }
                    select = "COALESCE(SUM(\(column)), 0)"
                    type = description.type == .double ? .double : .int64
                case .avg:
                    guard description.type.isNumeric, description.type != .date else {
                        throw .typeMismatch(entity: owner.name, key: attribute, expected: "number for @avg", got: description.type.rawValue)
                    }
                    select = "AVG(\(column))"
                    type = .double
                default:
                    select = "\(aggregate == .min ? "MIN" : "MAX")(\(column))"
                    type = description.type
                }
            }
        case .subqueryCount(let collection, let name, let predicate):
            many = try toMany(collection, variable: name)
            guard many.rest == nil else { throw .invalidPredicate("SUBQUERY collection \(collection) must end at a to-many relationship") }
            var child = many.child
            condition = try child.compile(predicate)
            many.child = child
            select = "COUNT(*)"
            type = .int64
        default:
            preconditionFailure("not an aggregate: \(expression)")
        }

        // Counts compared with zero: EXISTS stops at the first row.
        if select == "COUNT(*)", case .value(let value) = rhs, case .integer(let n)? = value.converted(to: .int64) {
            let nonEmpty: Bool? = switch (op, n) {
            case (.greater, 0), (.notEqual, 0), (.greaterOrEqual, 1): true
            case (.equal, 0), (.less, 1), (.lessOrEqual, 0): false
            default: nil
            }
            if let nonEmpty {
                return exists(many, condition: condition, negated: !nonEmpty, bare: bare && condition == nil)
            }
        }
        let value = scalar(select, many, condition: condition, bare: bare && condition == nil)
        return try compileColumn(value, type, owner: root.name, key: label, op, rhs, [])
    }

    // MARK: ORDER BY

    mutating func orderBy(_ keys: [SortKey]) throws(ObjectGraphError) -> String {
        var terms: [String] = []
        for key in keys {
            let column: String
            switch try resolve(key.keyPath) {
            case .attribute(let c, let attribute, let owner):
                column = c
                if owner === root, !key.keyPath.contains(".") {
                    sortKeys.append(StatementFacts.Column(attribute: attribute.name, indexed: attribute.isIndexed))
                }
            case .toOne(let c, _, _): column = c
            }
            terms.append(column + (key.ascending ? "" : " DESC"))
        }
        return terms.joined(separator: ", ")
    }
}
