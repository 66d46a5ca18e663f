import Foundation
import ToolSupport

/// A SQL debug log file, opened and read so that every failure is a
/// ``LogFileError`` naming the file and the reason (one line and exit code 2
/// in `perf-run log`), never a crash: Foundation's `readData(ofLength:)`
/// stops the program on a read error, a directory for one. A FIFO, a pipe
/// or standard input is a stream (``isStream(_:)``), read as it comes.
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

extension LogFile {
    /// Whether `path` is read as a stream: a FIFO, a socket or a character
    /// device (after symbolic links: `/dev/stdin` of a pipe is one). A
    /// stream has no size to compare nor offset to seek to; its bytes are
    /// read as they come, to its end.
    public static func isStream(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        let type = status.st_mode & S_IFMT
        return type == S_IFIFO || type == S_IFSOCK || type == S_IFCHR
    }

    /// The bytes a stream has now (at most ``chunkSize``), waiting until
    /// some come; nil at its end (every writer closed it).
    static func readAvailable(_ handle: FileHandle, path: String) throws(LogFileError) -> Data? {
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = buffer.withUnsafeMutableBytes { readSystemCall(handle.fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 { return Data(buffer[..<count]) }
            if count == 0 { return nil }
            guard errno == EINTR else { throw LogFileError(path: path, reason: "cannot read: \(String(cString: strerror(errno)))") }
        }
    }

    /// Whether a stream has bytes to read (or its end) within `seconds`.
    static func waitForBytes(_ handle: FileHandle, seconds: Double) -> Bool {
        var request = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, Int32(max(0, seconds) * 1000)) > 0
    }
}

/// A log file that cannot be opened or read.
public struct LogFileError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }
}

extension LogFileError: CommandFailure {
    /// A log that cannot be read: bad input.
    public var exitStatus: ExitStatus { .badInput }
}
