import Foundation
import ToolSupport

/// Reading and writing reports as JSON files.
public enum ReportFile {
    /// Writes a report (``OutputFile``): atomically to a regular file, so a
    /// reader never sees half a report.
    public static func write(_ report: Report, to path: String) throws {
        try writeAtomically(try json(report), to: path)
    }

    /// The JSON form of everything `perf-run` writes: keys sorted, slashes
    /// left alone, pretty (or one line, for a stream of updates).
    public static func json<Value: Encodable>(_ value: Value, pretty: Bool = true) throws -> Data {
        try JSONOutput.data(value, pretty: pretty)
    }

    /// Writes bytes to `path` as ``OutputFile/write(_:to:)`` does: a
    /// regular file is replaced atomically, a device or FIFO written
    /// through, a symbolic link kept. Fails with a `ReportError` naming the
    /// path and the reason; a regular file is then as it was.
    public static func writeAtomically(_ data: Data, to path: String) throws {
        try OutputFile.write(data, to: path)
    }

    /// Reads a report from any readable file (``InputFile``: a FIFO or a
    /// pipe too); the error names the file, the key path and what is wrong.
    public static func read(_ path: String) throws -> Report {
        try decode(try InputFile.read(path), name: path)
    }

    /// A report from the bytes of a file already read (`name` is its
    /// path, for messages), checked as ``read(_:)`` checks a file.
    public static func decode(_ data: Data, name path: String) throws -> Report {
        // A key given twice, a number beyond range: named with its key path.
        if let problem = JSONTextScan.problem(in: data) { throw ReportError("\(path): \(problem)") }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            if let detail, detail.hasPrefix("Number "), let end = detail.range(of: " is not representable") {
                let number = detail[detail.index(detail.startIndex, offsetBy: 7)..<end.lowerBound]
                throw ReportError("\(path): the number \(number) is out of range (beyond a 64-bit floating-point number)")
            }
            throw ReportError("\(path): not JSON (\(detail ?? error.localizedDescription))")
        }
        guard let dictionary = object as? [String: Any], let version = dictionary["schemaVersion"] as? Int else {
            throw ReportError("\(path): not a Faultline report (no schemaVersion)")
        }
        // Version 1 differs only in what `values` mean (the last iteration's
        // figures, not medians) and in fields it lacks: it still reads.
        guard (1...Report.currentSchemaVersion).contains(version) else {
            throw ReportError(
                "\(path): schema version \(version) is not supported (this tool reads 1 to \(Report.currentSchemaVersion))")
        }
        if let problem = ReportValueCheck.problem(in: object) { throw ReportError("\(path): \(problem)") }
        do {
            return try JSONDecoder().decode(Report.self, from: data)
        } catch let error as DecodingError {
            throw ReportError("\(path): \(ReportDecodingFailure.describe(error))")
        }
    }
}
