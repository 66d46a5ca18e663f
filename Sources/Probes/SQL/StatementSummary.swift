/// What a statement does and to which table, read from its text once per
/// shape: the operation (its first keyword) and the table it reads or
/// writes (after the outermost `FROM`, `INTO` or `UPDATE`). The server
/// bridges use it for their dimensions and attributes (a metric per
/// operation and table, OpenTelemetry's `db.operation.name` and
/// `db.collection.name`), so that nothing per execution reads SQL text.
public struct StatementSummary: Sendable, Hashable {
    /// `SELECT`, `INSERT`, `UPDATE`, `DELETE`, `BEGIN`, `COMMIT`, … (the
    /// first keyword, upper-cased); "" for an empty text.
    public let operation: String
    /// The table, unquoted: an entity's table (named after its inheritance
    /// root), a join table or one of the store's own; nil when the
    /// statement names none (BEGIN, COMMIT) or it is not found.
    public let table: String?

    /// OpenTelemetry's `db.query.summary` (and a span's name): `SELECT
    /// Item`, or the operation alone.
    public let summary: String
    /// The operation in lower case (`select`, `begin`), for metric
    /// dimensions.
    public let kind: String

    /// The summary of a statement that does `operation` on `table`; the
    /// ``summary`` and ``kind`` follow from them.
    public init(operation: String, table: String?) {
        self.operation = operation
        self.table = table
        summary = table.map { "\(operation) \($0)" } ?? operation
        kind = operation.lowercased()
    }

    /// The summary of a statement's text or shape.
    public init(_ sql: String) {
        let words = StatementWords(sql)
        let operation = words.first.map { $0.uppercased() } ?? ""
        let table: String? =
            switch operation {
            case "SELECT", "DELETE": words.identifier(after: "FROM")
            case "INSERT", "REPLACE": words.identifier(after: "INTO")
            case "UPDATE": words.identifierAfterFirstWord()
            default: nil
            }
        self.init(operation: operation, table: table)
    }
}

/// The words of a statement outside parentheses and string literals, as a
/// statement summary needs them.
private struct StatementWords {
    /// Words at parenthesis depth 0, in order: keywords and identifiers
    /// (quoted ones with their quotes).
    private var words: [Substring] = []

    init(_ sql: String) {
        var depth = 0
        var index = sql.startIndex
        while index < sql.endIndex {
            let character = sql[index]
            switch character {
            case "(":
                depth += 1
                index = sql.index(after: index)
            case ")":
                depth = max(0, depth - 1)
                index = sql.index(after: index)
            case "'", "\"", "`", "[":
                let close: Character = character == "[" ? "]" : character
                var end = sql.index(after: index)
                while end < sql.endIndex, sql[end] != close { end = sql.index(after: end) }
                if end < sql.endIndex { end = sql.index(after: end) }
                if depth == 0, character != "'" { words.append(sql[index..<end]) }
                index = end
            case _ where character.isLetter || character == "_":
                var end = sql.index(after: index)
                while end < sql.endIndex, sql[end].isLetter || sql[end].isNumber || sql[end] == "_" || sql[end] == "." {
                    end = sql.index(after: end)
                }
                if depth == 0 { words.append(sql[index..<end]) }
                index = end
            default:
                index = sql.index(after: index)
            }
            // A summary needs only the first few words.
            if words.count > 64 { break }
        }
    }

    var first: Substring? { words.first }

    /// The identifier after the first `keyword` (case-insensitive).
    func identifier(after keyword: String) -> String? {
        guard let position = words.firstIndex(where: { $0.uppercased() == keyword }), position + 1 < words.count else {
            return nil
        }
        return Self.unquoted(words[position + 1])
    }

    /// The identifier after the first word (`UPDATE "Item"`), skipping
    /// `OR ROLLBACK`-style conflict clauses.
    func identifierAfterFirstWord() -> String? {
        var position = 1
        if position < words.count, words[position].uppercased() == "OR" { position += 2 }
        guard position < words.count else { return nil }
        return Self.unquoted(words[position])
    }

    private static func unquoted(_ word: Substring) -> String {
        guard let first = word.first, first == "\"" || first == "`" || first == "[", word.count >= 2 else {
            return String(word)
        }
        return String(word.dropFirst().dropLast())
    }
}
