import Foundation

/// Follows a growing log file for `perf-run log --follow`: each `poll()`
/// reads what was appended since the last one, from where reading stopped.
///
/// A file that got shorter (truncated) is read again from its start; a file
/// replaced by another one at the same path (another inode, as log rotation
/// does) is reopened and read from its start. The analysis goes on adding
/// up across both: it is of everything seen.
public struct LogFollower {
    public let path: String
    public private(set) var analyzer = SQLLogAnalyzer()
    /// Bytes of the current file read so far.
    public private(set) var offset: UInt64 = 0
    /// Times the file was seen truncated or replaced.
    public private(set) var restarts = 0
    private var handle: FileHandle?
    private var inode: UInt64?

    public init(path: String) {
        self.path = path
    }

    /// Reads what is new. Returns whether anything was read; throws when the
    /// file cannot be opened or read.
    public mutating func poll() throws(LogFileError) -> Bool {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            // Between a rotation's rename and the new file's creation.
            if handle != nil { return false }
            throw LogFileError(path: path, reason: "no such file")
        }
        let size = (attributes[.size] as? NSNumber)?.uint64Value ?? 0
        let currentInode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value
        if handle != nil, currentInode != inode || size < offset {
            try? handle?.close()
            handle = nil
            analyzer.dropPartialLine()
            restarts += 1
        }
        if handle == nil {
            handle = try LogFile.open(path)
            inode = currentInode
            offset = 0
        }
        guard let handle, size > offset else { return false }
        do {
            try handle.seek(toOffset: offset)
        } catch {
            throw LogFileError(path: path, reason: "cannot read: \(failureReason(error))")
        }
        var read = false
        while let chunk = try LogFile.read(handle, path: path) {
            analyzer.consume(chunk: chunk)
            offset += UInt64(chunk.count)
            read = true
        }
        return read
    }

    /// The analysis so far; a partial last line waits for its newline.
    public func analysis() -> SQLLogAnalysis {
        var snapshot = analyzer
        return snapshot.finish()
    }
}
