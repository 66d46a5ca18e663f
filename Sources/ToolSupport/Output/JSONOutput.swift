import Foundation

/// The JSON form of everything `perf-run` writes: keys sorted, slashes left
/// alone, pretty (or one line, for a stream of updates).
public enum JSONOutput {
    public static func data<Value: Encodable>(_ value: Value, pretty: Bool = true) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// The JSON text of `value`, ending with a line break. A value JSON
    /// cannot hold (a time that is not finite) is an ``OutputError`` naming
    /// its key path, not a crash nor an encoder's dump.
    public static func text<Value: Encodable>(_ value: Value, pretty: Bool = true) throws(OutputError) -> String {
        do {
            return String(decoding: try data(value, pretty: pretty), as: UTF8.self) + "\n"
        } catch let EncodingError.invalidValue(value, context) {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            throw OutputError(.json, reason: "\(value) at \(path.isEmpty ? "the top" : String(path.dropFirst())) cannot be written as JSON")
        } catch {
            throw OutputError(.json, reason: "\(error)")
        }
    }
}
