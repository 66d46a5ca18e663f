import Foundation
import Synchronization

/// A LIKE pattern compiled once and matched per string, as Core Data runs
/// a LIKE that SQLite cannot serve with a prefix or suffix comparison: its
/// SQL calls a registered function (`NSCoreDataLike(value, pattern, flags)`
/// in Core Data's SQL debug output, `faultline_like` here) that turns each
/// row's text into a string and matches it against a regular expression
/// compiled from the pattern. The cost per row is that conversion and match,
/// far above a comparison of numbers: it is what the order of OR and AND
/// terms can save (the Predicate scenario).
///
/// `*` matches any run of characters and `?` one character (a Unicode
/// scalar, as SQLite's GLOB counts them); `[c]` and `[d]` fold both sides
/// (``StringMatching/fold(_:_:)``).
final class LikePattern: Sendable {
    let options: ComparisonOptions
    private let expression: NSRegularExpression

    init(_ pattern: String, options: ComparisonOptions) {
        self.options = options
        var regex = ""
        for scalar in StringMatching.fold(pattern, options).unicodeScalars {
            switch scalar {
            case "*": regex += ".*"
            case "?": regex += "."
            default: regex += NSRegularExpression.escapedPattern(for: String(scalar))
            }
        }
        // Built from escaped literals and two wildcards: always valid.
        expression = try! NSRegularExpression(pattern: "^(?:" + regex + ")$", options: [.dotMatchesLineSeparators])
    }

    /// Whether the whole of `text` matches.
    func matches(_ text: String) -> Bool {
        let subject = StringMatching.fold(text, options)
        return expression.firstMatch(in: subject, options: [], range: NSRange(subject.startIndex..., in: subject)) != nil
    }

    /// Whether SQLite serves `pattern` (after folding) with GLOB as cheaply
    /// as a comparison: no wildcard, or one `*` only at the end (a prefix)
    /// or only at the start (a suffix), and no `?`.
    static func isPlain(_ pattern: String) -> Bool {
        let scalars = Array(pattern.unicodeScalars)
        guard !scalars.contains("?") else { return false }
        let stars = scalars.indices.filter { scalars[$0] == "*" }
        switch stars.count {
        case 0: return true
        case 1: return stars[0] == 0 || stars[0] == scalars.count - 1
        default: return false
        }
    }

    private static let compiled = Mutex<[String: LikePattern]>([:])

    /// The compiled pattern, shared by in-memory evaluations of the same
    /// pattern (SQL keeps one per statement instead).
    static func cached(_ pattern: String, _ options: ComparisonOptions) -> LikePattern {
        let key = "\(options.rawValue)|\(pattern)"
        if let found = compiled.withLock({ $0[key] }) { return found }
        let made = LikePattern(pattern, options: options)
        compiled.withLock { cache in
            if cache.count > 256 { cache.removeAll() }
            cache[key] = made
        }
        return made
    }
}
