import Foundation
import Synchronization

/// The string semantics of predicates, one definition for SQL (through the
/// functions registered on every connection) and for in-memory evaluation.
///
/// - Without modifiers, strings compare by their UTF-8 bytes (as SQLite's
///   BINARY collation): case- and diacritic-sensitive, also for non-ASCII.
/// - `[c]` folds case and `[d]` removes diacritics (Foundation's
///   `folding(options:locale:)` with no locale) on both sides first.
/// - `LIKE` patterns use `*` (any run of characters) and `?` (one
///   character); every other character is itself.
/// - `MATCHES` is an ICU regular expression that must match the whole string.
enum StringMatching {
    /// The folded form of a string for `[c]`, `[d]`, `[cd]`.
    static func fold(_ text: String, _ options: ComparisonOptions) -> String {
        guard !options.isEmpty else { return text }
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        // Precomposed form first, so that "é" and "e\u{301}" fold alike.
        return text.precomposedStringWithCanonicalMapping.folding(options: folding, locale: nil)
            .precomposedStringWithCanonicalMapping
    }

    /// A LIKE pattern as an SQLite GLOB pattern (`[` is GLOB's only other
    /// special character).
    static func globPattern(like pattern: String) -> String {
        pattern.replacingOccurrences(of: "[", with: "[[]")
    }

    /// A literal as a GLOB pattern that matches only itself.
    static func globLiteral(_ text: String) -> String {
        var result = ""
        for character in text.unicodeScalars {
            switch character {
            case "*": result += "[*]"
            case "?": result += "[?]"
            case "[": result += "[[]"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// `LIKE` in memory: `*` and `?` over Unicode scalars (as GLOB works on
    /// UTF-8 characters).
    static func like(_ text: String, _ pattern: String) -> Bool {
        let t = Array(text.unicodeScalars)
        let p = Array(pattern.unicodeScalars)
        var ti = 0
        var pi = 0
        var star = -1
        var mark = 0
        while ti < t.count {
            if pi < p.count, p[pi] == "?" || (p[pi] != "*" && p[pi] == t[ti]) {
                ti += 1
                pi += 1
            } else if pi < p.count, p[pi] == "*" {
                star = pi
                mark = ti
                pi += 1
            } else if star >= 0 {
                pi = star + 1
                mark += 1
                ti = mark
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }

    static func contains(_ text: String, _ part: String) -> Bool {
        part.isEmpty || text.utf8.count >= part.utf8.count && Array(text.utf8).firstRange(of: Array(part.utf8)) != nil
    }

    static func beginsWith(_ text: String, _ prefix: String) -> Bool {
        text.utf8.starts(with: prefix.utf8)
    }

    static func endsWith(_ text: String, _ suffix: String) -> Bool {
        text.utf8.reversed().starts(with: suffix.utf8.reversed())
    }

    private static let expressions = Mutex<[String: NSRegularExpression]>([:])

    /// `MATCHES`: the whole string matches the regular expression. An
    /// invalid expression matches nothing (``QueryBuilder`` refuses it first).
    static func matches(_ text: String, _ pattern: String, _ options: ComparisonOptions) -> Bool {
        guard let expression = regularExpression(pattern, options) else { return false }
        return matches(text, expression, options)
    }

    /// `MATCHES` with an expression compiled by ``regularExpression(_:_:)``.
    static func matches(_ text: String, _ expression: NSRegularExpression, _ options: ComparisonOptions) -> Bool {
        let subject = fold(text, options.subtracting(.caseInsensitive))
        let range = NSRange(subject.startIndex..., in: subject)
        guard let match = expression.firstMatch(in: subject, options: [.anchored], range: range) else { return false }
        return match.range == range
    }

    static func regularExpression(_ pattern: String, _ options: ComparisonOptions) -> NSRegularExpression? {
        let key = "\(options.rawValue)|\(pattern)"
        if let cached = expressions.withLock({ $0[key] }) { return cached }
        let folded = fold(pattern, options.subtracting(.caseInsensitive))
        guard let expression = try? NSRegularExpression(
            pattern: folded, options: options.contains(.caseInsensitive) ? [.caseInsensitive] : [])
        else { return nil }
        expressions.withLock { cache in
            if cache.count > 256 { cache.removeAll() }
            cache[key] = expression
        }
        return expression
    }
}
