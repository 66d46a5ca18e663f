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
