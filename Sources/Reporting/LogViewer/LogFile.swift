import Foundation

/// A SQL debug log file, opened and read so that every failure is a
/// ``LogFileError`` naming the file and the reason (one line and exit code 2
/// in `perf-run log`), never a crash: Foundation's `readData(ofLength:)`
/// stops the program on a read error, a directory for one.
public enum LogFile {
    /// Bytes read at a time.
    static let chunkSize = 1 << 20

    /// Opens `path` for reading.
    public static func open(_ path: String) throws(LogFileError) -> FileHandle {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw LogFileError(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw LogFileError(path: path, reason: "a directory, not a log file") }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw LogFileError(path: path, reason: "not a readable file") }
        return handle
    }

    /// The next bytes of `handle` (at most ``chunkSize``), or nil at its end.
    /// `path` names it in errors.
    static func read(_ handle: FileHandle, path: String) throws(LogFileError) -> Data? {
        do {
            guard let chunk = try handle.read(upToCount: chunkSize), !chunk.isEmpty else { return nil }
            return chunk
        } catch {
            throw LogFileError(path: path, reason: "cannot read: \(failureReason(error))")
        }
    }
}

/// A log file that cannot be opened or read.
public struct LogFileError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }
}
