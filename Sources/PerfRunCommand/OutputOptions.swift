import ArgumentParser
import Reporting
import ToolSupport

/// The outputs of every command, in one grammar:
///
/// - `--FORMAT [PATH]` writes the command's document in that format to
///   PATH; `-`, or no PATH, is standard output (`--json`, `--html`,
///   `--markdown`, `--junit`, `--swift`), each at most once;
/// - `--format FORMAT` with `--output PATH` names one output the same way
///   (`compare`'s and `trend`'s spelling; either may be left out: the
///   command's default format, standard output).
///
/// A format the command's document does not have is a usage error naming
/// the ones it has. A command writes its default (text on standard output,
/// for most) unless an output takes standard output, or, for `report`,
/// unless any output is named.
struct OutputOptions: ParsableArguments {
    @Option(name: .customLong("json"), defaultAsFlag: "-", parsing: .next, help: Self.help("JSON"))
    var json: String?

    @Option(name: .customLong("html"), defaultAsFlag: "-", parsing: .next, help: Self.help("a self-contained HTML page"))
    var html: String?

    @Option(name: .customLong("markdown"), defaultAsFlag: "-", parsing: .next, help: Self.help("Markdown (a CI job summary, a pull request)"))
    var markdown: String?

    @Option(name: .customLong("junit"), defaultAsFlag: "-", parsing: .next, help: Self.help("JUnit XML test results for CI"))
    var junit: String?

    @Option(name: .customLong("swift"), defaultAsFlag: "-", parsing: .next, help: Self.help("Swift source (model import)"))
    var swift: String?

    @Option(help: ArgumentHelp(
        "The format of --output: \(Self.formatNames.joined(separator: ", ")) (those the command writes; default: the command's own, text for most).", valueName: "format"))
    var format: String?

    @Option(help: ArgumentHelp("Where --format's output goes (- for standard output, the default).", valueName: "path"))
    var output: String?

    private static func help(_ what: String) -> ArgumentHelp {
        ArgumentHelp("Write \(what) to this file (- for standard output).", valueName: "path")
    }

    /// Every format a command may write.
    static var formatNames: [String] { ReportFormats.all.map { $0.format.rawValue } + [OutputFormat.swift.rawValue] }

    /// The `--FORMAT` options given: the format, the option, its value.
    var named: [(format: OutputFormat, option: String, path: String)] {
        let options: [(OutputFormat, String, String?)] = [
            (.json, "--json", json), (.html, "--html", html), (.markdown, "--markdown", markdown), (.junit, "--junit", junit),
            (.swift, "--swift", swift),
        ]
        return options.compactMap { format, option, path in path.map { (format, option, $0) } }
    }

    /// Whether any output is named.
    var isGiven: Bool { !named.isEmpty || format != nil || output != nil }

    /// When a command writes its default output.
    enum DefaultRule {
        /// Unless another output goes to standard output.
        case unlessStandardOutputIsTaken
        /// Unless any output is named.
        case unlessAnyOutputIsNamed
    }

    /// The outputs of a command whose document has `formats`: the ones
    /// named, then `default` on standard output as `rule` says.
    func outputs(
        _ command: String, formats: [OutputFormat], default defaultFormat: OutputFormat, rule: DefaultRule = .unlessStandardOutputIsTaken
    ) throws -> [OutputPlan.Output] {
        var outputs = try namedOutputs(command, formats: formats, default: defaultFormat)
        if format != nil || output != nil { return outputs }
        switch rule {
        case .unlessStandardOutputIsTaken where outputs.contains(where: { $0.destination == .standardOutput }): break
        case .unlessAnyOutputIsNamed where !outputs.isEmpty: break
        default: outputs.insert(.init(option: command, destination: .standardOutput, format: defaultFormat), at: 0)
        }
        return outputs
    }

    /// The outputs named, and none by default (`--output` alone is
    /// `default`'s format).
    func namedOutputs(_ command: String, formats: [OutputFormat], default defaultFormat: OutputFormat) throws -> [OutputPlan.Output] {
        var outputs: [OutputPlan.Output] = []
        for (format, option, path) in named {
            try Self.check(format, option: option, command: command, formats: formats)
            outputs.append(try .init(option: option, argument: path, format: format))
        }
        if format != nil || output != nil {
            let chosen = format.map { OutputFormat(rawValue: $0) } ?? defaultFormat
            try Self.check(chosen, option: "--format", command: command, formats: formats)
            outputs.append(try .init(option: format == nil ? "--output" : "--format \(chosen)", argument: output ?? "-", format: chosen))
        }
        return outputs
    }

    private static func check(_ format: OutputFormat, option: String, command: String, formats: [OutputFormat]) throws {
        guard formats.contains(format) else {
            let known = formatNames.contains(format.rawValue) ? "" : "no format \(format): "
            throw UsageError(option: option, "\(known)\(command) writes \(formats.map(\.rawValue).joined(separator: ", "))")
        }
    }
}
