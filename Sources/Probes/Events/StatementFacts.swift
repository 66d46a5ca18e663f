/// What the engine knows of a statement it generated, attached to its SQL
/// events so that no insight rule has to read SQL text: the entity whose
/// table it reads, the attributes it filters and sorts on (of that table),
/// and how. A log reader derives the same facts from a statement's text
/// (`StatementFacts.parse` in Reporting), for logs written by others.
public struct StatementFacts: Sendable, Hashable, Codable {
    /// The entity whose table the statement reads (its FROM, alias `t0`).
    public var entity: String
    /// The conditions of the WHERE clause on that table's columns, in order.
    public var filters: [Filter]
    /// The attributes of that table in ORDER BY, in order.
    public var sortKeys: [Column]
    /// Whether the statement has a LIMIT.
    public var hasLimit: Bool
    /// Whether the WHERE clause ORs terms together.
    public var hasDisjunction: Bool
    /// Whether the WHERE clause has conditions on other tables or on
    /// aggregates (subqueries, joined tables): rows may be filtered without
    /// a filter on this table's columns.
    public var hasOtherConditions: Bool

    /// Whether `a` and `b` are both nil or equal, field by field through
    /// optional chaining: `Optional`'s `==` (or unwrapping) copied the
    /// facts on each side, on the repetition table's path per statement.
    /// Every stored field above is compared: a field added there is added
    /// here.
    static func same(_ a: StatementFacts?, _ b: StatementFacts?) -> Bool {
        a?.hasLimit == b?.hasLimit && a?.hasDisjunction == b?.hasDisjunction && a?.hasOtherConditions == b?.hasOtherConditions
            && a?.entity == b?.entity && a?.filters == b?.filters && a?.sortKeys == b?.sortKeys
    }

    /// Facts of a statement on `entity`'s table; by default no filter, no
    /// sort, no limit, no OR and no other condition.
    public init(
        entity: String, filters: [Filter] = [], sortKeys: [Column] = [], hasLimit: Bool = false, hasDisjunction: Bool = false,
        hasOtherConditions: Bool = false
    ) {
        self.entity = entity
        self.filters = filters
        self.sortKeys = sortKeys
        self.hasLimit = hasLimit
        self.hasDisjunction = hasDisjunction
        self.hasOtherConditions = hasOtherConditions
    }

    /// A read of rows of `entity` by key (a fault, a page, a prefetch, a
    /// relationship's destinations by foreign key): filtered, by keys.
    public static func keyLookup(_ entity: String) -> StatementFacts {
        StatementFacts(entity: entity, hasOtherConditions: true)
    }

    /// Whether the statement asks for only some rows (a WHERE clause): one
    /// without asks for every row, and scanning them is right.
    public var filtersRows: Bool { !filters.isEmpty || hasOtherConditions }

    /// An attribute of the entity and its column.
    public struct Column: Sendable, Hashable, Codable {
        /// The attribute's name in the model (`rating`).
        public var attribute: String
        /// Whether the model gives it an index; nil when not known (a log).
        public var indexed: Bool?

        /// The column of `attribute`; `indexed` nil when not known.
        public init(attribute: String, indexed: Bool?) {
            self.attribute = attribute
            self.indexed = indexed
        }
    }

    /// One condition on a column of the entity's table.
    public struct Filter: Sendable, Hashable, Codable {
        /// The column the condition is on.
        public var column: Column
        /// How the condition uses the column.
        public var use: IndexUse

        /// A condition on `column`.
        public init(column: Column, use: IndexUse) {
            self.column = column
            self.use = use
        }
    }

    /// Whether an index on the column can serve the condition.
    public enum IndexUse: String, Sendable, Hashable, Codable {
        /// A comparison with values (`=`, `<`, `IN`, `BETWEEN`, `IS NULL`,
        /// a GLOB with a literal prefix): an index serves it.
        case comparison
        /// A pattern matched per row by a registered function (a LIKE with
        /// inner wildcards, MATCHES): no index serves it.
        case patternMatch = "pattern match"
        /// A GLOB pattern that starts with a wildcard (a CONTAINS, an
        /// ENDSWITH): no index serves it.
        case wildcardPattern = "pattern from a wildcard"
        /// A function of the column (case or diacritic folding): no plain
        /// index serves it.
        case function

        /// Whether an index on the column can serve the condition.
        public var indexable: Bool { self == .comparison }
    }
}
