import Foundation

extension ObjectPredicate {
    /// The deepest nesting of parentheses, `NOT`, lists and `SUBQUERY` a
    /// format string may have: deeper is an error, never a stack overflow.
    public static let maximumNesting = 64

    /// Parses a format string in the syntax of NSPredicate format strings
    /// (docs/predicates.md has the grammar).
    ///
    /// - Parameters:
    ///   - arguments: fill `%@`, `%d`/`%i`/`%ld`, `%f` and `%K` in order.
    ///   - variables: fill `$name`; variables left without a value are an
    ///     error when the predicate is used (or fill them later with
    ///     ``substituting(_:)``).
    public init(format: String, _ arguments: any PredicateArgument..., variables: [String: any PredicateArgument] = [:])
        throws(PredicateSyntaxError)
    {
        try self.init(format: format, arguments: arguments, variables: variables)
    }

    /// Parses a format string as ``init(format:_:variables:)`` does, with the
    /// arguments as an array.
    ///
    /// - Throws: ``PredicateSyntaxError`` for a format string that does not
    ///   parse or nests deeper than ``maximumNesting``, or whose arguments do
    ///   not fit it (too few, too many, of the wrong kind).
    public init(format: String, arguments: [any PredicateArgument], variables: [String: any PredicateArgument] = [:])
        throws(PredicateSyntaxError)
    {
        var parser = PredicateParser(format: format, arguments: arguments, variables: variables)
        self = try parser.parse()
    }

    /// The predicate with `$variables` replaced (SUBQUERY variables aside).
    public func substituting(_ variables: [String: any PredicateArgument]) -> ObjectPredicate {
        switch self {
        case .constant: self
        case .and(let terms): .and(terms.map { $0.substituting(variables) })
        case .or(let terms): .or(terms.map { $0.substituting(variables) })
        case .not(let operand): .not(operand.substituting(variables))
        case .comparison(var c):
            {
                c.lhs = c.lhs.substituting(variables)
                c.rhs = c.rhs.substituting(variables)
                return .comparison(c)
            }()
        }
    }
}

extension ObjectExpression {
    func substituting(_ variables: [String: any PredicateArgument]) -> ObjectExpression {
        switch self {
        case .variable(let name): variables[name]?.predicateExpression ?? self
        case .list(let items): .list(items.map { $0.substituting(variables) })
        case .subqueryCount(let collection, let variable, let predicate):
            .subqueryCount(collection: collection, variable: variable, predicate: predicate.substituting(variables.filter { $0.key != variable }))
        default: self
        }
    }
}

/// Reserved words of the format syntax (case-insensitive); a key with one
/// of these names is written with `#` in front (`#in`).
let predicateKeywords: Set<String> = [
    "AND", "OR", "NOT", "IN", "LIKE", "CONTAINS", "BEGINSWITH", "ENDSWITH", "MATCHES", "BETWEEN", "ANY", "SOME", "ALL",
    "NONE", "NIL", "NULL", "TRUE", "FALSE", "YES", "NO", "TRUEPREDICATE", "FALSEPREDICATE", "SUBQUERY", "CAST",
]

/// A recursive-descent parser over the format's Unicode scalars. It always
/// advances, limits nesting, and reports the first error with its column.
struct PredicateParser {
    private enum Token: Equatable {
        case identifier(String)      // a key, or a keyword
        case escapedIdentifier(String) // #key
        case aggregate(String)       // @count, @sum, …
        case number(Value)
        case string(String)
        case variable(String)        // $name
        case format(String)          // %@, %K, %d, %i, %ld, %lld, %f, %lf
        case symbol(String)          // ( ) { } , . [ ] and operators
        case end
    }

    private let format: String
    private let scalars: [Unicode.Scalar]
    private var tokens: [(token: Token, column: Int)] = []
    private var position = 0
    private var arguments: [any PredicateArgument]
    private var nextArgument = 0
    private let variables: [String: any PredicateArgument]
    private var depth = 0
    private var tokenizeError: PredicateSyntaxError?

    init(format: String, arguments: [any PredicateArgument], variables: [String: any PredicateArgument]) {
        self.format = format
        self.scalars = Array(format.unicodeScalars)
        self.arguments = arguments
        self.variables = variables
    }

    mutating func parse() throws(PredicateSyntaxError) -> ObjectPredicate {
        try tokenize()
        let predicate = try parseOr()
        guard case .end = current else { throw error("unexpected \(describe(current)); expected AND, OR or the end") }
        guard nextArgument == arguments.count else {
            throw PredicateSyntaxError(
                "\(arguments.count) arguments given but the format uses \(nextArgument)", column: scalars.count + 1, format: format)
        }
        return predicate
    }

    // MARK: Tokens

    private var current: Token { tokens[position].token }
    private var column: Int { tokens[position].column }

    private func error(_ message: String) -> PredicateSyntaxError {
        PredicateSyntaxError(message, column: column, format: format)
    }

    private func describe(_ token: Token) -> String {
        switch token {
        case .identifier(let name): "'\(name)'"
        case .escapedIdentifier(let name): "'#\(name)'"
        case .aggregate(let name): "'\(name)'"
        case .number(let value): "'\(value)'"
        case .string: "a string"
        case .variable(let name): "'$\(name)'"
        case .format(let spec): "'\(spec)'"
        case .symbol(let symbol): "'\(symbol)'"
        case .end: "the end"
        }
    }

    private func keyword(_ token: Token) -> String? {
        if case .identifier(let name) = token, predicateKeywords.contains(name.uppercased()) { return name.uppercased() }
        return nil
    }

    private mutating func advance() { if position < tokens.count - 1 { position += 1 } }

    private mutating func accept(_ symbol: String) -> Bool {
        if case .symbol(symbol) = current {
            advance()
            return true
        }
        return false
    }

    private mutating func expect(_ symbol: String) throws(PredicateSyntaxError) {
        guard accept(symbol) else { throw error("expected '\(symbol)'") }
    }

    private mutating func acceptKeyword(_ word: String) -> Bool {
        if keyword(current) == word {
            advance()
            return true
        }
        return false
    }

    private static func isIdentifierStart(_ s: Unicode.Scalar) -> Bool {
        s == "_" || s.properties.isAlphabetic
    }

    private static func isIdentifierPart(_ s: Unicode.Scalar) -> Bool {
        s == "_" || s.properties.isAlphabetic || ("0"..."9").contains(s)
    }

    private mutating func tokenize() throws(PredicateSyntaxError) {
        var i = 0
        let n = scalars.count
        func fail(_ message: String, _ at: Int) -> PredicateSyntaxError {
            PredicateSyntaxError(message, column: at + 1, format: format)
        }
        while i < n {
            let s = scalars[i]
            let start = i
            if s.properties.isWhitespace {
                i += 1
                continue
            }
            if Self.isIdentifierStart(s) {
                while i < n, Self.isIdentifierPart(scalars[i]) { i += 1 }
                tokens.append((.identifier(String(String.UnicodeScalarView(scalars[start..<i]))), start + 1))
                continue
            }
            if ("0"..."9").contains(s) || (s == "-" && i + 1 < n && ("0"..."9").contains(scalars[i + 1])) {
                i += 1
                var isDouble = false
                while i < n {
                    let c = scalars[i]
                    if ("0"..."9").contains(c) {
                        i += 1
                    } else if c == ".", i + 1 < n, ("0"..."9").contains(scalars[i + 1]), !isDouble {
                        isDouble = true
                        i += 1
                    } else if c == "e" || c == "E" {
                        var j = i + 1
                        if j < n, scalars[j] == "+" || scalars[j] == "-" { j += 1 }
                        guard j < n, ("0"..."9").contains(scalars[j]) else { break }
                        isDouble = true
                        i = j
                    } else {
                        break
                    }
                }
                let text = String(String.UnicodeScalarView(scalars[start..<i]))
                if !isDouble, let int = Int64(text) {
                    tokens.append((.number(.integer(int)), start + 1))
                } else if let double = Double(text), double.isFinite {
                    tokens.append((.number(.double(double)), start + 1))
                } else {
                    throw fail("number \(text) is out of range", start)
                }
                continue
            }
            switch s {
            case "\"", "'":
                var text = String.UnicodeScalarView()
                i += 1
                var closed = false
                while i < n {
                    let c = scalars[i]
                    if c == s {
                        closed = true
                        i += 1
                        break
                    }
                    if c == "\\" {
                        guard i + 1 < n else { break }
                        let e = scalars[i + 1]
                        switch e {
                        case "n": text.append("\n")
                        case "t": text.append("\t")
                        case "r": text.append("\r")
                        case "0": text.append("\0")
                        default: text.append(e)
                        }
                        i += 2
                        continue
                    }
                    text.append(c)
                    i += 1
                }
                guard closed else { throw fail("unterminated string", start) }
                tokens.append((.string(String(text)), start + 1))
            case "$", "#", "@":
                i += 1
                let nameStart = i
                while i < n, Self.isIdentifierPart(scalars[i]) { i += 1 }
                guard i > nameStart, Self.isIdentifierStart(scalars[nameStart]) else {
                    throw fail("expected a name after '\(s)'", start)
                }
                let name = String(String.UnicodeScalarView(scalars[nameStart..<i]))
                let token: Token = s == "$" ? .variable(name) : s == "#" ? .escapedIdentifier(name) : .aggregate("@" + name)
                tokens.append((token, start + 1))
            case "%":
                i += 1
                var spec = "%"
                while i < n, scalars[i] == "l" {
                    spec.unicodeScalars.append("l")
                    i += 1
                }
                guard i < n else { throw fail("incomplete format specifier", start) }
                spec.unicodeScalars.append(scalars[i])
                i += 1
                guard ["%@", "%K", "%d", "%i", "%ld", "%li", "%lld", "%f", "%lf"].contains(spec) else {
                    throw fail("unknown format specifier \(spec)", start)
                }
                tokens.append((.format(spec), start + 1))
            default:
                let two = i + 1 < n ? String(String.UnicodeScalarView([s, scalars[i + 1]])) : ""
                if ["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||"].contains(two) {
                    tokens.append((.symbol(two), start + 1))
                    i += 2
                } else if "(){},.[]=<>!".unicodeScalars.contains(s) {
                    tokens.append((.symbol(String(s)), start + 1))
                    i += 1
                } else {
                    throw fail("unexpected character '\(s)'", start)
                }
            }
        }
        tokens.append((.end, n + 1))
    }

    // MARK: Predicates

    /// Enters one level of nesting opened at column `at`.
    private mutating func nest(at: Int) throws(PredicateSyntaxError) {
        depth += 1
        guard depth <= ObjectPredicate.maximumNesting else {
            throw PredicateSyntaxError("nesting deeper than \(ObjectPredicate.maximumNesting) levels", column: at, format: format)
        }
    }

    private mutating func parseOr() throws(PredicateSyntaxError) -> ObjectPredicate {
        var terms = [try parseAnd()]
        while acceptKeyword("OR") || accept("||") { terms.append(try parseAnd()) }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    private mutating func parseAnd() throws(PredicateSyntaxError) -> ObjectPredicate {
        var terms = [try parseNot()]
        while acceptKeyword("AND") || accept("&&") { terms.append(try parseNot()) }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    private mutating func parseNot() throws(PredicateSyntaxError) -> ObjectPredicate {
        let at = column
        if acceptKeyword("NOT") || accept("!") {
            try nest(at: at)
            defer { depth -= 1 }
            return .not(try parseNot())
        }
        return try parsePrimary()
    }

    private mutating func parsePrimary() throws(PredicateSyntaxError) -> ObjectPredicate {
        let at = column
        if accept("(") {
            try nest(at: at)
            defer { depth -= 1 }
            let inner = try parseOr()
            try expect(")")
            return inner
        }
        if acceptKeyword("TRUEPREDICATE") { return .constant(true) }
        if acceptKeyword("FALSEPREDICATE") { return .constant(false) }
        var quantifier: Quantifier?
        if acceptKeyword("ANY") || acceptKeyword("SOME") {
            quantifier = .any
        } else if acceptKeyword("ALL") {
            quantifier = .all
        } else if acceptKeyword("NONE") {
            quantifier = Quantifier.none
        }
        let lhs = try parseExpression()
        if quantifier != nil, case .keyPath = lhs {} else if quantifier != nil {
            throw error("ANY, ALL and NONE need a key path")
        }
        let (op, options) = try parseOperator()
        let rhs: ObjectExpression
        if op == .between || op == .in {
            rhs = try parseExpression()
            switch rhs {
            case .list, .variable, .keyPath: break
            case .value(let value) where value.isNull: break
            default: throw error("\(op.rawValue) needs a list: {…} or an array argument")
            }
        } else {
            rhs = try parseExpression()
        }
        return .comparison(Comparison(lhs: lhs, op: op, rhs: rhs, options: options, quantifier: quantifier))
    }

    private mutating func parseOperator() throws(PredicateSyntaxError) -> (ComparisonOperator, ComparisonOptions) {
        let op: ComparisonOperator
        switch current {
        case .symbol("="), .symbol("=="): op = .equal
        case .symbol("!="), .symbol("<>"): op = .notEqual
        case .symbol("<"): op = .less
        case .symbol("<="), .symbol("=<"): op = .lessOrEqual
        case .symbol(">"): op = .greater
        case .symbol(">="), .symbol("=>"): op = .greaterOrEqual
        default:
            switch keyword(current) {
            case "LIKE": op = .like
            case "CONTAINS": op = .contains
            case "BEGINSWITH": op = .beginsWith
            case "ENDSWITH": op = .endsWith
            case "MATCHES": op = .matches
            case "IN": op = .in
            case "BETWEEN": op = .between
            default: throw error("expected a comparison operator, got \(describe(current))")
            }
        }
        advance()
        var options: ComparisonOptions = []
        if accept("[") {
            guard case .identifier(let flags) = current, !flags.isEmpty,
                flags.allSatisfy({ $0 == "c" || $0 == "d" || $0 == "n" || $0 == "l" })
            else { throw error("expected c, d or cd between '[' and ']'") }
            if flags.contains("c") { options.insert(.caseInsensitive) }
            if flags.contains("d") { options.insert(.diacriticInsensitive) }
            advance()
            try expect("]")
        }
        return (op, options)
    }

    // MARK: Expressions

    private mutating func parseExpression() throws(PredicateSyntaxError) -> ObjectExpression {
        let token = current
        switch token {
        case .number(let value):
            advance()
            return .value(value)
        case .string(let text):
            advance()
            return .value(.string(text))
        case .symbol("{"):
            try nest(at: column)
            advance()
            defer { depth -= 1 }
            var items: [ObjectExpression] = []
            if !accept("}") {
                repeat { items.append(try parseExpression()) } while accept(",")
                try expect("}")
            }
            return .list(items)
        case .variable(let name):
            advance()
            if case .symbol(".") = current {
                return .keyPath(try parseKeyPathRest("$" + name))
            }
            return variables[name]?.predicateExpression ?? .variable(name)
        case .format(let spec):
            let at = column
            advance()
            return try substitute(spec, at: at)
        case .escapedIdentifier(let name):
            advance()
            return try keyPathExpression(from: name)
        case .identifier(let name):
            switch keyword(token) {
            case "NIL", "NULL":
                advance()
                return .value(.null)
            case "YES", "TRUE":
                advance()
                return .value(.bool(true))
            case "NO", "FALSE":
                advance()
                return .value(.bool(false))
            case "SUBQUERY":
                advance()
                return try parseSubquery()
            case "CAST":
                advance()
                return try parseCast()
            case .some:
                throw error("expected an expression, got the keyword \(name.uppercased())")
            case nil:
                advance()
                return try keyPathExpression(from: name)
            }
        default:
            throw error("expected an expression, got \(describe(token))")
        }
    }

    /// A key path starting with `first`, possibly ending in an aggregate.
    private mutating func keyPathExpression(from first: String) throws(PredicateSyntaxError) -> ObjectExpression {
        var path = first
        while accept(".") {
            switch current {
            case .identifier(let name), .escapedIdentifier(let name):
                advance()
                path += "." + name
            case .aggregate(let name):
                guard let aggregate = Aggregate(rawValue: name.lowercased()) else {
                    throw error("unknown aggregate \(name) (@count, @sum, @avg, @min, @max)")
                }
                advance()
                if aggregate == .count { return .aggregate(.count, path: path, attribute: nil) }
                try expect(".")
                guard case .identifier(let attribute) = current else { throw error("expected an attribute after \(name).") }
                advance()
                return .aggregate(aggregate, path: path, attribute: attribute)
            default:
                throw error("expected a key after '.'")
            }
        }
        return .keyPath(path)
    }

    private mutating func parseKeyPathRest(_ first: String) throws(PredicateSyntaxError) -> String {
        guard case .keyPath(let path) = try keyPathExpression(from: first) else {
            throw error("aggregates of a SUBQUERY variable are not supported")
        }
        return path
    }

    private mutating func parseSubquery() throws(PredicateSyntaxError) -> ObjectExpression {
        try nest(at: column)
        try expect("(")
        defer { depth -= 1 }
        let collection: String
        switch current {
        case .identifier(let name) where keyword(current) == nil:
            advance()
            guard case .keyPath(let path) = try keyPathExpression(from: name) else { throw error("expected a to-many key path") }
            collection = path
        case .format("%K"):
            let at = column
            advance()
            guard case .keyPath(let path) = try substitute("%K", at: at) else { throw error("expected a to-many key path") }
            collection = path
        default:
            throw error("expected the collection's key path in SUBQUERY")
        }
        try expect(",")
        guard case .variable(let variable) = current else { throw error("expected a $variable in SUBQUERY") }
        advance()
        try expect(",")
        let predicate = try parseOr()
        try expect(")")
        try expect(".")
        guard case .aggregate(let name) = current, name.lowercased() == "@count" else {
            throw error("expected @count after SUBQUERY(…).")
        }
        advance()
        return .subqueryCount(collection: collection, variable: variable, predicate: predicate)
    }

    private mutating func parseCast() throws(PredicateSyntaxError) -> ObjectExpression {
        try expect("(")
        let operand = current
        advance()
        try expect(",")
        guard case .string(let type) = current else { throw error("expected a type name string in CAST") }
        advance()
        try expect(")")
        switch (operand, type) {
        case (.number(let value), "NSDate"):
            let seconds: Double = switch value {
            case .integer(let v): Double(v)
            case .double(let v): v
            default: 0
            }
            return .value(.date(Date(timeIntervalSinceReferenceDate: seconds)))
        case (.string(let hex), "NSData"):
            var bytes: [UInt8] = []
            var scalars = hex.unicodeScalars.makeIterator()
            while let high = scalars.next() {
                guard let low = scalars.next(), let byte = UInt8(String([Character(high), Character(low)]), radix: 16) else {
                    throw error("CAST to NSData needs hex digits in pairs")
                }
                bytes.append(byte)
            }
            return .value(.data(Data(bytes)))
        case (.string(let text), "UUID"):
            guard let uuid = UUID(uuidString: text) else { throw error("\"\(text)\" is not a UUID") }
            return .value(.uuid(uuid))
        default:
            throw error("CAST supports (number, \"NSDate\"), (hex string, \"NSData\") and (string, \"UUID\")")
        }
    }

    private mutating func substitute(_ spec: String, at: Int) throws(PredicateSyntaxError) -> ObjectExpression {
        guard nextArgument < arguments.count else {
            throw PredicateSyntaxError("missing argument for \(spec) (\(arguments.count) given)", column: at, format: format)
        }
        let argument = arguments[nextArgument]
        nextArgument += 1
        switch spec {
        case "%K":
            guard let key = argument as? String, Self.isKeyPath(key) else {
                throw PredicateSyntaxError("%K needs a key path, got \(argument)", column: at, format: format)
            }
            // A key from an argument may be a reserved word: it is a key.
            var path = key
            while accept(".") {
                guard case .identifier(let name) = current else { throw error("expected a key after '.'") }
                advance()
                path += "." + name
            }
            return .keyPath(path)
        case "%d", "%i", "%ld", "%li", "%lld":
            guard case .value(let value) = argument.predicateExpression, case .integer = value else {
                throw PredicateSyntaxError("\(spec) needs an integer argument, got \(argument)", column: at, format: format)
            }
            return .value(value)
        case "%f", "%lf":
            guard case .value(let value) = argument.predicateExpression, let double = value.converted(to: .double) else {
                throw PredicateSyntaxError("\(spec) needs a number argument, got \(argument)", column: at, format: format)
            }
            return .value(double)
        default:
            return argument.predicateExpression
        }
    }

    /// A key path as `%K` accepts it: identifiers separated by dots. Nothing
    /// else can reach the SQL, and the keys are checked against the model.
    static func isKeyPath(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.allSatisfy { part in
            guard let first = part.unicodeScalars.first, isIdentifierStart(first) else { return false }
            return part.unicodeScalars.allSatisfy(isIdentifierPart)
        }
    }
}
