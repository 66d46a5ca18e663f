/// Lines that continue the log line before them, whatever their length:
/// a statement written over several lines (`sql: SELECT t0.Z_ENT, t0.Z_PK`,
/// then `FROM ZGEOGRAPHICREGION t0`, `WHERE …`), and a fault whose object
/// is printed on the line after it (`fault fulfilled from database for :
/// 0xd000000000100002`, then `<x-coredata://…/Country/p4>`). Lines that a
/// terminal or a page wrapped are joined by their length
/// (``SQLLogAnalyzer/wrapWidth``) as before.
extension SQLLogAnalyzer {
    /// The SQL words a statement's next line starts with when the
    /// statement goes on there (upper case, as Core Data and Faultline
    /// print SQL; prose starts otherwise).
    static let continuationKeywords = [
        "FROM", "WHERE", "AND", "OR", "ORDER", "GROUP", "HAVING", "LIMIT", "OFFSET", "JOIN", "LEFT", "INNER", "CROSS", "OUTER", "ON",
        "UNION", "EXCEPT", "INTERSECT", "VALUES", "SET", "IN", "NOT", "WHEN", "THEN", "ELSE", "END", "AS", "USING", "COLLATE", "ESCAPE",
        "LIKE", "GLOB", "BETWEEN", "IS", "ASC", "DESC", "RETURNING",
    ]

    /// Whether `line` starts as the rest of a statement does: an SQL
    /// keyword (`FROM …`, `VALUES(?,?)`) or a closing parenthesis or comma.
    static func continuesStatement(_ line: Substring) -> Bool {
        guard let first = line.utf8.first else { return false }
        if first == UInt8(ascii: ")") || first == UInt8(ascii: ",") { return true }
        for keyword in continuationKeywords where line.hasPrefix(keyword) {
            let after = line.dropFirst(keyword.count).first
            if after == nil || after == " " || after == "(" || after == "\t" { return true }
        }
        return false
    }

    /// Whether `sql` cannot end where it stops: a parenthesis left open, or
    /// a last character or word that needs more (`,`, `=`, `FROM`, `AND`).
    static func isUnfinished(_ sql: String) -> Bool {
        var depth = 0
        var quoted = false
        for byte in sql.utf8 {
            if byte == UInt8(ascii: "'") { quoted.toggle() }
            if quoted { continue }
            if byte == UInt8(ascii: "(") { depth += 1 } else if byte == UInt8(ascii: ")") { depth -= 1 }
        }
        if depth > 0 { return true }
        let end = sql.utf8.reversed().drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        guard let last = end.first else { return false }
        if [UInt8(ascii: ","), UInt8(ascii: "="), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "(")].contains(last) { return true }
        let word = String(decoding: end.prefix { $0 != 0x20 }.reversed(), as: UTF8.self)
        return ["SELECT", "FROM", "WHERE", "AND", "OR", "BY", "JOIN", "ON", "SET", "VALUES", "IN", "NOT", "INTO"].contains(word)
    }

    /// Whether an annotation is a fault whose object it does not name: its
    /// URI may be on the next line.
    static func needsObject(_ annotation: Substring) -> Bool {
        // A byte comparison first: most annotations are no fault.
        guard starts(annotation, with: "fault fulfilled from ") else { return false }
        // An object is named `Entity/p42` or by a URI ending so: no `/p`, no object.
        return find("/p", in: annotation.dropFirst(21)) == nil
    }

    /// Whether a line is an object's URI (`<x-coredata://…/Country/p4>`).
    static func isObjectURI(_ line: Substring) -> Bool {
        line.hasPrefix("<x-coredata:") || line.hasPrefix("x-coredata:")
    }
}
