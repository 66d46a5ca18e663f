/// A list of primary keys bound as one parameter: a JSON array that the
/// statement reads with `json_each`. One statement text whatever the number
/// of keys (so one prepared statement in the cache), and no limit on the
/// number of bound variables.
enum KeyList {
    /// `IN (SELECT value FROM json_each(?))`: membership in the bound list.
    static let membership = "IN (SELECT value FROM json_each(?))"

    /// The bound value: `[1,2,3]`, the IDs' primary keys in the order given.
    static func argument(_ ids: [ObjectID]) -> DatabaseValue {
        var text = "["
        text.reserveCapacity(ids.count * 6 + 2)
        for (offset, id) in ids.enumerated() {
            if offset > 0 { text += "," }
            text += String(id.primaryKey)
        }
        text += "]"
        return .text(text)
    }
}

/// A statement that binds one ``KeyList``, written twice: for a list
/// (`IN (SELECT value FROM json_each(?))`) and for a single key (`= ?`,
/// bound as the key). A save of one object asks about one key, and for one
/// key json_each's set-up (parsing the text, a virtual table cursor, the IN
/// list's temporary table) cost SQLite about 34,000 instructions more than
/// the lookup: a third of the save of one fireball, whose group keeps a
/// derived count.
struct KeyListStatement: Sendable {
    /// The text for any number of keys.
    let forList: String
    /// The text for one key.
    let forOne: String

    /// `template` writes the statement around the membership test it is given.
    init(_ template: (_ membership: String) -> String) {
        forList = template(KeyList.membership)
        forOne = template("= ?")
    }

    /// The text and argument for `ids`.
    func bound(to ids: [ObjectID]) -> (sql: String, argument: DatabaseValue) {
        ids.count == 1 ? (forOne, .integer(ids[0].primaryKey)) : (forList, KeyList.argument(ids))
    }
}
