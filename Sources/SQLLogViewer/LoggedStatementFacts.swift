import Probes

/// The facts of a statement read from a SQL debug log: what the engine
/// attaches to its statements' events (``StatementFacts``), derived here
/// from the statement's text and bound values, since a log (Faultline's or
/// Core Data's) has nothing else. The one place SQL text is read for the
/// insight rules: they read the facts.
///
/// Read: a `SELECT` whose FROM names a table with an alias (`"Selfie" t0`,
/// Core Data's `ZPERSON t0`), the conditions of its WHERE clause on that
/// alias's columns (a key column, `pk`, `…_pk` or `Z_PK`, is a lookup by
/// key, not a filter), how an index could serve each, ORs, conditions on
/// other tables or in subqueries, the ORDER BY columns and a LIMIT. A
/// `SELECT count(*) FROM (SELECT …)` gives its inner query's facts. Other
/// statements have none. Whether a column has an index is not in a log.
enum LoggedStatementFacts {
    static func facts(sql: String, arguments: [String]) -> StatementFacts? {
        // Only a SELECT has facts: other statements (a long INSERT) are not tokenized.
        guard startsWithSelect(sql) else { return nil }
        let tokens = SQLTokens(sql)
        return facts(tokens, in: 0..<tokens.list.count, arguments: arguments, parametersBefore: 0)
    }

    /// Whether `sql` begins with the word SELECT (any case, after white space).
    static func startsWithSelect(_ sql: String) -> Bool {
        var sql = sql
        // Over bytes where its first word and the character after it are ASCII.
        let ascii: Bool? = sql.withUTF8 { bytes in
            var index = 0
            while index < bytes.count, bytes[index] == 0x20 || (bytes[index] >= 0x09 && bytes[index] <= 0x0D) { index += 1 }
            guard index + 7 <= bytes.count, bytes[index..<(index + 7)].allSatisfy({ $0 < 0x80 }) else { return nil }
            guard SQLTokens.pack(bytes[index..<(index + 6)]) == SQLTokens.pack("SELECT".utf8) else { return false }
            let next = bytes[index + 6]
            return !((next >= 0x30 && next <= 0x39) || (next >= 0x41 && next <= 0x5A) || (next >= 0x61 && next <= 0x7A) || next == 0x5F || next == 0x24)
        }
        if let ascii { return ascii }
        let head = sql.unicodeScalars.drop { $0.properties.isWhitespace }
        return head.prefix(6).map({ Character($0).uppercased() }).joined() == "SELECT"
            && (head.dropFirst(6).first.map({ !(Character($0).isLetter || Character($0).isNumber || $0 == "_" || $0 == "$") }) ?? true)
    }

    private static func facts(_ tokens: SQLTokens, in range: Range<Int>, arguments: [String], parametersBefore: Int)
        -> StatementFacts?
    {
        let list = tokens.list
        guard let first = range.first, list[first].isKeyword(.select) else { return nil }
        var index = first
        var parameters = parametersBefore
        // The top-level FROM.
        var depth = 0
        while index < range.upperBound {
            let token = list[index]
            if token.isPunctuation("(") { depth += 1 } else if token.isPunctuation(")") { depth -= 1 }
            if token.isPunctuation("?") { parameters += 1 }
            if depth == 0, token.isKeyword(.from) { break }
            index += 1
        }
        index += 1
        guard index < range.upperBound else { return nil }
        if list[index].isPunctuation("("), index + 1 < range.upperBound, list[index + 1].isKeyword(.select) {
            guard let close = matching(list, index, limit: range.upperBound) else { return nil }
            return facts(tokens, in: (index + 1)..<close, arguments: arguments, parametersBefore: parameters)
        }
        guard list[index].isIdentifier else { return nil }
        let table = tokens.name(list[index])
        index += 1
        if index < range.upperBound, list[index].isKeyword(.as) { index += 1 }
        guard index < range.upperBound, list[index].isIdentifier, !list[index].isClauseKeyword else { return nil }
        let alias = tokens.name(list[index])
        index += 1

        var facts = StatementFacts(entity: table)
        // Joins, up to the WHERE, ORDER BY or LIMIT of this query.
        var clause: SQLTokens.Keyword?
        depth = 0
        while index < range.upperBound {
            let token = list[index]
            if token.isPunctuation("(") {
                if index + 1 < range.upperBound, list[index + 1].isKeyword(.select) || list[index + 1].isKeyword(.with) {
                    // A subquery: its conditions are not on this table.
                    facts.hasOtherConditions = facts.hasOtherConditions || clause == .where
                    let close = matching(list, index, limit: range.upperBound) ?? range.upperBound - 1
                    parameters += list[index...close].filter { $0.isPunctuation("?") }.count
                    index = close + 1
                    continue
                }
                depth += 1
            } else if token.isPunctuation(")") {
                depth -= 1
            } else if token.isPunctuation("?") {
                parameters += 1
            } else if depth == 0, token.isKeyword(.where) || token.isKeyword(.limit) || token.isKeyword(.group) {
                clause = token.keyword
                if clause == .limit { facts.hasLimit = true }
            } else if depth == 0, token.isKeyword(.order) {
                clause = .order
            }
            if clause == .where {
                if token.isKeyword(.or) { facts.hasDisjunction = true }
                if token.isKeyword(.exists) { facts.hasOtherConditions = true }
                if token.isIdentifier, index + 2 < range.upperBound, list[index + 1].isPunctuation("."), list[index + 2].isIdentifier {
                    let column = tokens.name(list[index + 2])
                    if tokens.name(token) != alias || isKey(column) {
                        facts.hasOtherConditions = true
                    } else {
                        let use = self.use(tokens, reference: index, column: index + 2, parametersBefore: parameters, arguments: arguments)
                        facts.filters.append(StatementFacts.Filter(column: StatementFacts.Column(attribute: column, indexed: nil), use: use))
                    }
                    index += 3
                    continue
                }
            } else if clause == .order, depth == 0, token.isIdentifier, index + 2 < range.upperBound,
                list[index + 1].isPunctuation("."), list[index + 2].isIdentifier,
                index == 0 || list[index - 1].isPunctuation(",") || list[index - 1].isKeyword(.by),
                tokens.name(token) == alias
            {
                let column = tokens.name(list[index + 2])
                if !isKey(column) { facts.sortKeys.append(StatementFacts.Column(attribute: column, indexed: nil)) }
            }
            index += 1
        }
        return facts
    }

    /// How an index could serve the condition on the column at `column`
    /// (the reference starts at `reference`).
    private static func use(
        _ tokens: SQLTokens, reference: Int, column: Int, parametersBefore: Int, arguments: [String]
    ) -> StatementFacts.IndexUse {
        let list = tokens.list
        // Inside a function call: `faultline_like(t0."name", ?, 0)` (not a
        // parenthesis after a keyword: `WHERE (t0."rating" < ? OR …)`).
        if reference >= 2, list[reference - 1].isPunctuation("("), list[reference - 2].isIdentifier, !list[reference - 2].isSQLKeyword {
            switch tokens.name(list[reference - 2]).lowercased() {
            case "faultline_like", "faultline_matches", "nscoredatalike", "nscoredatamatches": return .patternMatch
            default: return .function
            }
        }
        guard column + 1 < list.count else { return .comparison }
        let next = list[column + 1]
        guard next.isKeyword(.glob) || next.isKeyword(.like), column + 2 < list.count else { return .comparison }
        let operand = list[column + 2]
        var pattern: String?
        if operand.isPunctuation("?") {
            pattern = parametersBefore < arguments.count ? arguments[parametersBefore] : nil
        } else if operand.isStringLiteral {
            pattern = tokens.text(operand)
        }
        guard var text = pattern else { return .comparison }
        if text.hasPrefix("'") { text.removeFirst() }
        let wildcards: Set<Character> = next.isKeyword(.glob) ? ["*", "?", "["] : ["%", "_"]
        return text.first.map(wildcards.contains) == true ? .wildcardPattern : .comparison
    }

    /// The index of the `)` that closes the `(` at `open`.
    private static func matching(_ tokens: [SQLTokens.Token], _ open: Int, limit: Int) -> Int? {
        var depth = 0
        for index in open..<limit {
            if tokens[index].isPunctuation("(") { depth += 1 }
            if tokens[index].isPunctuation(")") {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }

    /// A key column: Faultline's `pk` and foreign keys (`owner_pk`; no
    /// attribute may be named so), Core Data's `Z_PK`, `Z_ENT`, `Z_OPT`.
    private static func isKey(_ column: String) -> Bool {
        column == "pk" || column.hasSuffix("_pk") || column.uppercased() == "Z_PK" || column.uppercased() == "Z_ENT"
            || column.uppercased() == "Z_OPT"
    }
}
