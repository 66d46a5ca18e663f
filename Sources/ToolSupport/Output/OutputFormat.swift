/// The identity of a form a command's output takes (`text`, `json`,
/// `junit`): what formats are registered by, what outputs and options name.
/// The set is open: a format type declares its own identity beside it
/// (`extension OutputFormat { static let junit = … }`). Each ``Renderable``
/// says which formats it has; the writer (``OutputPlan``) writes any of
/// them to a file or to standard output alike.
public struct OutputFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// A format named `rawValue`, a lowercase word (the option `--NAME`
    /// writes it).
    public init(rawValue: String) { self.rawValue = rawValue }

    public init(_ name: String) { self.init(rawValue: name) }

    public var description: String { rawValue }

    /// Aligned lines for a terminal; control characters and bidirectional
    /// overrides from the data are shown escaped (``TerminalText``).
    public static let text = OutputFormat("text")
    public static let json = OutputFormat("json")
    /// GitHub-flavoured Markdown, for a CI job summary or a pull request.
    public static let markdown = OutputFormat("markdown")
    /// A self-contained page.
    public static let html = OutputFormat("html")
    /// Swift source (an imported model).
    public static let swift = OutputFormat("swift")
}
