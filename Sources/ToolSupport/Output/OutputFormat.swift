/// The forms a command's output takes. Each ``Renderable`` says which it
/// has; the writer (``OutputPlan``) writes any of them to a file or to
/// standard output alike.
public enum OutputFormat: String, CaseIterable, Sendable {
    /// Aligned lines for a terminal; control characters and bidirectional
    /// overrides from the data are shown escaped (``TerminalText``).
    case text
    case json
    /// GitHub-flavoured Markdown, for a CI job summary or a pull request.
    case markdown
    /// A self-contained page.
    case html
    /// Swift source (an imported model).
    case swift
}
