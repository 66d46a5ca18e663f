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
    case status(Bool)
    case count(Int)
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
    case value(Value)
    /// `key op value`, for numeric attributes.
    case arithmetic(String, ArithmeticOperator, Value)

    public enum ArithmeticOperator: String, Sendable, Hashable {
        case add = "+", subtract = "-", multiply = "*", divide = "/"
    }
}

/// Changes every object of an entity that matches a predicate, as one
/// `UPDATE` statement: no context, no object, no validation beyond types
/// (as Core Data's batch update). Merge the returned IDs into a context
/// with ``ObjectContext/mergeBatchResult(_:)``.
public struct BatchUpdateRequest: Sendable {
    public var entityName: String
    public var predicate: ObjectPredicate?
    public var propertiesToUpdate: [String: UpdateExpression]
    public var resultType: BatchResultType

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
    public enum Source: Sendable {
        case objects([[String: Value]])
        /// Called until it returns true ("done"); each call fills one row
        /// (a call that returns true adds no row).
        case handler(@Sendable (inout [String: Value]) -> Bool)
    }

    public var entityName: String
    public var source: Source
    public var resultType: BatchResultType

    public init(entityName: String, objects: [[String: Value]], resultType: BatchResultType = .status) {
        self.entityName = entityName
        self.source = .objects(objects)
        self.resultType = resultType
    }

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
    public var entityName: String
    public var predicate: ObjectPredicate?
    public var resultType: BatchResultType

    public init(entityName: String, predicate: ObjectPredicate? = nil, resultType: BatchResultType = .status) {
        self.entityName = entityName
        self.predicate = predicate
        self.resultType = resultType
    }
}
