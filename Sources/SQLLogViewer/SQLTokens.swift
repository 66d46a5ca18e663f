/// A statement's tokens: identifiers (bare or quoted), string literals,
/// numbers, `?`, and single punctuation characters; white space dropped.
///
/// Tokens are read by characters (`Character`: a letter, a number, white
/// space as Unicode has them). A text whose characters are its bytes as
/// far as tokens go (ASCII, or bytes beyond ASCII only inside a string
/// literal and never next to one of its quotes, where they cannot join a
/// quote into another character) is read over its UTF-8 bytes, without a
/// `String` per token; any other text by its `Character`s. Both readings
/// give the same tokens (``init(characters:)`` is the reference), and each
/// token's keyword and punctuation are worked out once, as it is read.
struct SQLTokens {
    /// The keywords the facts read (``LoggedStatementFacts``).
    enum Keyword: UInt8, CaseIterable {
        case select, from, `as`, with, `where`, limit, group, order, or, and, not, on, `in`, exists, by, when, then, `else`, `case`, `is`,
             between, like, glob, having, left, join, inner, cross, union

        /// The keyword as written in capitals.
        var text: String {
            switch self {
            case .select: "SELECT"
            case .from: "FROM"
            case .as: "AS"
            case .with: "WITH"
            case .where: "WHERE"
            case .limit: "LIMIT"
            case .group: "GROUP"
            case .order: "ORDER"
            case .or: "OR"
            case .and: "AND"
            case .not: "NOT"
            case .on: "ON"
            case .in: "IN"
            case .exists: "EXISTS"
            case .by: "BY"
            case .when: "WHEN"
            case .then: "THEN"
            case .else: "ELSE"
            case .case: "CASE"
            case .is: "IS"
            case .between: "BETWEEN"
            case .like: "LIKE"
            case .glob: "GLOB"
            case .having: "HAVING"
            case .left: "LEFT"
            case .join: "JOIN"
            case .inner: "INNER"
            case .cross: "CROSS"
            case .union: "UNION"
            }
        }

        /// A keyword a parenthesis may follow without being a function's.
        var isSQLKeyword: Bool {
            switch self {
            case .where, .and, .or, .not, .on, .in, .exists, .select, .by, .when, .then, .else, .case, .is, .between, .like, .glob, .having,
                 .from, .as:
                true
            default: false
            }
        }

        /// A word that starts a clause, not an alias.
        var isClauseKeyword: Bool {
            switch self {
            case .where, .order, .limit, .group, .left, .join, .inner, .cross, .on, .union, .having, .as: true
            default: false
            }
        }

        /// The keyword whose capitals are packed in `packed` (a word of
        /// two to eight bytes, uppercased, first byte lowest).
        static func packed(_ packed: UInt64) -> Keyword? {
            packedKeywords[packed]
        }

        private static let packedKeywords: [UInt64: Keyword] = Dictionary(
            uniqueKeysWithValues: allCases.map { (SQLTokens.pack(Array($0.text.utf8)), $0) })
    }

    struct Token {
        /// Where the token's text (as written: `"name"` with its quotes)
        /// is in ``SQLTokens/bytes``.
        let start: Int32
        let end: Int32
        let isIdentifier: Bool
        /// A string literal (`'…'`).
        let isStringLiteral: Bool
        /// The token's one ASCII character when it is no more (`(`, `?`,
        /// `.`), else 0.
        let punctuation: UInt8
        /// The keyword the token is, as any case writes it.
        let keyword: Keyword?

        func isKeyword(_ keyword: Keyword) -> Bool { self.keyword == keyword }

        /// A keyword a parenthesis may follow without being a function's.
        var isSQLKeyword: Bool { keyword?.isSQLKeyword ?? false }

        /// A word that starts a clause, not an alias.
        var isClauseKeyword: Bool { keyword?.isClauseKeyword ?? false }

        func isPunctuation(_ character: Unicode.Scalar) -> Bool { punctuation == UInt8(ascii: character) }
    }

    /// The tokens' texts: the statement's UTF-8 bytes (read over bytes), or
    /// the tokens' texts one after another (read by characters).
    let bytes: [UInt8]
    let list: [Token]

    /// The tokens of `sql`.
    init(_ sql: String) {
        var sql = sql
        if let read = sql.withUTF8({ Self.readBytes($0) }) {
            self = read
        } else {
            self.init(characters: sql)
        }
    }

    private init(bytes: [UInt8], list: [Token]) {
        self.bytes = bytes
        self.list = list
    }

    /// The token's text as written.
    func text(_ token: Token) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[Int(token.start)..<Int(token.end)]), as: UTF8.self) }
    }

    /// The identifier without quotes.
    func name(_ token: Token) -> String {
        let text = text(token)
        guard text.count >= 2, let first = text.first, first == "\"" || first == "`" || first == "[" else { return text }
        let inner = String(text.dropFirst().dropLast())
        // A doubled quote stands for one (no other text is the same as `""`).
        var previous: UInt8 = 0
        let hasDoubledQuote = inner.utf8.contains { byte in
            defer { previous = byte }
            return previous == 0x22 && byte == 0x22
        }
        return hasDoubledQuote ? inner.replacingOccurrences(of: "\"\"", with: "\"") : inner
    }

    /// The bytes `word` (at most eight) uppercased, packed first byte lowest.
    static func pack(_ word: some Collection<UInt8>) -> UInt64 {
        var packed: UInt64 = 0
        var shift: UInt64 = 0
        for byte in word {
            let upper = byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte
            packed |= UInt64(upper) << shift
            shift += 8
        }
        return packed
    }

    // MARK: Over bytes

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte == 0x24
    }

    /// The tokens of `text` read over its bytes; nil when its characters
    /// are not its bytes as far as tokens go (see above).
    private static func readBytes(_ text: UnsafeBufferPointer<UInt8>) -> SQLTokens? {
        var list: [Token] = []
        list.reserveCapacity(text.count / 4 + 4)
        let count = text.count
        var index = 0
        while index < count {
            let byte = text[index]
            if byte >= 0x80 { return nil }
            if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
                index += 1
            } else if byte == 0x22 || byte == 0x27 || byte == 0x60 || byte == 0x5B {
                let close: UInt8 = byte == 0x5B ? 0x5D : byte
                let isString = byte == 0x27
                var end = index + 1
                while end < count {
                    let inner = text[end]
                    if inner >= 0x80 {
                        // Only inside a string literal, and not after one of its quotes.
                        guard isString, text[end - 1] != 0x27 else { return nil }
                    } else if inner == close {
                        if isString, text[end - 1] >= 0x80 { return nil }
                        // A doubled quote is one quote inside the token.
                        if close != 0x5D, end + 1 < count, text[end + 1] == close {
                            end += 2
                            continue
                        }
                        break
                    }
                    end += 1
                }
                let last = min(end, count - 1)
                list.append(Token(
                    start: Int32(index), end: Int32(last + 1), isIdentifier: !isString, isStringLiteral: isString,
                    punctuation: last == index ? byte : 0, keyword: nil))
                index = end + 1
            } else if isWordByte(byte) {
                var end = index
                while end < count, isWordByte(text[end]) { end += 1 }
                // A character beyond ASCII may be a letter of the word (or join its last one).
                if end < count, text[end] >= 0x80 { return nil }
                let isNumber = byte >= 0x30 && byte <= 0x39
                let length = end - index
                let keyword = !isNumber && length >= 2 && length <= 8
                    ? Keyword.packed(pack(UnsafeBufferPointer(rebasing: text[index..<end]))) : nil
                list.append(Token(
                    start: Int32(index), end: Int32(end), isIdentifier: !isNumber, isStringLiteral: false,
                    punctuation: length == 1 ? byte : 0, keyword: keyword))
                index = end
            } else {
                list.append(Token(start: Int32(index), end: Int32(index + 1), isIdentifier: false, isStringLiteral: false, punctuation: byte, keyword: nil))
                index += 1
            }
        }
        return SQLTokens(bytes: Array(text), list: list)
    }

    // MARK: By characters

    /// The tokens of `sql` read by its `Character`s: the reading of any
    /// text, which ``init(_:)`` gives over bytes where they agree.
    init(characters sql: String) {
        var tokens: [Token] = []
        var bytes: [UInt8] = []
        let characters = Array(sql)
        var index = 0
        func isWordCharacter(_ character: Character) -> Bool {
            character.isLetter || character.isNumber || character == "_" || character == "$"
        }
        func add(_ text: String, isIdentifier: Bool) {
            let start = bytes.count
            bytes.append(contentsOf: text.utf8)
            let keyword = isIdentifier ? Keyword.allCases.first { text.count == $0.text.count && text.uppercased() == $0.text } : nil
            let punctuation = text.utf8.count == 1 ? text.utf8.first! : 0
            tokens.append(Token(
                start: Int32(start), end: Int32(bytes.count), isIdentifier: isIdentifier, isStringLiteral: text.hasPrefix("'"),
                punctuation: punctuation, keyword: keyword))
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
                add(String(characters[index...min(end, characters.count - 1)]), isIdentifier: character != "'")
                index = end + 1
            } else if isWordCharacter(character) {
                var end = index
                while end < characters.count, isWordCharacter(characters[end]) { end += 1 }
                let text = String(characters[index..<end])
                add(text, isIdentifier: !(text.first?.isNumber ?? false))
                index = end
            } else {
                add(String(character), isIdentifier: false)
                index += 1
            }
        }
        self.init(bytes: bytes, list: tokens)
    }
}
