/// Names as Swift source spells them, for the source `perf-run model
/// import --swift` generates: which text is an identifier, which names
/// are keywords (written in backticks), and how a file's name becomes a
/// type's name.
enum SwiftIdentifier {
    /// Swift's keywords: a property of one of these names is declared and
    /// read in backticks (`` `class` ``, `\Post.`default``). (Contextual
    /// keywords such as `get`, `type` or `async` need none.)
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal",
        "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as",
        "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "_",
    ]

    /// Whether `text` is a plain ASCII identifier (`[A-Za-z_][A-Za-z0-9_]*`),
    /// the names the model itself allows.
    static func isPlain(_ text: String) -> Bool {
        guard let first = text.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        return text.utf8.allSatisfy { $0 == UInt8(ascii: "_") || isLetter($0) || isDigit($0) }
    }

    /// `name` as a declaration or a member reference writes it: in
    /// backticks when it is a keyword.
    static func spelled(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// A type name made of the ASCII letters and digits of `text`, each
    /// run of them a word that starts with a capital (`WordPress 20` →
    /// `WordPress20`, `my-app` → `MyApp`, `momcomTests` → `MomcomTests`);
    /// `_` first when it would start with a digit, nil when `text` has
    /// no letter or digit.
    static func typeName(fromWords text: String) -> String? {
        var result = ""
        var startsWord = true
        for byte in text.utf8 {
            guard isLetter(byte) || isDigit(byte) else {
                startsWord = true
                continue
            }
            let character = Character(Unicode.Scalar(byte))
            result.append(startsWord ? Character(character.uppercased()) : character)
            startsWord = false
        }
        guard let first = result.utf8.first else { return nil }
        return isDigit(first) ? "_" + result : result
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
