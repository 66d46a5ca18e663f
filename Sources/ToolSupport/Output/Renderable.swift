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
    /// (``JSONOutput/data(_:pretty:)``), ending with a line break. A value
    /// JSON cannot hold (a time that is not finite) is an ``OutputError``,
    /// not a crash nor an encoder's dump.
    public func json<Value: Encodable>(_ value: Value, pretty: Bool = true) throws(OutputError) -> String {
        do {
            return String(decoding: try JSONOutput.data(value, pretty: pretty), as: UTF8.self) + "\n"
        } catch let EncodingError.invalidValue(value, context) {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            throw OutputError(.json, reason: "\(value) at \(path.isEmpty ? "the top" : String(path.dropFirst())) cannot be written as JSON")
        } catch {
            throw OutputError(.json, reason: "\(error)")
        }
    }

    /// The error for a format this value does not have.
    public func unsupported(_ format: OutputFormat) -> OutputError {
        OutputError(
            format, reason: "not a format of this output (\(outputFormats.map(\.rawValue).joined(separator: ", ")))")
    }
}
