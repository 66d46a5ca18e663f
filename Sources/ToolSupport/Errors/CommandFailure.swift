/// An error a command ends with: one line that says what and where, and
/// the status the command exits with. The commands' one mapping from error
/// to status (PerfRunCommand's `ExitStatus(for:)`) reads it.
public protocol CommandFailure: Error, CustomStringConvertible {
    var exitStatus: ExitStatus { get }
}

extension ReportError: CommandFailure {
    /// A report, page or settings file that cannot be read or written: bad input.
    public var exitStatus: ExitStatus { .badInput }
}

/// Bad usage that argument parsing cannot see: the option and the reason.
public struct UsageError: CommandFailure, Equatable, Sendable {
    /// The option (`--limit`) or argument the error is about, if one.
    public let option: String?
    public let reason: String
    public var exitStatus: ExitStatus { .badInput }

    public init(option: String? = nil, _ reason: String) {
        self.option = option
        self.reason = reason
    }

    public var description: String { option.map { "\($0): \(reason)" } ?? reason }
}
