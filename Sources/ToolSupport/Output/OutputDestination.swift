/// Where an output goes: a file, or standard output, which `-` names for
/// every option that takes an output path.
public enum OutputDestination: Hashable, Sendable, CustomStringConvertible {
    case standardOutput
    case file(String)

    /// The destination an option's value names: `-` is standard output; an
    /// empty value is refused (it names no file).
    public init(_ argument: String, option: String) throws(OutputError) {
        switch argument {
        case "": throw OutputError(option: option, reason: "an empty path: name a file, or - for standard output")
        case "-": self = .standardOutput
        default: self = .file(argument)
        }
    }

    public var description: String {
        switch self {
        case .standardOutput: "standard output"
        case .file(let path): path
        }
    }

    /// The file's path, nil for standard output.
    public var path: String? {
        if case .file(let path) = self { return path }
        return nil
    }
}
