import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A scenario's working copy of a cached data set: made once, and for a
/// scenario that writes, brought back to the data set's exact bytes before
/// each iteration.
///
/// Where the file system makes reflinks (btrfs, XFS), every copy is one:
/// it shares the source's blocks, costs no time and writes nothing. Where
/// it does not (ext4, tmpfs), the copy is made once and restored in place:
/// an iteration changes few pages (BatchUpdate at scale 4: about 100 of
/// 44,863), so comparing both files and writing back those pages costs a
/// read of each, where a full copy also writes the whole file and leaves
/// it for the disk to write back. SQLite's backup API is not used: it was
/// slower than a full copy here, and its copy is not the same bytes (it
/// changes the destination's header counters).
extension DataSetCache {
    /// How ``copy(_:to:)`` made a copy.
    enum CopyMethod: Equatable {
        /// The file system shares the source's blocks until either file is
        /// written (btrfs, XFS): no time, no space.
        case reflink
        /// The bytes were read and written.
        case bytes
    }

    /// `FICLONE`, `_IOW(0x94, 9, int)`: the destination shares the
    /// source's blocks.
    private static let cloneRequest: UInt = 0x4004_9409

    /// Copies a cached file for one scenario's use: a new file (any file
    /// at `destination` goes first), never written through a symbolic
    /// link; a reflink where the file system makes one, else every byte.
    /// A failure (a full disk) removes the partial copy and is one line
    /// naming both files and the system's reason.
    @discardableResult
    static func copy(_ path: String, to destination: String) throws -> CopyMethod {
        remove(destination)
        let action = "cannot copy the data set to \(destination)"
        let input = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard input >= 0 else { throw DataSetFailure(path, action, errno: errno) }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw DataSetFailure(path, action, errno: errno) }
        var failure: (any Error)?
        var method = CopyMethod.reflink
        #if os(Linux)
        let cloned = ioctl(output, cloneRequest, input) == 0
        #else
        let cloned = false
        #endif
        if !cloned {
            method = .bytes
            do {
                try Self.copyBytes(from: input, to: output)
            } catch {
                failure = error
            }
        }
        // close reports a write the file system could not keep (NFS, quotas).
        if close(output) != 0, failure == nil { failure = POSIXError.current }
        if let failure {
            unlink(destination)
            throw DataSetFailure(path, action, error: failure)
        }
        return method
    }

    /// Every byte of `input` to `output`, through a 1 MiB buffer.
    private static func copyBytes(from input: Int32, to output: Int32) throws {
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var offset: off_t = 0
        while true {
            let count = try readFully(input, into: buffer, count: size, at: offset)
            if count == 0 { return }
            try writeFully(output, from: buffer, count: count, at: offset)
            offset += off_t(count)
        }
    }

    /// Brings a working copy that an iteration wrote back to the bytes of
    /// `source`, in place: the pages (4 KiB) that differ are written back
    /// and the file is cut or extended to the source's size, so that it
    /// ends byte for byte equal to `source`. Returns how many pages it
    /// wrote; nil, changing nothing, when the copy is not there, is not a
    /// regular file of one link, or is still open: its `-wal`, `-shm` or
    /// `-journal` file is there (SQLite removes them when the last
    /// connection closes), and writing under an open connection would
    /// mix its pages with the source's. The caller then makes a new copy
    /// under another name. A failure (a full disk) removes the copy and is
    /// one line naming both files and the system's reason.
    static func restore(_ copy: String, from source: String) throws -> Int? {
        for suffix in ["-wal", "-shm", "-journal"] {
            var info = stat()
            if lstat(copy + suffix, &info) == 0 || errno != ENOENT { return nil }
        }
        let output = open(copy, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        guard output >= 0 else { return nil }
        var info = stat()
        guard fstat(output, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_nlink == 1, info.st_uid == geteuid() else {
            close(output)
            return nil
        }
        let action = "cannot restore the data set's copy \(copy)"
        let input = open(source, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard input >= 0 else {
            let code = errno
            close(output)
            throw DataSetFailure(source, action, errno: code)
        }
        defer { close(input) }
        var failure: (any Error)?
        var pages = 0
        do {
            pages = try restorePages(from: input, to: output)
        } catch {
            failure = error
        }
        if close(output) != 0, failure == nil { failure = POSIXError.current }
        if let failure {
            remove(copy)
            throw DataSetFailure(source, action, error: failure)
        }
        return pages
    }

    /// Writes the pages of `output` that differ from `input`'s, then sets
    /// its size to `input`'s; the number of pages written.
    private static func restorePages(from input: Int32, to output: Int32) throws -> Int {
        let size = 1 << 20, page = 4096
        let wanted = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: page)
        let found = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: page)
        defer {
            wanted.deallocate()
            found.deallocate()
        }
        var offset: off_t = 0
        var pages = 0
        while true {
            let count = try readFully(input, into: wanted, count: size, at: offset)
            if count == 0 { break }
            let present = try readFully(output, into: found, count: count, at: offset)
            if present < count || memcmp(wanted, found, count) != 0 {
                for start in stride(from: 0, to: count, by: page) {
                    let length = min(page, count - start)
                    if start + length > present || memcmp(wanted + start, found + start, length) != 0 {
                        try writeFully(output, from: wanted + start, count: length, at: offset + off_t(start))
                        pages += 1
                    }
                }
            }
            offset += off_t(count)
        }
        guard ftruncate(output, offset) == 0 else { throw POSIXError.current }
        return pages
    }

    /// Reads up to `count` bytes at `offset`, fewer only at the file's end.
    private static func readFully(_ file: Int32, into buffer: UnsafeMutableRawPointer, count: Int, at offset: off_t) throws -> Int {
        var filled = 0
        while filled < count {
            let result = pread(file, buffer + filled, count - filled, offset + off_t(filled))
            if result < 0, errno == EINTR { continue }
            guard result >= 0 else { throw POSIXError.current }
            if result == 0 { break }
            filled += result
        }
        return filled
    }

    /// Writes `count` bytes at `offset`.
    private static func writeFully(_ file: Int32, from buffer: UnsafeRawPointer, count: Int, at offset: off_t) throws {
        var written = 0
        while written < count {
            let result = pwrite(file, buffer + written, count - written, offset + off_t(written))
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { throw result == 0 ? POSIXError(.ENOSPC) : POSIXError.current }
            written += result
        }
    }

    /// Removes a database file copy with its WAL and shared-memory files.
    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }
}
