import Foundation
import Probes
import Synchronization

/// Where `perf-run` writes a report, a page or a trace, and how.
///
/// A regular file, or a path where nothing is yet, is replaced atomically:
/// the bytes go to a temporary file beside it, which is then renamed over
/// it, so a reader never sees half a report and a failed write leaves the
/// old one as it was. A symbolic link stays a link: the file it leads to is
/// replaced (or created) that way, unless it is another user's link in a
/// shared sticky directory such as `/tmp` (the kernel's `protected_symlinks`
/// rule, applied whatever the kernel's setting): following it would let that
/// user choose what Faultline overwrites. Anything else — a character device
/// such as `/dev/null`, a FIFO, a socket, `/dev/stdout` of a pipe — is
/// written through, as `cp`, `tee` and shell redirection do (a FIFO blocks
/// until something reads it). A directory is refused.
///
/// The temporary file has a short name of its own (`.perf-run-XXXXXXXX.tmp`,
/// so a 255-byte file name still has room), is created exclusively without
/// following links (`O_CREAT | O_EXCL | O_NOFOLLOW`), and is registered
/// with ``TemporaryFiles`` until it is renamed, so a signal never leaves it
/// behind.
public enum OutputFile {
    /// What a path names, after following symbolic links.
    public enum Kind: Equatable, Sendable {
        /// Nothing yet: created atomically.
        case absent
        /// A regular file: replaced atomically.
        case regular
        /// A device, FIFO or socket: written through.
        case special
        case directory
    }

    /// A path with its symbolic links followed: the file that a write
    /// reaches, and what it is.
    public struct Target: Equatable, Sendable {
        public let path: String
        public let kind: Kind
        /// Device and inode, when something is there.
        let identity: (UInt64, UInt64)?

        public static func == (a: Target, b: Target) -> Bool {
            a.path == b.path && a.kind == b.kind && a.identity?.0 == b.identity?.0 && a.identity?.1 == b.identity?.1
        }

        /// Whether two outputs would overwrite each other: the same file,
        /// or the same path where nothing is yet. Character devices (two
        /// outputs to `/dev/null`) never do.
        public func collides(with other: Target) -> Bool {
            if kind == .special, isCharacterDevice { return false }
            if let a = identity, let b = other.identity { return a == b }
            guard identity == nil, other.identity == nil else { return false }
            // Where nothing is yet: the same name in the same directory.
            if path == other.path { return true }
            let (a, b) = (Self.parentIdentity(path), Self.parentIdentity(other.path))
            return a != nil && a?.0 == b?.0 && a?.1 == b?.1 && (path as NSString).lastPathComponent == (other.path as NSString).lastPathComponent
        }

        private static func parentIdentity(_ path: String) -> (UInt64, UInt64)? {
            var info = stat()
            guard stat((path as NSString).deletingLastPathComponent, &info) == 0 else { return nil }
            return (UInt64(info.st_dev), UInt64(info.st_ino))
        }

        private var isCharacterDevice: Bool {
            var info = stat()
            return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR
        }
    }

    /// Follows `path`'s symbolic links (a dangling link leads to the path
    /// where its file would be) and says what is there. Refuses another
    /// user's link in a shared sticky directory.
    public static func target(of path: String) throws(ReportError) -> Target {
        guard !path.isEmpty else { throw ReportError("an empty path: name a file, or - for standard output") }
        let start = absolute(path)
        var current = start
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0 else {
                let reason = errno
                // A link of /proc that names no path (`/dev/stdout` of a pipe
                // is `pipe:[123]`): what the system reaches through it.
                var reached = stat()
                if current != start, stat(start, &reached) == 0, reached.st_mode & S_IFMT != S_IFREG, reached.st_mode & S_IFMT != S_IFDIR {
                    return Target(path: start, kind: .special, identity: (UInt64(reached.st_dev), UInt64(reached.st_ino)))
                }
                if reason == ENOENT { return Target(path: current, kind: .absent, identity: nil) }
                throw ReportError("\(path): cannot write: \(String(cString: strerror(reason)))")
            }
            let identity = (UInt64(info.st_dev), UInt64(info.st_ino))
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                try refuseForeignLink(current, owner: info.st_uid, naming: path)
                var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                let length = readlink(current, &buffer, buffer.count - 1)
                guard length >= 0 else { throw ReportError("\(path): cannot write: \(String(cString: strerror(errno)))") }
                let link = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                current = link.hasPrefix("/") ? link : (current as NSString).deletingLastPathComponent + "/" + link
                current = lexicallyClean(current)
            case S_IFREG: return Target(path: current, kind: .regular, identity: identity)
            case S_IFDIR: return Target(path: current, kind: .directory, identity: identity)
            default: return Target(path: current, kind: .special, identity: identity)
            }
        }
        throw ReportError("\(path): cannot write: too many levels of symbolic links")
    }

    /// Refuses a symbolic link at `link` owned by another user (not the
    /// directory's owner either) in a sticky directory that others may
    /// write (`/tmp`): the rule of the kernel's `fs.protected_symlinks`.
    static func refuseForeignLink(_ link: String, owner: uid_t, naming name: String) throws(ReportError) {
        guard owner != geteuid() else { return }
        let directory = (link as NSString).deletingLastPathComponent
        var info = stat()
        guard stat(directory.isEmpty ? "/" : directory, &info) == 0 else { return }
        let shared = info.st_mode & S_ISVTX != 0 && info.st_mode & S_IWOTH != 0
        guard shared, info.st_uid != owner else { return }
        throw ReportError(
            "\(name): not written: \(link) is a symbolic link of another user (uid \(owner)) in the shared directory \(directory)")
    }

    /// Writes `data` to `path` as described above. Fails with one line
    /// naming the path and the reason; a regular file is then as it was.
    public static func write(_ data: Data, to path: String) throws(ReportError) {
        let target = try target(of: path)
        switch target.kind {
        case .directory:
            throw ReportError("\(path): cannot write: a directory")
        case .special:
            try writeThrough(data, to: target.path, naming: path)
        case .absent, .regular:
            try replace(target.path, with: data, naming: path)
        }
    }

    /// Fails early, before any work, when `path` could not be written: a
    /// directory in the way, a directory that cannot be created or written,
    /// a device or FIFO without write permission. Creates the missing
    /// directories a report path needs. Never opens a FIFO (that would
    /// block until a reader comes).
    public static func checkWritable(_ path: String) throws(ReportError) {
        let target = try target(of: path)
        switch target.kind {
        case .directory:
            throw ReportError("\(path): cannot write: a directory")
        case .special:
            guard access(target.path, W_OK) == 0 else {
                throw ReportError("\(path): cannot write: \(String(cString: strerror(errno)))")
            }
        case .absent, .regular:
            let directory = (target.path as NSString).deletingLastPathComponent
            try createDirectories(directory, naming: path)
            let (probe, descriptor) = createExclusive(in: directory)
            guard descriptor >= 0 else {
                throw ReportError("\(path): cannot write: \(directory): \(String(cString: strerror(errno)))")
            }
            close(descriptor)
            unlink(probe)
        }
    }

    /// Creates a new file with a fresh name in `directory`, exclusively and
    /// without following links, mode 0600: its path and descriptor (-1 with
    /// `errno` set when it cannot be made). A name taken (a stale file of an
    /// earlier process) is no failure: another is tried.
    static func createExclusive(in directory: String) -> (String, Int32) {
        for _ in 0..<16 {
            let path = directory + "/.perf-run-\(String(UInt32.random(in: .min ... .max), radix: 16)).tmp"
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor >= 0 || errno != EEXIST { return (path, descriptor) }
        }
        return ("", -1)
    }

    /// `mkdir -p`, failing with the system's reason for the first
    /// directory that cannot be made. Each directory made is noted
    /// (``removeCreatedEmptyDirectories()``).
    private static func createDirectories(_ directory: String, naming name: String) throws(ReportError) {
        var info = stat()
        if stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return }
        let parent = (directory as NSString).deletingLastPathComponent
        if parent != directory { try createDirectories(parent, naming: name) }
        if mkdir(directory, 0o755) == 0 {
            createdDirectories.withLock { $0.append(directory) }
        } else if errno != EEXIST {
            throw ReportError("\(name): cannot write: cannot create \(directory): \(String(cString: strerror(errno)))")
        }
    }

    /// The directories this process made for its outputs, oldest first.
    private static let createdDirectories = Mutex<[String]>([])

    /// Removes the directories this process made for its outputs that are
    /// still empty, deepest first: a command refused after its outputs
    /// were checked (``checkWritable(_:)`` makes the directories a report
    /// path needs) leaves nothing behind. A directory that holds anything
    /// stays (`rmdir` removes only empty ones).
    public static func removeCreatedEmptyDirectories() {
        let directories = createdDirectories.withLock { directories in
            defer { directories.removeAll() }
            return directories
        }
        for directory in directories.reversed() { rmdir(directory) }
    }

    /// The absolute form of `path`, from the current directory, cleaned
    /// (``lexicallyClean(_:)``). Not `standardizingPath`, which follows
    /// symbolic links: they must be seen one by one.
    static func absolute(_ path: String) -> String {
        lexicallyClean(path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
    }

    /// `path` without empty and `.` components. `..` stays, for the
    /// system to resolve: after a symbolic link it leads elsewhere than a
    /// lexical reading says.
    static func lexicallyClean(_ path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        return "/" + parts.joined(separator: "/")
    }

    private static func replace(_ path: String, with data: Data, naming name: String) throws(ReportError) {
        let directory = (path as NSString).deletingLastPathComponent
        try createDirectories(directory, naming: name)
        var mode: mode_t = 0o666 & ~currentUmask()
        var existing = stat()
        if stat(path, &existing) == 0 { mode = existing.st_mode & 0o7777 }
        let (temporary, descriptor) = createExclusive(in: directory)
        guard descriptor >= 0 else { throw ReportError("\(name): cannot write: \(String(cString: strerror(errno)))") }
        let registration = TemporaryFiles.register(temporary)
        TerminationSignals.checkpoint("output.temporary-file")
        let written = writeAll(data, to: descriptor)
        let synced = written == nil && fchmod(descriptor, mode) == 0 && fsync(descriptor) == 0 ? nil : (written ?? errno)
        close(descriptor)
        if let failure = synced {
            registration.remove()
            throw ReportError("\(name): cannot write: \(String(cString: strerror(failure)))")
        }
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            registration.remove()
            throw ReportError("\(name): cannot write: \(reason)")
        }
        registration.keep()
    }

    /// The process's file mode creation mask (read by setting it back).
    private static func currentUmask() -> mode_t {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }

    private static func writeThrough(_ data: Data, to path: String, naming name: String) throws(ReportError) {
        let descriptor = open(path, O_WRONLY | O_TRUNC)
        guard descriptor >= 0 else { throw ReportError("\(name): cannot write: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        if let failure = writeAll(data, to: descriptor) {
            throw ReportError("\(name): cannot write: \(String(cString: strerror(failure)))")
        }
    }

    /// Writes every byte; returns the errno of a failure.
    static func writeAll(_ data: Data, to descriptor: Int32) -> Int32? {
        data.withUnsafeBytes { bytes in DescriptorWrite.all(descriptor, bytes.bindMemory(to: UInt8.self)).error }
    }
}
