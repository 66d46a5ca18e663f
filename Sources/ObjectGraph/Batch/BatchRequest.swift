/// What a batch request returns.
public enum BatchResultType: Sendable {
    /// Whether it ran.
    case status
    /// The number of rows affected.
    case count
    /// The IDs of the objects affected.
    case objectIDs
}

/// The result of a batch request, as its result type asked.
public enum BatchResult: Sendable, Equatable {
    /// Whether the request ran (true when it returns).
    case status(Bool)
    /// The number of rows affected.
    case count(Int)
    /// The IDs of the objects affected, in ID order.
    case objectIDs([ObjectID])

    /// The affected IDs, when the result carries them.
    public var objectIDs: [ObjectID]? {
        if case .objectIDs(let ids) = self { return ids }
        return nil
    }
}

/// A new value for an attribute in a batch update: a constant, or an
/// arithmetic expression on an attribute of the same row (`rating + 1`).
public enum UpdateExpression: Sendable, Hashable {
    /// A constant, converted to the attribute's type.
    case value(Value)
    /// `key op value`, for numeric attributes.
    case arithmetic(String, ArithmeticOperator, Value)

    /// The operators of an arithmetic update, computed by SQLite.
    public enum ArithmeticOperator: String, Sendable, Hashable {
        case add = "+", subtract = "-", multiply = "*", divide = "/"
    }
}

/// Changes every object of an entity that matches a predicate, as one
/// `UPDATE` statement: no context, no object, no validation beyond types
/// (as Core Data's batch update). Merge the returned IDs into a context
/// with ``ObjectContext/mergeBatchResult(_:)``.
public struct BatchUpdateRequest: Sendable {
    /// The entity whose objects are updated (its subentities' too: they share
    /// its table).
    public var entityName: String
    /// Which objects; nil means all.
    public var predicate: ObjectPredicate?
    /// The new values, by attribute name. Empty, an unknown or derived
    /// attribute, a value of the wrong type or nil for a non-optional
    /// attribute is an error, and nothing is written.
    public var propertiesToUpdate: [String: UpdateExpression]
    /// What the result carries.
    public var resultType: BatchResultType

    /// An update of `entityName`'s objects matching `predicate` (all when
    /// nil).
    public init(
        entityName: String, predicate: ObjectPredicate? = nil, propertiesToUpdate: [String: UpdateExpression],
        resultType: BatchResultType = .status
    ) {
        self.entityName = entityName
        self.predicate = predicate
        self.propertiesToUpdate = propertiesToUpdate
        self.resultType = resultType
    }
}

/// Inserts rows of one entity in one transaction, from dictionaries or
/// from a closure that fills one row at a time. With a uniqueness
/// constraint, a row that matches an existing one updates it (upsert).
/// Relationships are not set; existing ones are untouched.
public struct BatchInsertRequest: Sendable {
    /// Where the rows come from.
    public enum Source: Sendable {
        /// One dictionary of attribute values by name per row.
        case objects([[String: Value]])
        /// Called until it returns true ("done"); each call fills one row
        /// (a call that returns true adds no row).
        case handler(@Sendable (inout [String: Value]) -> Bool)
    }

    /// The entity the rows are inserted as; it may not be abstract.
    public var entityName: String
    /// The rows, as dictionaries or from a handler.
    public var source: Source
    /// What the result carries.
    public var resultType: BatchResultType

    /// An insert of `objects`, one row per dictionary of attribute values by
    /// name; a missing attribute takes its default.
    public init(entityName: String, objects: [[String: Value]], resultType: BatchResultType = .status) {
        self.entityName = entityName
        self.source = .objects(objects)
        self.resultType = resultType
    }

    /// An insert of the rows `handler` fills, one per call, until it returns
    /// true. Every row is taken from the handler before the first is written.
    public init(entityName: String, resultType: BatchResultType = .status, handler: @escaping @Sendable (inout [String: Value]) -> Bool) {
        self.entityName = entityName
        self.source = .handler(handler)
        self.resultType = resultType
    }
}

/// Deletes every object of an entity that matches a predicate, in one
/// transaction: its join rows go, and the delete rules the store can apply
/// are applied (nullify clears foreign keys, cascade deletes, deny refuses).
public struct BatchDeleteRequest: Sendable {
    /// The entity whose objects are deleted.
    public var entityName: String
    /// Which objects; nil means all.
    public var predicate: ObjectPredicate?
    /// What the result carries.
    public var resultType: BatchResultType

    /// A delete of `entityName`'s objects matching `predicate` (all when nil).
    public init(entityName: String, predicate: ObjectPredicate? = nil, resultType: BatchResultType = .status) {
        self.entityName = entityName
        self.predicate = predicate
        self.resultType = resultType
    }
}
