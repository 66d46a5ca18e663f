/// The level of one of Core Data's own messages in a SQL debug log: its
/// `error:` and `warning:` lines.
package enum SQLDebugLogMessageLevel: String, Equatable, Sendable {
    case error, warning
}
