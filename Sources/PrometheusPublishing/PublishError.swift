import ToolSupport

/// Publishing or reading back that failed: bad usage (a label, an address),
/// a report that cannot be published, a server that cannot be reached or
/// refused. One line that says what and where; exit status 2.
public struct PublishError: CommandFailure, Equatable, Sendable {
    /// The option or argument it is about (`--pushgateway`, `--label`).
    public let subject: String?
    public let reason: String
    public var exitStatus: ExitStatus { .badInput }

    public init(_ subject: String?, _ reason: String) {
        self.subject = subject
        self.reason = reason
    }

    public var description: String { subject.map { "\($0): \(reason)" } ?? reason }
}
