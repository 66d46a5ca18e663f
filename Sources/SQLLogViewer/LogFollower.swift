import Foundation
import Insights

/// Follows a log for `perf-run log --follow`: each `poll()` reads what was
/// appended since the last one, from where reading stopped.
///
/// A regular file that got shorter (truncated) is read again from its
/// start; a file replaced by another one at the same path (another device
/// or inode, as log rotation does) is reopened and read from its start; a
/// file truncated and written again past its old size between two polls
/// (the same inode, a larger size) is told by its content: a digest of its
/// first bytes read (up to ``headBytes``) that no longer matches. The
/// analysis goes on adding up across both: it is of everything seen, and
/// ``restarts`` says how often the file started over. (A file written again
/// with the same first bytes as before, up to the size read, cannot be told
/// from one appended to, and is read as one.)
///
/// A stream (a FIFO, a pipe, standard input: ``LogFile/isStream(_:)``) is
/// read as its bytes come, to its end: a poll waits for bytes, then takes
/// what comes within ``streamInterval``; at the end ``ended`` is set and a
/// last line without a newline is read.
public struct LogFollower {
    /// The path, or the name of a stream opened elsewhere ("standard input").
    public let path: String
    public private(set) var analyzer = SQLLogAnalyzer()
    /// Bytes of the current file read so far.
    public private(set) var offset: UInt64 = 0
    /// Times the file was seen truncated or replaced.
    public private(set) var restarts = 0
    /// Read as a stream, to its end.
    public private(set) var isStream: Bool
    /// The stream reached its end: nothing more will come.
    public private(set) var ended = false
    /// How long a poll of a stream goes on taking bytes once some came: at
    /// most two updates a second however fast the writer is.
    public static let streamInterval = 0.5
    private var handle: FileHandle?
    /// The file's identity when it was opened: its device and inode.
    private var device: UInt64?
    private var inode: UInt64?
    /// A digest of the file's first bytes read, and how many (at most
    /// ``headBytes``): a rewrite changes them.
    private var head: (length: Int, digest: UInt64)?
    /// The first bytes of a file compared at each poll.
    public static let headBytes = 4_096

    /// Follows the file (or FIFO) at `path`; a FIFO is opened at the first
    /// poll, which waits for a writer as `cat` does.
    /// `entityNames` names a Core Data log's tables (``SQLLogAnalyzer/entityNames``).
    public init(path: String, insights: InsightSettings = InsightSettings(), entityNames: [String: String] = [:]) {
        self.path = path
        isStream = LogFile.isStream(path)
        analyzer = SQLLogAnalyzer(sourceName: URL(fileURLWithPath: path).lastPathComponent, settings: insights)
        analyzer.entityNames = entityNames
    }

    /// Follows a stream that is already open (standard input), named `name`.
    public init(stream: FileHandle, name: String, insights: InsightSettings = InsightSettings(), entityNames: [String: String] = [:]) {
        path = name
        handle = stream
        isStream = true
        analyzer = SQLLogAnalyzer(sourceName: name, settings: insights)
        analyzer.entityNames = entityNames
    }

    /// Reads what is new. Returns whether anything was read; throws when the
    /// file cannot be opened or read.
    public mutating func poll() throws(LogFileError) -> Bool {
        if handle == nil, !isStream, LogFile.isStream(path) { isStream = true }
        if isStream { return try pollStream() }
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
        let currentDevice = (attributes[.systemNumber] as? NSNumber)?.uint64Value
        if let open = handle {
            var rewritten = currentInode != inode || currentDevice != device || size < offset
            if !rewritten, let head, Self.digest(open, length: head.length) != head.digest { rewritten = true }
            if rewritten {
                try? open.close()
                handle = nil
                analyzer.dropPartialLine()
                restarts += 1
            }
        }
        if handle == nil {
            handle = try LogFile.open(path)
            inode = currentInode
            device = currentDevice
            offset = 0
            head = nil
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
        let headLength = Int(min(offset, UInt64(Self.headBytes)))
        if (head?.length ?? 0) < headLength, let digest = Self.digest(handle, length: headLength) {
            head = (headLength, digest)
        }
        return read
    }

    /// A 64-bit FNV-1a digest of the first `length` bytes of the file
    /// open as `handle`; nil when fewer can be read.
    private static func digest(_ handle: FileHandle, length: Int) -> UInt64? {
        guard (try? handle.seek(toOffset: 0)) != nil, let data = try? handle.read(upToCount: length), data.count == length else { return nil }
        var digest: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in data {
            digest ^= UInt64(byte)
            digest &*= 0x0000_0100_0000_01B3
        }
        return digest
    }

    /// Waits for a stream's next bytes and takes what comes within
    /// ``streamInterval``; at the end, reads a last partial line.
    private mutating func pollStream() throws(LogFileError) -> Bool {
        guard !ended else { return false }
        if handle == nil { handle = try LogFile.open(path) }
        guard let handle else { return false }
        let deadline = Date().addingTimeInterval(Self.streamInterval)
        var read = false
        while true {
            guard let chunk = try LogFile.readAvailable(handle, path: path) else {
                ended = true
                let partial = analyzer.hasPartialLine
                analyzer.flush()
                return read || partial
            }
            analyzer.consume(chunk: chunk)
            offset += UInt64(chunk.count)
            read = true
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0, LogFile.waitForBytes(handle, seconds: remaining) else { return true }
        }
    }

    /// The analysis so far; a partial last line waits for its newline.
    public func analysis() -> SQLLogAnalysis {
        var snapshot = analyzer
        return snapshot.finish()
    }
}
