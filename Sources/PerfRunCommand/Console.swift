import Foundation
import ToolSupport

/// The command's own messages (summaries, progress notes): to standard
/// output, or to standard error when an output goes to standard output, so
/// that the output stays whole. Text from data is escaped for the terminal.
struct Console {
    /// Whether messages go to standard error.
    let toStandardError: Bool

    init(plan: OutputPlan? = nil) { toStandardError = plan?.usesStandardOutput == true }

    /// Prints `text` (a line break added when it has none).
    func say(_ text: String) throws(OutputError) {
        let line = TerminalText.escape(text.hasSuffix("\n") ? text : text + "\n")
        if toStandardError {
            Self.warn(line)
        } else {
            try StandardOutput.write(line)
        }
    }

    /// Prints on standard error, escaped; an error there is nowhere to say.
    static func warn(_ text: String) {
        let line = TerminalText.escape(text.hasSuffix("\n") ? text : text + "\n")
        StandardError.write(line)
    }
}
