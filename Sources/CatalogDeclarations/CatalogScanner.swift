/// Reads what a target's Swift files declare for a generated catalog (the
/// built-in scenarios, the insight rules), so that adding one is adding one
/// file. It reads declarations of a fixed form, and a declaration that
/// looks like one of them but is not of that form is an error naming its
/// file and line: the catalog never drops one without a word.
///
/// - A scenario: `static let name = Scenario(` or
///   `static let name: Scenario = Scenario(` (`public` or not), on one line.
/// - An insight rule: a `struct`, `final class` or `enum` whose conformance
///   list (up to its `{`, over several lines if need be) names
///   `InsightRule`, or `extension Name: InsightRule`; not generic, since
///   the catalog makes one with `Name()`.
public enum CatalogScanner {
    /// A declaration the scanner saw but cannot list.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public let file: String
        public let line: Int
        public let message: String

        public init(file: String, line: Int, message: String) {
            self.file = file
            self.line = line
            self.message = message
        }

        /// The compiler's form, which SwiftPM and editors show at the line.
        public var description: String { "\(file):\(line): error: \(message)" }
    }

    /// What the files declare: the names in file order, or every problem.
    public enum Kind {
        case scenarios
        case insightRules
    }

    /// The names declared in `text` (the contents of `file`), in order.
    public static func names(in text: String, file: String, kind: Kind) -> (names: [String], problems: [Problem]) {
        let lines = codeLines(text)
        switch kind {
        case .scenarios: return scenarios(lines, file: file)
        case .insightRules: return rules(lines, file: file)
        }
    }

    // MARK: Scenarios

    private static func scenarios(_ lines: [String], file: String) -> (names: [String], problems: [Problem]) {
        var names: [String] = []
        var problems: [Problem] = []
        for (index, line) in lines.enumerated() {
            var tokens = tokenize(line)
            // `static let name =` with `Scenario(` on the next line.
            if tokens.last == "=", index + 1 < lines.count, tokenize(lines[index + 1]).starts(with: ["Scenario", "("]) {
                tokens += ["Scenario", "("]
            }
            guard mentionsScenarioDeclaration(tokens) else { continue }
            if let name = scenarioName(tokens) {
                names.append(name)
            } else {
                problems.append(Problem(
                    file: file, line: index + 1,
                    message: "a scenario the catalog cannot read: declare it as `public static let name = Scenario(` on one line"))
            }
        }
        return (names, problems)
    }

    /// A line that declares a scenario value, or a stored or computed
    /// property of type Scenario, in any form.
    private static func mentionsScenarioDeclaration(_ tokens: [String]) -> Bool {
        guard tokens.contains("let") || tokens.contains("var") else { return false }
        for (index, token) in tokens.enumerated() where token == "Scenario" {
            let before = index > 0 ? tokens[index - 1] : ""
            let after = index + 1 < tokens.count ? tokens[index + 1] : ""
            if before == "=" && after == "(" { return true }
            if before == ":" && (after == "=" || after == "{" || after == "") { return true }
        }
        return false
    }

    private static func scenarioName(_ tokens: [String]) -> String? {
        var rest = tokens[...]
        for modifier in ["public", "package", "internal"] where rest.first == modifier { rest = rest.dropFirst() }
        guard rest.popFirst() == "static", rest.popFirst() == "let", let name = rest.popFirst(), isIdentifier(name) else { return nil }
        if rest.first == ":" {
            rest = rest.dropFirst()
            guard rest.popFirst() == "Scenario" else { return nil }
        }
        guard rest.popFirst() == "=", rest.popFirst() == "Scenario", rest.first == "(" else { return nil }
        return name
    }

    // MARK: Insight rules

    private static func rules(_ lines: [String], file: String) -> (names: [String], problems: [Problem]) {
        var names: [String] = []
        var problems: [Problem] = []
        var index = 0
        while index < lines.count {
            var tokens = tokenize(lines[index])
            let start = index
            // A declaration's header runs to its `{` (at most 10 lines).
            if let keyword = tokens.firstIndex(where: { ["struct", "class", "enum", "extension", "actor"].contains($0) }),
               !tokens.contains("{") {
                while !tokens.contains("{"), index + 1 < lines.count, index - start < 10 {
                    index += 1
                    tokens += tokenize(lines[index])
                }
                _ = keyword
            }
            index += 1
            guard tokens.contains("InsightRule") else { continue }
            guard let keyword = tokens.firstIndex(where: { ["struct", "class", "enum", "extension", "actor"].contains($0) }) else {
                continue
            }
            let header = Array(tokens[keyword...].prefix { $0 != "{" })
            guard let colon = header.firstIndex(of: ":"), header[(colon + 1)...].contains("InsightRule") else { continue }
            let name = header.count > 1 ? header[1] : ""
            let generic = header[..<colon].contains("<")
            if !isIdentifier(name) || generic || header[0] == "actor" {
                problems.append(Problem(
                    file: file, line: start + 1,
                    message: "an insight rule the catalog cannot read: declare it as `struct Name: InsightRule` (not generic)"))
            } else {
                names.append(name)
            }
        }
        return (names, problems)
    }

    // MARK: Reading code

    /// The lines with comments and string literals blanked (line numbers kept).
    static func codeLines(_ text: String) -> [String] {
        var lines: [String] = []
        var current = ""
        var inBlockComment = 0
        var inString = false
        var multiline = false
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let next = index + 1 < characters.count ? characters[index + 1] : "\0"
            if character == "\n" {
                lines.append(current)
                current = ""
                if inString && !multiline { inString = false }
                index += 1
                continue
            }
            if inBlockComment > 0 {
                if character == "*" && next == "/" { inBlockComment -= 1; index += 2; continue }
                if character == "/" && next == "*" { inBlockComment += 1; index += 2; continue }
                index += 1
                continue
            }
            if inString {
                if character == "\\" { index += 2; continue }
                if multiline, character == "\"", next == "\"", index + 2 < characters.count, characters[index + 2] == "\"" {
                    inString = false
                    current += "\"\"\""
                    index += 3
                    continue
                }
                if !multiline && character == "\"" { inString = false; current.append("\"") }
                index += 1
                continue
            }
            if character == "/" && next == "/" {
                while index < characters.count && characters[index] != "\n" { index += 1 }
                continue
            }
            if character == "/" && next == "*" { inBlockComment = 1; index += 2; continue }
            if character == "\"" {
                inString = true
                multiline = next == "\"" && index + 2 < characters.count && characters[index + 2] == "\""
                current += multiline ? "\"\"\"" : "\""
                index += multiline ? 3 : 1
                continue
            }
            current.append(character)
            index += 1
        }
        lines.append(current)
        return lines
    }

    /// Identifiers and single punctuation characters.
    static func tokenize(_ line: String) -> [String] {
        var tokens: [String] = []
        var word = ""
        for character in line {
            if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
                continue
            }
            if !word.isEmpty { tokens.append(word); word = "" }
            if !character.isWhitespace { tokens.append(String(character)) }
        }
        if !word.isEmpty { tokens.append(word) }
        return tokens
    }

    private static func isIdentifier(_ token: String) -> Bool {
        guard let first = token.first else { return false }
        return first.isLetter || first == "_"
    }
}
