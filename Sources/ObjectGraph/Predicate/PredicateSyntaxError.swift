/// A format string that does not parse: what was expected, and where.
///
/// Columns count Unicode scalars from 1; an error at the end of the string
/// has the column after its last character.
public struct PredicateSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was expected or found, such as `expected ')'`.
    public let message: String
    /// Where in the format string, counting Unicode scalars from 1.
    public let column: Int
    /// The format string.
    public let format: String

    /// An error at `column` of `format`.
    public init(_ message: String, column: Int, format: String) {
        self.message = message
        self.column = column
        self.format = format
    }

    /// `expected ')' at column 29 in "(rating < 5 OR name LIKE 'x'"`.
    public var description: String { "\(message) at column \(column) in \"\(format)\"" }
}
