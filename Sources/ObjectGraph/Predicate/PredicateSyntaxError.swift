/// A format string that does not parse: what was expected, and where.
///
/// Columns count Unicode scalars from 1; an error at the end of the string
/// has the column after its last character.
public struct PredicateSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public let column: Int
    public let format: String

    public init(_ message: String, column: Int, format: String) {
        self.message = message
        self.column = column
        self.format = format
    }

    /// `expected ')' at column 29 in "(rating < 5 OR name LIKE 'x'"`.
    public var description: String { "\(message) at column \(column) in \"\(format)\"" }
}
