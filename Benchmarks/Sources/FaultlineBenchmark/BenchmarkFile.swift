import Foundation

/// Results files: JSON, written through a temporary file and a rename.
enum BenchmarkFile {
    static func write(_ results: BenchmarkResults, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try encoder.encode(results).write(to: url, options: .atomic)
    }

    static func read(_ path: String) throws -> BenchmarkResults {
        guard let data = FileManager.default.contents(atPath: path) else { throw BenchmarkError("\(path): cannot read the file") }
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        do {
            return try decoder.decode(BenchmarkResults.self, from: data)
        } catch {
            throw BenchmarkError("\(path): not a benchmark results file (\(error.localizedDescription))")
        }
    }
}
