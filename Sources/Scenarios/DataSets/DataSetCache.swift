import Foundation
import ObjectGraph
import Probes
import ToolSupport

/// Built data sets, cached as SQLite files under the system temporary
/// directory, one per (data set, scale, seed, generator version).
///
/// A file is built once, with a 64 MiB page cache (1.8x faster than
/// SQLite's default 2 MB here), into a temporary name and renamed into
/// place, under an exclusive lock, so several processes asking at once build
/// it once; the builder writes its process ID into the lock file, so a
/// waiter can say whom it waits for. Beside the file lies its checksum,
/// recorded at build time. Before reuse a file is verified: its checksum
/// (any changed byte is caught), the model hash (opening it with the model),
/// the row counts of every table, and `PRAGMA quick_check`; a file that
/// fails is built again. A full verification reads the whole file (184 MB
/// for selfies at scale 4, over a second), so what it saw is recorded beside
/// the file (``DataSetVerificationRecord``: the file's device, inode, size,
/// modification and status-change times, the checksum, the model hash and
/// rows it matched), and while all of that still holds the next use trusts
/// it and reads nothing more. Any write through the file system changes
/// the status-change time and is caught; a change beneath the file system
/// that leaves every fact as it was is not (the record says which).
///
/// The cache trusts nothing another user could have made: its directory is
/// created with mode 0700 and used only when it belongs to the effective
/// user and neither group nor others may write into it (even the user's
/// own: the cache never makes it so); its lock, data set, checksum and
/// verification record files likewise must be regular files of the user's,
/// with one link, not writable by group or others. Anything else (a directory of another
/// user's in a shared `/tmp`, a symbolic link planted where a file goes) is
/// a ``DataSetFailure`` naming it, its owner and mode and what to do, never
/// followed. Files are opened with `O_NOFOLLOW`, new ones with `O_EXCL`
/// under fresh random names.
///
/// Nothing is left behind: a build that fails (a full disk, a stop) removes
/// its files; its files are registered as ``TemporaryFiles`` while they
/// exist, so that a signal ending the process removes them; and the files
/// of a builder that died without cleaning up (a SIGKILL) are removed by
/// the next process that uses the cache.
public struct DataSetCache: Sendable {
    public let directory: URL

    public init(directory: URL = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-datasets")) {
        self.directory = directory
    }

    /// How often waiting and building look at `stopReason`.
    static let pollInterval: useconds_t = 50_000

    /// What to do about a cache directory that is not safe to use.
    static let remedy = "remove it or set TMPDIR to a directory of your own"

    /// Creates the cache directory (mode 0700) and checks that it is safe to
    /// use; fails with one line naming it and the reason (an unusable
    /// `TMPDIR`, a directory of another user's, for example). Removes the
    /// files of builders and explanations whose process is gone.
    public func prepare() throws {
        let parent = directory.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DataSetFailure(line: "the temporary directory \(parent) (TMPDIR) does not exist or is not a directory", path: parent)
        }
        var info = stat()
        if stat(parent, &info) == 0, info.st_mode & S_IWOTH != 0, info.st_mode & S_ISVTX == 0 {
            // Anyone could rename the cache away and put theirs in its place.
            throw DataSetFailure(
                parent, "the temporary directory (TMPDIR) is writable by others without the sticky bit (\(Self.ownerAndMode(info))); "
                    + "refused: chmod +t it or set TMPDIR to a directory of your own")
        }
        if mkdir(directory.path, 0o700) != 0, errno != EEXIST {
            throw DataSetFailure(
                line: "cannot create the data set cache \(directory.path): \(String(cString: strerror(errno)))", path: directory.path)
        }
        try Self.checkPrivateDirectory(directory.path, what: "the data set cache", remedy: Self.remedy)
        guard access(directory.path, W_OK) == 0 else {
            throw DataSetFailure(
                line: "cannot write the data set cache \(directory.path): \(String(cString: strerror(errno)))", path: directory.path)
        }
        removeLeftovers(of: nil)
    }

    /// The cached file for a data set, built first when needed.
    ///
    /// - Parameters:
    ///   - progress: what the cache does now (building, waiting for a lock).
    ///   - step: the build's progress, `done` of `total`.
    ///   - stopReason: polled while waiting and building (at least every
    ///     50 ms while waiting, every few thousand rows while building);
    ///     a non-nil reason stops the work with ``ObjectGraphError/cancelled(_:)``
    ///     and removes what was half built.
    /// - Throws: ``DataSetFailure`` when the data set cannot be built or
    ///   verified, or the cache is not safe to use.
    public func file(
        for kind: DataSetKind, scale: Double, seed: UInt64, progress: (String) -> Void = { _ in },
        step: (Int, Int) -> Void = { _, _ in }, stopReason: () -> String? = { nil }
    ) throws -> String {
        try prepare()
        let name = "\(kind.name)-scale\(scale)-seed\(seed)-g\(kind.generatorVersion)"
        let path = directory.appendingPathComponent(name + ".sqlite").path
        let lockPath = directory.appendingPathComponent(name + ".lock").path
        let lock = open(lockPath, O_CREAT | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard lock >= 0 else {
            let code = errno
            try Self.checkOwnFile(lockPath, what: "the data set's lock")
            throw DataSetFailure(lockPath, "cannot open the data set's lock", errno: code)
        }
        defer { close(lock) }
        var info = stat()
        guard fstat(lock, &info) == 0 else { throw DataSetFailure(lockPath, "cannot open the data set's lock", errno: errno) }
        try Self.checkOwnFile(info, lockPath, what: "the data set's lock")
        try acquire(lock, name: name, progress: progress, stopReason: stopReason)
        defer { flock(lock, LOCK_UN) }
        Self.recordOwner(lock)
        // Holding the lock, no one else builds this name: whatever a
        // builder left is dead. Others' leftovers go when their PID has.
        removeLeftovers(of: name)

        let record = DataSetVerificationRecord.path(path)
        if try Self.checkOwnFile(path, what: "the cached data set") {
            try Self.checkOwnFile(Self.checksumPath(path), what: "the data set's checksum")
            try Self.checkOwnFile(record, what: "the data set's verification record")
            do {
                try verifyUnlessUnchanged(path, kind: kind, scale: scale)
                return path
            } catch let failure as DataSetFailure {
                progress("data set \(name): the cached file failed verification (\(failure.problem)), building it again")
                for file in [path, Self.checksumPath(path), record] { unlink(file) }
            }
        } else {
            // A checksum or record without its file is of no use; nor one planted.
            try Self.checkOwnFile(Self.checksumPath(path), what: "the data set's checksum")
            try Self.checkOwnFile(record, what: "the data set's verification record")
            unlink(record)
        }
        progress("building data set \(kind.name) at scale \(scale), seed \(seed)")
        // A fresh name, created here (O_EXCL): SQLite opens a file of ours.
        let building: String, store: TemporaryFiles.Registration
        do {
            (building, store) = try Self.createUnique(path + ".building")
        } catch {
            throw DataSetFailure(path, "cannot build the data set", error: error)
        }
        let checksum = TemporaryFiles.register(Self.checksumPath(building))
        do {
            try build(kind, into: building, scale: scale, seed: seed, step: step, stopReason: stopReason)
            try Self.writeChecksum(of: building)
            // The checksum in place stays registered until its store is:
            // a signal between the two renames leaves no checksum without
            // its store (one after them costs a rebuild, never a wrong file).
            let placed = TemporaryFiles.register(Self.checksumPath(path))
            guard rename(Self.checksumPath(building), Self.checksumPath(path)) == 0 else {
                placed.keep()
                throw POSIXError.current
            }
            checksum.keep()
            guard rename(building, path) == 0 else {
                placed.remove()
                throw POSIXError.current
            }
            store.keep()
            placed.keep()
        } catch {
            store.remove()
            checksum.remove()
            if case ObjectGraphError.cancelled = error { throw error }
            throw DataSetFailure(path, "cannot build the data set", error: error)
        }
        // Verified as built; not recorded, since its last change (the
        // rename) is too recent to tell a later write from it: its next
        // use verifies it again and records that.
        do {
            try verify(path, kind: kind, scale: scale)
        } catch {
            for file in [path, Self.checksumPath(path)] { unlink(file) }
            throw error
        }
        progress("built data set \(name)")
        return path
    }

    /// A new, empty file for a store used for a while (an explanation's
    /// scratch copy): `label.sqlite` in a directory of its own with a fresh
    /// random name in the cache directory, registered as a
    /// ``TemporaryFiles`` directory until its registration's
    /// ``TemporaryFiles/Registration/remove()``: a signal that ends the
    /// process removes the directory with the store, its `-wal` and `-shm`
    /// (even one that a connection still opening makes again), and the next
    /// process removes it if this one dies by SIGKILL.
    public func scratchStore(_ label: String) throws -> TemporaryFiles.Registration {
        try prepare()
        do {
            return try Self.createUniqueDirectory(directory.appendingPathComponent(label + ".sqlite").path + ".scratch", holding: label + ".sqlite")
        } catch {
            throw DataSetFailure(directory.path, "cannot create a scratch store in the data set cache", error: error)
        }
    }

    /// Takes the exclusive lock, polling so that a stop is seen at once and
    /// saying whom it waits for.
    private func acquire(_ lock: Int32, name: String, progress: (String) -> Void, stopReason: () -> String?) throws {
        var announced = false
        while flock(lock, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw DataSetFailure(directory.appendingPathComponent(name + ".lock").path, "cannot lock the data set", errno: errno)
            }
            if let reason = stopReason() { throw ObjectGraphError.cancelled(reason) }
            if !announced {
                let owner = Self.owner(lock).map { " (process \($0))" } ?? ""
                progress("waiting for another perf-run\(owner) building data set \(name)")
                announced = true
            }
            usleep(Self.pollInterval)
        }
    }

    private func build(
        _ kind: DataSetKind, into path: String, scale: Double, seed: UInt64, step: (Int, Int) -> Void, stopReason: () -> String?
    ) throws {
        do {
            var configuration = StoreConfiguration()
            configuration.sinks = []
            configuration.cacheSizeKiB = 64 * 1024
            let store = try Store(model: kind.model, location: .file(path), configuration: configuration)
            try kind.build(into: store, scale: scale, seed: seed) { done, total in
                if done > 0 { TerminationSignals.checkpoint("dataset.building") }
                if let reason = stopReason() { throw ObjectGraphError.cancelled(reason) }
                step(done, total)
            }
        }
        // Fold the WAL into the file, so that one file is the whole database.
        let connection = try Connection(.file(path))
        try connection.executeUntraced("PRAGMA wal_checkpoint(TRUNCATE)")
        // Leaving WAL mode unmaps the shared-memory file (``FileMappings``).
        try FileMappings.holdingStill { try connection.executeUntraced("PRAGMA journal_mode = DELETE") }
        for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
    }

    /// Verifies the file fully (``verify(_:kind:scale:)``) unless its
    /// verification record shows that a full verification saw it as it is
    /// now, against the same checksum, model and rows; returns whether it
    /// verified fully. After a full verification, records what it saw when
    /// the file's times are older than a file made before the verification
    /// read anything (``DataSetVerificationRecord`` says why); a record
    /// that cannot be written (a full disk) is no failure, and leaves
    /// nothing behind.
    @discardableResult
    func verifyUnlessUnchanged(_ path: String, kind: DataSetKind, scale: Double) throws -> Bool {
        let recordPath = DataSetVerificationRecord.path(path)
        let checksum = try? Self.recordedChecksum(path)
        if let checksum, let facts = DataSetVerificationRecord.Facts(path: path),
            let recorded = try? Self.contents(of: recordPath, limit: 4096),
            recorded.elementsEqual(DataSetVerificationRecord(facts: facts, checksum: checksum, kind: kind, scale: scale).text.utf8)
        {
            return false
        }
        // Made before the verification reads anything: its time is the
        // file system's clock then.
        let probe = try? Self.createUnique(path + ".verifying")
        let started = probe.flatMap { DataSetVerificationRecord.Facts(path: $0.path)?.modified }
        let before = DataSetVerificationRecord.Facts(path: path)
        do {
            try verify(path, kind: kind, scale: scale)
        } catch {
            probe?.registration.remove()
            throw error
        }
        guard let probe else { return true }
        if let checksum, let started, let before, before.predate(started), DataSetVerificationRecord.Facts(path: path) == before {
            let text = Array(DataSetVerificationRecord(facts: before, checksum: checksum, kind: kind, scale: scale).text.utf8)
            let file = open(probe.path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
            if file >= 0 {
                let written = (try? Self.writeAll(text, to: file)) != nil
                if close(file) == 0, written, rename(probe.path, recordPath) == 0 {
                    probe.registration.keep()
                    return true
                }
            }
        }
        probe.registration.remove()
        return true
    }

    /// The checksum recorded beside the file at build time.
    static func recordedChecksum(_ path: String) throws -> String {
        String(decoding: try contents(of: checksumPath(path), limit: 64), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Throws unless the file has the checksum recorded when it was built,
    /// the model, the row counts, and passes `PRAGMA quick_check`: a
    /// ``DataSetFailure`` naming the file and what is wrong with it. Reads
    /// the whole file, twice: before and after opening it.
    public func verify(_ path: String, kind: DataSetKind, scale: Double) throws {
        let action = "cannot verify the data set"
        let recorded: String
        do {
            recorded = try Self.recordedChecksum(path)
        } catch {
            throw DataSetFailure(path, "\(action): no checksum recorded (\(DataSetFailure.reason(of: error)))")
        }
        let actual = try Self.checksum(of: path, action: action)
        guard recorded == actual else {
            throw DataSetFailure(path, "\(action): checksum \(actual) differs from the one recorded at build time")
        }
        do {
            var configuration = StoreConfiguration()
            configuration.sinks = []
            configuration.walMode = false
            let store = try Store(model: kind.model, location: .file(path), configuration: configuration)
            var options = Connection.Options()
            options.walMode = false
            let connection = try Connection(.file(path), options: options)
            var check = ""
            try connection.query("PRAGMA quick_check") { check = $0.string(0) }
            guard check == "ok" else { throw DataSetFailure(path, "\(action): quick_check says \(check)") }
            for (table, expected) in kind.expectedRows(scale: scale) {
                var count = -1
                if kind.model.entity(named: table) != nil {
                    // An entity's objects, not its subentities' (which may
                    // share its table).
                    var request = FetchRequest<ManagedObject>(entityName: table)
                    request.includesSubentities = false
                    let context = ObjectContext(store: store, name: "verify")
                    count = try context.perform { () throws(ObjectGraphError) in try context.count(for: request) }
                } else {
                    try connection.query("SELECT count(*) FROM \"\(table)\"") { count = Int($0.int64(0)) }
                }
                guard count == expected else { throw DataSetFailure(path, "\(action): \(table) has \(count) rows, not \(expected)") }
            }
        } catch let failure as DataSetFailure {
            throw failure
        } catch {
            throw DataSetFailure(path, action, error: error)
        }
        // Opening it must not have changed it, or the next check fails.
        guard try Self.checksum(of: path, action: action) == actual else { throw DataSetFailure(path, "\(action): changed by opening it") }
    }

    /// `prefix-PID-RANDOM`: this process's, as ``removeLeftovers(of:)`` reads it.
    private static func freshName(_ prefix: String) -> String {
        "\(prefix)-\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
    }

    /// A new directory (mode 0700) named `prefix-PID-random`, registered
    /// (before it is made) with the new, empty file `name` in it.
    static func createUniqueDirectory(_ prefix: String, holding name: String) throws -> TemporaryFiles.Registration {
        while true {
            let directory = freshName(prefix)
            let path = directory + "/" + name
            // Registered first: a signal between the steps removes what was made.
            let registration = TemporaryFiles.register(path, inDirectoryOfItsOwn: directory)
            guard mkdir(directory, 0o700) == 0 else {
                let code = errno
                registration.keep()  // not ours: never removed
                guard code == EEXIST else { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO) }
                continue
            }
            let file = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard file >= 0 else {
                let code = errno
                registration.remove()
                throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
            }
            close(file)
            return registration
        }
    }

    /// Creates `prefix-PID-RANDOM` (mode 0600, `O_EXCL`, never through a
    /// link), registered as a temporary store until the caller keeps or
    /// removes it; throws the system's error.
    static func createUnique(_ prefix: String) throws -> (path: String, registration: TemporaryFiles.Registration) {
        while true {
            let path = freshName(prefix)
            // Registered first: a signal between the two removes the file.
            let registration = TemporaryFiles.register(path)
            let file = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if file >= 0 {
                close(file)
                return (path, registration)
            }
            let code = errno
            registration.keep()  // not ours: never removed
            guard code == EEXIST else { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO) }
        }
    }

    // MARK: Trust

    /// "owner uid U, mode 0MMM".
    static func ownerAndMode(_ info: stat) -> String {
        let mode = String(info.st_mode & 0o7777, radix: 8)
        return "owner uid \(info.st_uid), mode \(String(repeating: "0", count: max(0, 4 - mode.count)) + mode)"
    }

    /// Throws unless `path` is a directory of the effective user's that
    /// group and others cannot write into (not a link to one).
    static func checkPrivateDirectory(_ path: String, what: String, remedy: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw DataSetFailure(path, "cannot use \(what)", errno: errno) }
        let problem: String? =
            switch info.st_mode & S_IFMT {
            case S_IFLNK: "is a symbolic link, not a directory (\(ownerAndMode(info)))"
            case S_IFDIR:
                if info.st_uid != geteuid() {
                    "belongs to another user (\(ownerAndMode(info)); you are uid \(geteuid()))"
                } else if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
                    "is writable by group or others (\(ownerAndMode(info)))"
                } else {
                    nil
                }
            default: "is not a directory (\(ownerAndMode(info)))"
            }
        if let problem { throw DataSetFailure(path, "\(what) \(problem); refused: \(remedy)") }
    }

    /// Throws unless the file at `path`, if any, is a regular file of the
    /// effective user's, with one link, that group and others cannot write;
    /// returns whether there is one. A symbolic link is never followed.
    @discardableResult
    static func checkOwnFile(_ path: String, what: String) throws -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return false }
            throw DataSetFailure(path, "cannot use \(what)", errno: errno)
        }
        try checkOwnFile(info, path, what: what)
        return true
    }

    static func checkOwnFile(_ info: stat, _ path: String, what: String) throws {
        let problem: String
        switch info.st_mode & S_IFMT {
        case S_IFLNK:
            throw DataSetFailure(path, "\(what) is a symbolic link (\(ownerAndMode(info))); not followed: remove it")
        case S_IFREG:
            if info.st_uid != geteuid() {
                problem = "belongs to another user (\(ownerAndMode(info)); you are uid \(geteuid()))"
            } else if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
                problem = "is writable by group or others (\(ownerAndMode(info)))"
            } else if info.st_nlink != 1 {
                problem = "has \(info.st_nlink) hard links (\(ownerAndMode(info)))"
            } else {
                return
            }
        default:
            problem = "is not a regular file (\(ownerAndMode(info)))"
        }
        throw DataSetFailure(path, "\(what) \(problem); not used: remove it")
    }

    // MARK: Leftovers

    /// Removes half-built data sets, half-written verification records and
    /// scratch stores: this name's (the caller holds its lock), and any
    /// whose process is gone.
    private func removeLeftovers(of name: String?) {
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        let lockedWork = [".sqlite.building-", ".sqlite.verifying-"]
        for file in files {
            guard let range = (lockedWork + [".sqlite.scratch-"]).lazy.compactMap({ file.range(of: $0) }).first else { continue }
            let digits = file[range.upperBound...].prefix { $0.isNumber }
            let ours = name.map { name in lockedWork.contains { file.hasPrefix(name + $0) } } ?? false
            let builderGone = Int32(digits).map { $0 != getpid() && kill($0, 0) != 0 && errno == ESRCH } ?? false
            guard ours || builderGone else { continue }
            let path = directory.appendingPathComponent(file).path
            // A scratch store's directory, or a file (a scratch store of an
            // older perf-run, a half-built data set): never a link followed.
            var info = stat()
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                TemporaryFiles.removeDirectory(path)
            } else {
                unlink(path)
            }
        }
    }

    /// Writes this process's ID into the lock file it holds.
    private static func recordOwner(_ lock: Int32) {
        let text = Array("\(getpid())\n".utf8)
        ftruncate(lock, 0)
        _ = text.withUnsafeBytes { pwrite(lock, $0.baseAddress, $0.count, 0) }
    }

    /// The process ID the lock's holder wrote, if any.
    private static func owner(_ lock: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = buffer.withUnsafeMutableBytes { pread(lock, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    // MARK: Checksums

    static func checksumPath(_ path: String) -> String { path + ".checksum" }

    /// Writes the checksum of a file being built beside it, into a new file.
    private static func writeChecksum(of path: String) throws {
        let bytes = Array((try checksum(of: path, action: "cannot build the data set") + "\n").utf8)
        let file = open(checksumPath(path), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw POSIXError.current }
        defer { close(file) }
        try writeAll(bytes, to: file)
    }

    /// Writes every byte to an open file.
    private static func writeAll(_ bytes: [UInt8], to file: Int32) throws {
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { throw result == 0 ? POSIXError(.ENOSPC) : POSIXError.current }
            written += result
        }
    }

    /// At most `limit` bytes of a file, never read through a symbolic link.
    private static func contents(of path: String, limit: Int) throws -> [UInt8] {
        let file = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard file >= 0 else { throw POSIXError.current }
        defer { close(file) }
        var buffer = [UInt8](repeating: 0, count: limit)
        let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, limit) }
        guard count >= 0 else { throw POSIXError.current }
        return Array(buffer[..<count])
    }

    /// A 64-bit checksum of the file's bytes, in hexadecimal: each 8-byte
    /// word is mixed in by xor and a multiplication by an odd constant,
    /// both invertible, so any change of one word always changes it. A
    /// file that cannot be read is a ``DataSetFailure`` for `action`.
    static func checksum(of path: String, action: String = "cannot read the data set") throws -> String {
        let file = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard file >= 0 else { throw DataSetFailure(path, action, errno: errno) }
        defer { close(file) }
        let size = 1 << 20
        let chunk = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { chunk.deallocate() }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        var length: UInt64 = 0
        while true {
            // Whole chunks (a multiple of 8 bytes) but at the file's end.
            var filled = 0
            while filled < size {
                let count = read(file, chunk + filled, size - filled)
                if count < 0, errno == EINTR { continue }
                guard count >= 0 else { throw DataSetFailure(path, action, errno: errno) }
                if count == 0 { break }
                filled += count
            }
            if filled == 0 { break }
            length &+= UInt64(filled)
            let bytes = UnsafeRawBufferPointer(start: chunk, count: filled)
            let words = filled / 8
            var index = 0
            while index < words {
                hash = (hash ^ bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) &* 0x0000_0100_0000_01B3
                index += 1
            }
            var tail: UInt64 = 0
            for offset in (words * 8)..<filled { tail = tail << 8 | UInt64(bytes[offset]) }
            if words * 8 < filled { hash = (hash ^ tail) &* 0x0000_0100_0000_01B3 }
            if filled < size { break }
        }
        hash = (hash ^ length) &* 0x0000_0100_0000_01B3
        return String(hash, radix: 16)
    }
}
