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
        let head = sql.unicodeScalars.drop { $0.properties.isWhitespace }
        guard head.prefix(6).map({ Character($0).uppercased() }).joined() == "SELECT",
              head.dropFirst(6).first.map({ !(Character($0).isLetter || Character($0).isNumber || $0 == "_" || $0 == "$") }) ?? true
        else { return nil }
        let tokens = SQLTokens(sql)
        return facts(tokens.list, in: 0..<tokens.list.count, arguments: arguments, parametersBefore: 0)
    }

    private static func facts(_ tokens: [SQLTokens.Token], in range: Range<Int>, arguments: [String], parametersBefore: Int)
        -> StatementFacts?
    {
        guard let first = range.first, tokens[first].isKeyword("SELECT") else { return nil }
        var index = first
        var parameters = parametersBefore
        // The top-level FROM.
        var depth = 0
        while index < range.upperBound {
            let token = tokens[index]
            if token.text == "(" { depth += 1 } else if token.text == ")" { depth -= 1 }
            if token.text == "?" { parameters += 1 }
            if depth == 0, token.isKeyword("FROM") { break }
            index += 1
        }
        index += 1
        guard index < range.upperBound else { return nil }
        if tokens[index].text == "(", index + 1 < range.upperBound, tokens[index + 1].isKeyword("SELECT") {
            guard let close = matching(tokens, index, limit: range.upperBound) else { return nil }
            return facts(tokens, in: (index + 1)..<close, arguments: arguments, parametersBefore: parameters)
        }
        guard tokens[index].isIdentifier else { return nil }
        let table = tokens[index].name
        index += 1
        if index < range.upperBound, tokens[index].isKeyword("AS") { index += 1 }
        guard index < range.upperBound, tokens[index].isIdentifier, !tokens[index].isClauseKeyword else { return nil }
        let alias = tokens[index].name
        index += 1

        var facts = StatementFacts(entity: table)
        // Joins, up to the WHERE, ORDER BY or LIMIT of this query.
        var clause = ""
        depth = 0
        while index < range.upperBound {
            let token = tokens[index]
            if token.text == "(" {
                if index + 1 < range.upperBound, tokens[index + 1].isKeyword("SELECT") || tokens[index + 1].isKeyword("WITH") {
                    // A subquery: its conditions are not on this table.
                    facts.hasOtherConditions = facts.hasOtherConditions || clause == "WHERE"
                    let close = matching(tokens, index, limit: range.upperBound) ?? range.upperBound - 1
                    parameters += tokens[index...close].filter { $0.text == "?" }.count
                    index = close + 1
                    continue
                }
                depth += 1
            } else if token.text == ")" {
                depth -= 1
            } else if token.text == "?" {
                parameters += 1
            } else if depth == 0, token.isKeyword("WHERE") || token.isKeyword("LIMIT") || token.isKeyword("GROUP") {
                clause = token.name.uppercased()
                if clause == "LIMIT" { facts.hasLimit = true }
            } else if depth == 0, token.isKeyword("ORDER") {
                clause = "ORDER"
            }
            if clause == "WHERE" {
                if token.isKeyword("OR") { facts.hasDisjunction = true }
                if token.isKeyword("EXISTS") { facts.hasOtherConditions = true }
                if token.isIdentifier, index + 2 < range.upperBound, tokens[index + 1].text == ".", tokens[index + 2].isIdentifier {
                    let column = tokens[index + 2].name
                    if token.name != alias || isKey(column) {
                        facts.hasOtherConditions = true
                    } else {
                        let use = self.use(tokens, reference: index, column: index + 2, parametersBefore: parameters, arguments: arguments)
                        facts.filters.append(StatementFacts.Filter(column: StatementFacts.Column(attribute: column, indexed: nil), use: use))
                    }
                    index += 3
                    continue
                }
            } else if clause == "ORDER", depth == 0, token.isIdentifier, token.name == alias, index + 2 < range.upperBound,
                tokens[index + 1].text == ".", tokens[index + 2].isIdentifier, !isKey(tokens[index + 2].name),
                index == 0 || tokens[index - 1].text == "," || tokens[index - 1].isKeyword("BY")
            {
                facts.sortKeys.append(StatementFacts.Column(attribute: tokens[index + 2].name, indexed: nil))
            }
            index += 1
        }
        return facts
    }

    /// How an index could serve the condition on the column at `column`
    /// (the reference starts at `reference`).
    private static func use(
        _ tokens: [SQLTokens.Token], reference: Int, column: Int, parametersBefore: Int, arguments: [String]
    ) -> StatementFacts.IndexUse {
        // Inside a function call: `faultline_like(t0."name", ?, 0)` (not a
        // parenthesis after a keyword: `WHERE (t0."rating" < ? OR …)`).
        if reference >= 2, tokens[reference - 1].text == "(", tokens[reference - 2].isIdentifier, !tokens[reference - 2].isSQLKeyword {
            switch tokens[reference - 2].name.lowercased() {
            case "faultline_like", "faultline_matches", "nscoredatalike", "nscoredatamatches": return .patternMatch
            default: return .function
            }
        }
        guard column + 1 < tokens.count else { return .comparison }
        let next = tokens[column + 1]
        guard next.isKeyword("GLOB") || next.isKeyword("LIKE"), column + 2 < tokens.count else { return .comparison }
        let operand = tokens[column + 2]
        var pattern: String?
        if operand.text == "?" {
            pattern = parametersBefore < arguments.count ? arguments[parametersBefore] : nil
        } else if operand.text.hasPrefix("'") {
            pattern = operand.text
        }
        guard var text = pattern else { return .comparison }
        if text.hasPrefix("'") { text.removeFirst() }
        let wildcards: Set<Character> = next.isKeyword("GLOB") ? ["*", "?", "["] : ["%", "_"]
        return text.first.map(wildcards.contains) == true ? .wildcardPattern : .comparison
    }

    /// The index of the `)` that closes the `(` at `open`.
    private static func matching(_ tokens: [SQLTokens.Token], _ open: Int, limit: Int) -> Int? {
        var depth = 0
        for index in open..<limit {
            if tokens[index].text == "(" { depth += 1 }
            if tokens[index].text == ")" {
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

/// A statement's tokens: identifiers (bare or quoted), string literals,
/// numbers, `?`, and single punctuation characters; white space dropped.
struct SQLTokens {
    struct Token {
        /// The token as written (`"name"` with its quotes).
        let text: String
        let isIdentifier: Bool

        /// The identifier without quotes.
        var name: String {
            guard text.count >= 2, let first = text.first, first == "\"" || first == "`" || first == "[" else { return text }
            return String(text.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
        }

        func isKeyword(_ keyword: String) -> Bool {
            isIdentifier && text.count == keyword.count && text.uppercased() == keyword
        }

        /// A keyword a parenthesis may follow without being a function's.
        var isSQLKeyword: Bool {
            ["WHERE", "AND", "OR", "NOT", "ON", "IN", "EXISTS", "SELECT", "BY", "WHEN", "THEN", "ELSE", "CASE", "IS", "BETWEEN", "LIKE",
             "GLOB", "HAVING", "FROM", "AS"].contains { isKeyword($0) }
        }

        /// A word that starts a clause, not an alias.
        var isClauseKeyword: Bool {
            ["WHERE", "ORDER", "LIMIT", "GROUP", "LEFT", "JOIN", "INNER", "CROSS", "ON", "UNION", "HAVING", "AS"].contains { isKeyword($0) }
        }
    }

    let list: [Token]

    init(_ sql: String) {
        var tokens: [Token] = []
        let characters = Array(sql)
        var index = 0
        func isWordCharacter(_ character: Character) -> Bool {
            character.isLetter || character.isNumber || character == "_" || character == "$"
        }
        while index < characters.count {
            let character = characters[index]
            if character.isWhitespace {
                index += 1
            } else if character == "\"" || character == "'" || character == "`" || character == "[" {
                let close: Character = character == "[" ? "]" : character
                var end = index + 1
                while end < characters.count {
                    if characters[end] == close {
                        // A doubled quote is one quote inside the token.
                        if close != "]", end + 1 < characters.count, characters[end + 1] == close {
                            end += 2
                            continue
                        }
                        break
                    }
                    end += 1
                }
                let text = String(characters[index...min(end, characters.count - 1)])
                tokens.append(Token(text: text, isIdentifier: character != "'"))
                index = end + 1
            } else if isWordCharacter(character) {
                var end = index
                while end < characters.count, isWordCharacter(characters[end]) { end += 1 }
                let text = String(characters[index..<end])
                tokens.append(Token(text: text, isIdentifier: !(text.first?.isNumber ?? false)))
                index = end
            } else {
                tokens.append(Token(text: String(character), isIdentifier: false))
                index += 1
            }
        }
        list = tokens
    }
}
