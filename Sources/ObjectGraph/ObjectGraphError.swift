/// What went wrong in the object graph, naming what was wrong.
///
/// Every error reads as one line (`description`) that a user can act on.
public enum ObjectGraphError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The model itself is inconsistent.
    case invalidModel(String)
    /// The store file was made with another model; the lines say what differs.
    case modelMismatch(path: String, differences: [String])
    /// No entity with this name.
    case unknownEntity(String)
    /// The entity has no property with this name (or not of the kind asked).
    case unknownKey(entity: String, key: String)
    /// A value of the wrong type for a key.
    case typeMismatch(entity: String, key: String, expected: String, got: String)
    /// A non-optional attribute or relationship has no value at save.
    case missingValue(object: ObjectID, key: String)
    /// A save would break a uniqueness constraint.
    case uniquenessViolation(entity: String, keys: [String], object: ObjectID?)
    /// A fault could not be fulfilled: the object's row is gone.
    case objectDeleted(ObjectID)
    /// The object was deleted in its context, or its context was reset or
    /// released: it can no longer be used.
    case objectInvalidated(ObjectID, reason: String)
    /// Deleting the object is refused by a `deny` delete rule.
    case deleteDenied(object: ObjectID, key: String)
    /// The object belongs to another context.
    case wrongContext(ObjectID)
    /// A fetch request that cannot run as asked.
    case invalidFetchRequest(String)
    /// The predicate does not fit the entity.
    case invalidPredicate(String)
    /// The store could not be opened or used.
    case store(path: String, reason: String, sqlite: SQLiteError?)
    /// A statement failed during a save; nothing was written.
    case saveFailed(SQLiteError)
    /// A batch request that cannot run as asked; nothing was written.
    case invalidBatchRequest(String)
    /// A persistent history token from another store.
    case historyTokenMismatch(expected: String, got: String)
    /// Persistent history is off for this store.
    case historyDisabled
    /// Work on the store was cancelled (a time limit, Ctrl-C).
    case cancelled(String)
    /// A derived attribute cannot be set; the store computes it.
    case derivedAttribute(entity: String, key: String)
    /// An insert of an abstract entity: only its subentities can be inserted.
    case abstractEntity(String)

    /// The error as one line that names what was wrong, such as
    /// `entity Selfie has no key nmae`.
    public var description: String {
        switch self {
        case .invalidModel(let reason):
            "invalid model: \(reason)"
        case .modelMismatch(let path, let differences):
            "the store \(path) was made with another model: \(differences.joined(separator: "; "))"
        case .unknownEntity(let name):
            "unknown entity \(name)"
        case .abstractEntity(let name):
            "entity \(name) is abstract: insert one of its subentities"
        case .unknownKey(let entity, let key):
            "entity \(entity) has no key \(key)"
        case .typeMismatch(let entity, let key, let expected, let got):
            "\(entity).\(key) expects \(expected), got \(got)"
        case .missingValue(let object, let key):
            "\(object) has no value for non-optional \(object.entityName).\(key)"
        case .uniquenessViolation(let entity, let keys, let object):
            "\(object.map { "\($0) breaks" } ?? "a save breaks") the uniqueness constraint of \(entity) on (\(keys.joined(separator: ", ")))"
        case .objectDeleted(let id):
            "cannot fulfill a fault for \(id): its row was deleted"
        case .objectInvalidated(let id, let reason):
            "\(id) can no longer be used: \(reason)"
        case .deleteDenied(let object, let key):
            "cannot delete \(object): \(object.entityName).\(key) has the delete rule deny and is not empty"
        case .wrongContext(let id):
            "\(id) belongs to another context"
        case .invalidFetchRequest(let reason):
            "invalid fetch request: \(reason)"
        case .invalidPredicate(let reason):
            "invalid predicate: \(reason)"
        case .store(let path, let reason, _):
            "store \(path): \(reason)"
        case .saveFailed(let error):
            "save failed, nothing was written: \(error)"
        case .invalidBatchRequest(let reason):
            "invalid batch request, nothing was written: \(reason)"
        case .historyTokenMismatch(let expected, let got):
            "the history token belongs to store \(got), not to this store \(expected)"
        case .cancelled(let reason):
            "cancelled: \(reason)"
        case .derivedAttribute(let entity, let key):
            "\(entity).\(key) is a derived attribute: the store computes it on save"
        case .historyDisabled:
            "persistent history is off for this store (StoreConfiguration.persistentHistoryTracking)"
        }
    }
}
