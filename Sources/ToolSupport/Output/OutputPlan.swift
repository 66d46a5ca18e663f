import Foundation

/// The one writer every perf-run command uses. A command names its inputs
/// and its outputs first; the plan then refuses, before any work:
/// - an output that is one of the inputs (`report R.json --html R.json`),
///   however it is reached (another name, a symbolic link);
/// - two outputs that are one file, or two outputs on standard output;
/// - an output that cannot be written (a directory in the way, no
///   permission, another user's link in a shared directory, an empty path).
///
/// Then it writes each output: a file atomically (``OutputFile``), standard
/// output with every error seen (``StandardOutput``); text for a terminal
/// with the data's control characters escaped (``TerminalText``).
public struct OutputPlan: Sendable {
    /// An output a command writes: the option that names it, where it goes,
    /// and its format.
    public struct Output: Equatable, Sendable {
        /// What the output is: the key the command finds it by.
        public let role: OutputRole
        /// The option (or variable) that named it, for messages.
        public let option: String
        public let destination: OutputDestination
        public let format: OutputFormat

        public init(_ role: OutputRole = .document, option: String, destination: OutputDestination, format: OutputFormat) {
            self.role = role
            self.option = option
            self.destination = destination
            self.format = format
        }

        /// An output named by an option's value (`-` is standard output).
        public init(_ role: OutputRole = .document, option: String, argument: String, format: OutputFormat) throws(OutputError) {
            self.init(role, option: option, destination: try OutputDestination(argument, option: option), format: format)
        }
    }

    /// A file a command reads: the option or argument that names it
    /// (`REPORT`, `--accepted-insights`) and its path (`-`: standard input).
    public struct Input: Equatable, Sendable {
        public let option: String
        public let path: String

        public init(option: String, path: String) {
            self.option = option
            self.path = path
        }
    }

    public let outputs: [Output]

    /// Checks the outputs against the inputs and each other.
    public init(inputs: [Input], outputs: [Output]) throws(OutputError) {
        var checked: [(output: Output, target: OutputFile.Target?)] = []
        let inputs = inputs.compactMap { input -> (Input, OutputFile.Target)? in
            guard input.path != "-", let target = try? OutputFile.target(of: input.path), target.kind != .absent else { return nil }
            return (input, target)
        }
        for output in outputs {
            var target: OutputFile.Target?
            switch output.destination {
            case .standardOutput:
                if let other = checked.first(where: { $0.output.destination == .standardOutput }) {
                    throw OutputError(
                        outputs: "\(output.option) - and \(other.output.option) - both write to standard output: name a file for one")
                }
            case .file(let path):
                let found: OutputFile.Target
                do {
                    found = try OutputFile.target(of: path)
                } catch {
                    throw OutputError(output.destination, failure: error)
                }
                target = found
                if let (input, _) = inputs.first(where: { $0.1.collides(with: found) }) {
                    throw OutputError(
                        outputs: "\(output.option) \(path) is the input \(input.option) (\(input.path)): it would be overwritten")
                }
                if let other = checked.first(where: { $0.target.map(found.collides) == true }) {
                    throw OutputError(
                        outputs: "\(output.option) \(path) and \(other.output.option) \(other.output.destination) are the same file: one would overwrite the other")
                }
                do {
                    try OutputFile.checkWritable(path)
                } catch {
                    throw OutputError(output.destination, failure: error)
                }
            }
            checked.append((output, target))
        }
        self.outputs = outputs
    }

    /// Whether an output goes to standard output: the command's own
    /// messages then go to standard error.
    public var usesStandardOutput: Bool { outputs.contains { $0.destination == .standardOutput } }

    /// The first output of `role`, if the command has one.
    public func output(_ role: OutputRole) -> Output? { outputs.first { $0.role == role } }

    /// The outputs of `role`, in the order given.
    public func outputs(_ role: OutputRole) -> [Output] { outputs.filter { $0.role == role } }

    /// Renders `value` in the output's format and writes it there.
    public func write(_ value: some Renderable, to output: Output) throws(OutputError) {
        var text = try value.render(output.format)
        if output.format == .text { text = TerminalText.escape(text) }
        try Self.write(Data(text.utf8), to: output.destination)
    }

    /// Writes `value` to every output in the plan.
    public func writeAll(_ value: some Renderable) throws(OutputError) {
        for output in outputs { try write(value, to: output) }
    }

    /// Writes bytes to a destination as the plan does.
    public static func write(_ data: Data, to destination: OutputDestination) throws(OutputError) {
        switch destination {
        case .standardOutput:
            try StandardOutput.write(data)
        case .file(let path):
            do {
                try OutputFile.write(data, to: path)
            } catch {
                throw OutputError(destination, failure: error)
            }
        }
    }
}

extension OutputError {
    /// The error of a file operation, whose line starts with the path.
    init(_ destination: OutputDestination, failure: ReportError) {
        let prefix = "\(destination): "
        let text = failure.description
        self.init(destination, reason: text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text)
    }
}
