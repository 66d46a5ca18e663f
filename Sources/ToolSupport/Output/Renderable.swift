import Foundation

/// Something a command writes — a report, a comparison, a log analysis, an
/// imported model, an explanation, a list — in the formats it has. One
/// interface, so that one writer (``OutputPlan``) handles every output the
/// same way.
public protocol Renderable {
    /// The formats this can be rendered in.
    var outputFormats: [OutputFormat] { get }
    /// The text of `format` (one of ``outputFormats``).
    func render(_ format: OutputFormat) throws(OutputError) -> String
}

extension Renderable {
    /// The JSON of an encodable value, as everything perf-run writes it
    /// (``JSONOutput/text(_:pretty:)``).
    public func json<Value: Encodable>(_ value: Value, pretty: Bool = true) throws(OutputError) -> String {
        try JSONOutput.text(value, pretty: pretty)
    }

    /// The error for a format this value does not have.
    public func unsupported(_ format: OutputFormat) -> OutputError {
        OutputError(
            format, reason: "not a format of this output (\(outputFormats.map(\.rawValue).joined(separator: ", ")))")
    }
}
