import Foundation

/// The JSON form of everything `perf-run` writes: keys sorted, slashes left
/// alone, pretty (or one line, for a stream of updates).
public enum JSONOutput {
    public static func data<Value: Encodable>(_ value: Value, pretty: Bool = true) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}
