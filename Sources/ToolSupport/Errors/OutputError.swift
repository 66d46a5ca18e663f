/// An output that cannot be made or written: which one (its destination,
/// option or format) and why. Bad input: exit status 2.
public struct OutputError: CommandFailure, Equatable, Sendable {
    public enum Subject: Equatable, Sendable {
        /// The output an option names (before its destination is known).
        case option(String)
        /// A file or standard output.
        case destination(OutputDestination)
        /// Rendering in a format.
        case format(OutputFormat)
        /// Outputs and inputs together (two outputs that are one file): the
        /// reason names them.
        case outputs
    }

    public let subject: Subject
    public let reason: String
    public var exitStatus: ExitStatus { .badInput }

    public init(option: String, reason: String) {
        subject = .option(option)
        self.reason = reason
    }

    public init(_ destination: OutputDestination, reason: String) {
        subject = .destination(destination)
        self.reason = reason
    }

    /// An error about several outputs or inputs, which `reason` names.
    public init(outputs reason: String) {
        subject = .outputs
        self.reason = reason
    }

    public init(_ format: OutputFormat, reason: String) {
        subject = .format(format)
        self.reason = reason
    }

    public var description: String {
        switch subject {
        case .option(let option): "\(option): \(reason)"
        case .destination(let destination): "\(destination): \(reason)"
        case .format(let format): "cannot render \(format.rawValue): \(reason)"
        case .outputs: reason
        }
    }
}
