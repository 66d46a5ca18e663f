import Foundation

/// A condition on objects of one entity: the expression tree that fetch
/// requests filter with. Build it from a format string
/// (``init(format:_:variables:)``, in the syntax of NSPredicate format
/// strings) or in Swift (`Key("rating") < 5 && Key("name").like("*ie*")`).
///
/// It compiles to one SQL `WHERE` clause with bound values (never values
/// spliced into SQL text) and evaluates in memory with the same answer
/// (docs/predicates.md states the meaning of every operator).
///
/// Meaning of nil (both evaluators): nil equals only nil (`x == nil`,
/// `x != nil`); any other comparison with nil on either side is false; `NOT`
/// negates the result. So for a row whose `rating` is nil, `rating < 5` is
/// false and `NOT (rating < 5)` is true, as NSPredicate has it.
public indirect enum ObjectPredicate: Sendable, Hashable {
    /// `TRUEPREDICATE` or `FALSEPREDICATE`.
    case constant(Bool)
    /// One comparison.
    case comparison(Comparison)
    /// True when every term is.
    case and([ObjectPredicate])
    /// True when some term is.
    case or([ObjectPredicate])
    /// The negation of the operand (true when the operand compared with nil).
    case not(ObjectPredicate)

    /// `TRUEPREDICATE`: every object matches.
    public static let `true` = ObjectPredicate.constant(true)
    /// `FALSEPREDICATE`: no object matches.
    public static let `false` = ObjectPredicate.constant(false)

    /// A plain comparison.
    public static func compare(
        _ lhs: ObjectExpression, _ op: ComparisonOperator, _ rhs: ObjectExpression, options: ComparisonOptions = [],
        quantifier: Quantifier? = nil
    ) -> ObjectPredicate {
        .comparison(Comparison(lhs: lhs, op: op, rhs: rhs, options: options, quantifier: quantifier))
    }
}

/// One comparison: `[ANY|ALL|NONE] lhs OP[c|d|cd] rhs`.
public struct Comparison: Sendable, Hashable {
    /// The left side: usually a key path, an aggregate or a subquery count.
    public var lhs: ObjectExpression
    /// The operator.
    public var op: ComparisonOperator
    /// The right side: usually a value, an object, a list (for `IN` and
    /// `BETWEEN`), a key path or a variable.
    public var rhs: ObjectExpression
    /// `[c]`, `[d]`, `[cd]`: for string comparisons.
    public var options: ComparisonOptions
    /// `ANY`, `ALL`, `NONE` before a to-many key path on the left.
    public var quantifier: Quantifier?

    /// A comparison `lhs op rhs`, with its string options and quantifier.
    /// Nothing is checked here: a comparison that does not fit the entity
    /// fails when it is used (``ObjectGraphError/invalidPredicate(_:)``,
    /// `unknownKey`, `typeMismatch`).
    public init(lhs: ObjectExpression, op: ComparisonOperator, rhs: ObjectExpression, options: ComparisonOptions = [], quantifier: Quantifier? = nil) {
        self.lhs = lhs
        self.op = op
        self.rhs = rhs
        self.options = options
        self.quantifier = quantifier
    }
}

/// `[c]` (case-insensitive) and `[d]` (diacritic-insensitive).
public struct ComparisonOptions: OptionSet, Sendable, Hashable {
    /// The options as bits: 1 for `[c]`, 2 for `[d]`.
    public let rawValue: Int
    /// The options whose bits are `rawValue`.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `[c]`: letters compare folded for case.
    public static let caseInsensitive = ComparisonOptions(rawValue: 1)
    /// `[d]`: letters compare without their diacritics.
    public static let diacriticInsensitive = ComparisonOptions(rawValue: 2)

    /// `[c]`, `[d]`, `[cd]` or "".
    public var modifier: String {
        switch (contains(.caseInsensitive), contains(.diacriticInsensitive)) {
        case (true, true): "[cd]"
        case (true, false): "[c]"
        case (false, true): "[d]"
        case (false, false): ""
        }
    }
}

/// Quantifiers over a to-many key path.
public enum Quantifier: String, Sendable, Hashable {
    /// Some destination satisfies the comparison.
    case any = "ANY"
    /// Every destination satisfies it (true when there is none).
    case all = "ALL"
    /// No destination satisfies it.
    case none = "NONE"
}

/// Aggregates over a to-many key path.
public enum Aggregate: String, Sendable, Hashable, CaseIterable {
    /// The number of destinations.
    case count = "@count"
    /// The sum of the attribute over the destinations' non-nil values; 0 when
    /// there is none.
    case sum = "@sum"
    /// The average of the non-nil values; nil when there is none.
    case avg = "@avg"
    /// The smallest non-nil value; nil when there is none.
    case min = "@min"
    /// The largest non-nil value; nil when there is none.
    case max = "@max"
}

/// One side of a comparison.
public indirect enum ObjectExpression: Sendable, Hashable {
    /// A key of the entity, or a path through to-one relationships
    /// (`owner.name`); inside `SUBQUERY`, a path from its variable
    /// (`$x.rating`). A to-one relationship itself compares with objects and
    /// nil; a to-many one needs a quantifier or an aggregate, or `CONTAINS`
    /// with one object (`people CONTAINS %@`, which is `ANY people == %@`).
    case keyPath(String)
    /// A constant.
    case value(Value)
    /// An object, by ID (for comparisons with a to-one relationship).
    case object(ObjectID)
    /// `{a, b, c}`: for `IN` and `BETWEEN`.
    case list([ObjectExpression])
    /// `$name`: a variable not substituted yet.
    case variable(String)
    /// `path.@count`, or `path.@sum.attribute` (and `@avg`, `@min`, `@max`)
    /// over the to-many relationship at the end of `path`.
    case aggregate(Aggregate, path: String, attribute: String?)
    /// `SUBQUERY(collection, $variable, predicate).@count`: how many objects
    /// of the to-many `collection` match.
    case subqueryCount(collection: String, variable: String, predicate: ObjectPredicate)
}

/// Comparison operators.
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case like = "LIKE"
    case contains = "CONTAINS"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case matches = "MATCHES"
    case `in` = "IN"
    case between = "BETWEEN"

    var isOrdering: Bool { self == .less || self == .lessOrEqual || self == .greater || self == .greaterOrEqual }
    var isStringOperator: Bool { self == .like || self == .contains || self == .beginsWith || self == .endsWith || self == .matches }

    var sql: String {
        switch self {
        case .equal: "="
        case .notEqual: "!="
        default: rawValue
        }
    }

    /// The operator with its operands swapped (`a < b` is `b > a`); nil for
    /// operators that cannot swap.
    var swapped: ComparisonOperator? {
        switch self {
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        case .equal, .notEqual: self
        default: nil
        }
    }
}

// MARK: Building predicates in Swift

/// A key path, for building predicates: `Key("rating") < 5`,
/// `Key("owner.name") == "Ada" && Key("name").like("*ie*", options: .caseInsensitive)`.
public struct Key: Sendable {
    /// The key path, dot-separated (`owner.name`).
    public let path: String
    /// The key or key path `path`, checked against the entity only when a
    /// predicate made with it is used.
    public init(_ path: String) { self.path = path }

    private func compare(_ op: ComparisonOperator, _ rhs: ObjectExpression, _ options: ComparisonOptions = []) -> ObjectPredicate {
        .compare(.keyPath(path), op, rhs, options: options)
    }

    /// `path == value`: nil equals only nil, so ``Value/null`` tests for
    /// nil.
    public static func == (lhs: Key, rhs: Value) -> ObjectPredicate { lhs.compare(.equal, .value(rhs)) }
    /// `path != value`: nil differs from every value but nil, so
    /// ``Value/null`` tests for a value.
    public static func != (lhs: Key, rhs: Value) -> ObjectPredicate { lhs.compare(.notEqual, .value(rhs)) }
    /// `path < value` (false when either side is nil).
    public static func < (lhs: Key, rhs: Value) -> ObjectPredicate { lhs.compare(.less, .value(rhs)) }
    /// `path <= value` (false when either side is nil).
    public static func <= (lhs: Key, rhs: Value) -> ObjectPredicate { lhs.compare(.lessOrEqual, .value(rhs)) }
    /// `path > value` (false when either side is nil).
    public static func > (lhs: Key, rhs: Value) -> ObjectPredicate { lhs.compare(.greater, .value(rhs)) }
    /// `path >= value` (false when either side is nil).
    public static func >= (lhs: Key, rhs: Value) -> ObjectPredicate { lhs.compare(.greaterOrEqual, .value(rhs)) }
    /// `toOne == object`: the to-one relationship at the path is the object.
    public static func == (lhs: Key, rhs: ObjectID) -> ObjectPredicate { lhs.compare(.equal, .object(rhs)) }
    /// `toOne != object`: the to-one relationship at the path is not the
    /// object (nil included).
    public static func != (lhs: Key, rhs: ObjectID) -> ObjectPredicate { lhs.compare(.notEqual, .object(rhs)) }
    /// `path == other`: two keys of the same object compared.
    public static func == (lhs: Key, rhs: Key) -> ObjectPredicate { lhs.compare(.equal, .keyPath(rhs.path)) }
    /// `path < other`: two keys of the same object compared.
    public static func < (lhs: Key, rhs: Key) -> ObjectPredicate { lhs.compare(.less, .keyPath(rhs.path)) }

    /// `path LIKE pattern`: `*` matches any run of characters, `?` one, and
    /// the pattern covers the whole string.
    public func like(_ pattern: String, options: ComparisonOptions = []) -> ObjectPredicate { compare(.like, .value(.string(pattern)), options) }
    /// `path CONTAINS text`: the string holds `text`.
    public func contains(_ text: String, options: ComparisonOptions = []) -> ObjectPredicate { compare(.contains, .value(.string(text)), options) }
    /// `toMany CONTAINS object`: the to-many relationship at the path holds the object.
    public func contains(_ object: ObjectID) -> ObjectPredicate { compare(.contains, .object(object)) }
    /// `path BEGINSWITH text`.
    public func beginsWith(_ text: String, options: ComparisonOptions = []) -> ObjectPredicate { compare(.beginsWith, .value(.string(text)), options) }
    /// `path ENDSWITH text`.
    public func endsWith(_ text: String, options: ComparisonOptions = []) -> ObjectPredicate { compare(.endsWith, .value(.string(text)), options) }
    /// `path MATCHES regex`: the ICU regular expression matches the whole
    /// string.
    public func matches(_ regex: String, options: ComparisonOptions = []) -> ObjectPredicate { compare(.matches, .value(.string(regex)), options) }
    /// `path IN {values}`: the value equals one of `values`; nil never
    /// matches, even with ``Value/null`` among them.
    public func isIn(_ values: [Value]) -> ObjectPredicate { compare(.in, .list(values.map { .value($0) })) }
    /// `toOne IN {objects}`: the to-one relationship at the path is one of
    /// the objects; `Key.object.isIn(ids)` (`SELF IN %@`): the object is.
    public func isIn(_ objects: [ObjectID]) -> ObjectPredicate { compare(.in, .list(objects.map { .object($0) })) }
    /// The object itself (`SELF`), to fetch the objects of a list of IDs in
    /// one request: `Key.object.isIn(ids)`, the twin of Core Data's `SELF IN %@`.
    public static let object = Key("SELF")
    /// `path BETWEEN {low, high}`: `low <= path <= high`.
    public func between(_ low: Value, _ high: Value) -> ObjectPredicate { compare(.between, .list([.value(low), .value(high)])) }

    /// `path.@count`, for comparisons: `Key("selfies").count > 0`.
    public var count: AggregateKey { AggregateKey(expression: .aggregate(.count, path: path, attribute: nil)) }
    /// `path.@sum.attribute` and the other aggregates.
    public func aggregate(_ aggregate: Aggregate, _ attribute: String) -> AggregateKey {
        AggregateKey(expression: .aggregate(aggregate, path: path, attribute: attribute))
    }
    /// `ANY path op value`.
    public func any(_ op: ComparisonOperator, _ value: Value, options: ComparisonOptions = []) -> ObjectPredicate {
        .compare(.keyPath(path), op, .value(value), options: options, quantifier: .any)
    }
    /// `ALL path op value`.
    public func all(_ op: ComparisonOperator, _ value: Value, options: ComparisonOptions = []) -> ObjectPredicate {
        .compare(.keyPath(path), op, .value(value), options: options, quantifier: .all)
    }
    /// `NONE path op value`.
    public func none(_ op: ComparisonOperator, _ value: Value, options: ComparisonOptions = []) -> ObjectPredicate {
        .compare(.keyPath(path), op, .value(value), options: options, quantifier: Quantifier.none)
    }
}

/// An aggregate or subquery count, for building comparisons in Swift.
public struct AggregateKey: Sendable {
    /// The aggregate or subquery count, as the left side of a comparison.
    public let expression: ObjectExpression

    /// `SUBQUERY(collection, $variable, predicate).@count`.
    public static func subquery(_ collection: String, _ variable: String, _ predicate: ObjectPredicate) -> AggregateKey {
        AggregateKey(expression: .subqueryCount(collection: collection, variable: variable, predicate: predicate))
    }

    /// `aggregate == value`.
    public static func == (lhs: AggregateKey, rhs: Value) -> ObjectPredicate { .compare(lhs.expression, .equal, .value(rhs)) }
    /// `aggregate != value`.
    public static func != (lhs: AggregateKey, rhs: Value) -> ObjectPredicate { .compare(lhs.expression, .notEqual, .value(rhs)) }
    /// `aggregate < value`.
    public static func < (lhs: AggregateKey, rhs: Value) -> ObjectPredicate { .compare(lhs.expression, .less, .value(rhs)) }
    /// `aggregate <= value`.
    public static func <= (lhs: AggregateKey, rhs: Value) -> ObjectPredicate { .compare(lhs.expression, .lessOrEqual, .value(rhs)) }
    /// `aggregate > value`.
    public static func > (lhs: AggregateKey, rhs: Value) -> ObjectPredicate { .compare(lhs.expression, .greater, .value(rhs)) }
    /// `aggregate >= value`.
    public static func >= (lhs: AggregateKey, rhs: Value) -> ObjectPredicate { .compare(lhs.expression, .greaterOrEqual, .value(rhs)) }
}

extension ObjectPredicate {
    /// `lhs AND rhs`. When `lhs` is already an `AND`, `rhs` joins its terms,
    /// so `a && b && c` is one `AND` of three terms.
    public static func && (lhs: ObjectPredicate, rhs: ObjectPredicate) -> ObjectPredicate {
        if case .and(let terms) = lhs { return .and(terms + [rhs]) }
        return .and([lhs, rhs])
    }

    /// `lhs OR rhs`. When `lhs` is already an `OR`, `rhs` joins its terms,
    /// so `a || b || c` is one `OR` of three terms.
    public static func || (lhs: ObjectPredicate, rhs: ObjectPredicate) -> ObjectPredicate {
        if case .or(let terms) = lhs { return .or(terms + [rhs]) }
        return .or([lhs, rhs])
    }

    /// `NOT operand`.
    public static prefix func ! (operand: ObjectPredicate) -> ObjectPredicate { .not(operand) }
}

// MARK: Printing

extension ObjectPredicate: CustomStringConvertible {
    /// The canonical format string, which parses back to the same tree
    /// (object IDs aside: they print as `Entity/pN`, which only `%@` can
    /// give back).
    public var description: String {
        switch self {
        case .constant(let value): value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let c):
            (c.quantifier.map { "\($0.rawValue) " } ?? "") + "\(c.lhs) \(c.op.rawValue)\(c.options.modifier) \(c.rhs)"
        case .and(let terms): terms.map { $0.parenthesized }.joined(separator: " AND ")
        case .or(let terms): terms.map { $0.parenthesized }.joined(separator: " OR ")
        case .not(let operand): "NOT \(operand.parenthesized)"
        }
    }

    private var parenthesized: String {
        switch self {
        case .constant, .comparison: description
        default: "(\(description))"
        }
    }
}

extension ObjectExpression: CustomStringConvertible {
    /// The expression in format-string syntax: a key that is a keyword
    /// written with `#`, values as ``Value/description`` writes them, objects
    /// as `Entity/pN`, variables as `$name`.
    public var description: String {
        switch self {
        case .keyPath(let path):
            path.split(separator: ".", omittingEmptySubsequences: false).map { component in
                predicateKeywords.contains(component.uppercased()) ? "#" + component : String(component)
            }.joined(separator: ".")
        case .value(let value): value.description
        case .object(let id): "\(id)"
        case .list(let items): "{" + items.map(\.description).joined(separator: ", ") + "}"
        case .variable(let name): "$\(name)"
        case .aggregate(let aggregate, let path, let attribute):
            "\(path).\(aggregate.rawValue)" + (attribute.map { ".\($0)" } ?? "")
        case .subqueryCount(let collection, let variable, let predicate):
            "SUBQUERY(\(collection), $\(variable), \(predicate)).@count"
        }
    }
}
