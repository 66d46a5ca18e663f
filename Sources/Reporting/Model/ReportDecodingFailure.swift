import Foundation
import ToolSupport

/// A report's decoding error in one line, with the key path where it
/// happened (`scenarios[0].status`), not Swift's dump of the error.
enum ReportDecodingFailure {
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field \(keyPath(context.codingPath + [key]))"
        case .valueNotFound(_, let context):
            return "\(keyPath(context.codingPath)): null where a value is required"
        case .typeMismatch(_, let context), .dataCorrupted(let context):
            let path = keyPath(context.codingPath)
            return path.isEmpty ? "not a valid report (\(context.debugDescription))" : "\(path): \(context.debugDescription)"
        @unknown default:
            return "not a valid report (\(error))"
        }
    }

    /// `scenarios[0].counters.sqlStatements`.
    static func keyPath(_ codingPath: [any CodingKey]) -> String {
        JSONKeyPath(codingPath: codingPath).text
    }
}
