import Foundation
import ObjectGraph

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
/// fails is built again.
///
/// Nothing is left behind: a build that fails (a full disk, a stop) removes
/// its files, and the files of a builder that died without cleaning up (a
/// SIGKILL) are removed by the next process that takes the lock.
public struct DataSetCache: Sendable {
    public let directory: URL

    public init(directory: URL = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-datasets")) {
        self.directory = directory
    }

    /// How often waiting and building look at `stopReason`.
    static let pollInterval: useconds_t = 50_000

    /// Creates the cache directory; fails with one line naming it and the
    /// reason (an unusable `TMPDIR`, for example).
    public func prepare() throws {
        let parent = directory.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ScenarioFailure("the temporary directory \(parent) (TMPDIR) does not exist or is not a directory")
        }
        if mkdir(directory.path, 0o755) != 0, errno != EEXIST {
            throw ScenarioFailure("cannot create the data set cache \(directory.path): \(String(cString: strerror(errno)))")
        }
        guard access(directory.path, W_OK) == 0 else {
            throw ScenarioFailure("cannot write the data set cache \(directory.path): \(String(cString: strerror(errno)))")
        }
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
    public func file(
        for kind: DataSetKind, scale: Double, seed: UInt64, progress: (String) -> Void = { _ in },
        step: (Int, Int) -> Void = { _, _ in }, stopReason: () -> String? = { nil }
    ) throws -> String {
        try prepare()
        let name = "\(kind.name)-scale\(scale)-seed\(seed)-g\(kind.generatorVersion)"
        let path = directory.appendingPathComponent(name + ".sqlite").path
        let lock = open(directory.appendingPathComponent(name + ".lock").path, O_CREAT | O_RDWR, 0o644)
        guard lock >= 0 else {
            throw ScenarioFailure("cannot create a lock file in \(directory.path): \(String(cString: strerror(errno)))")
        }
        defer { close(lock) }
        try acquire(lock, name: name, progress: progress, stopReason: stopReason)
        defer { flock(lock, LOCK_UN) }
        Self.recordOwner(lock)
        // Holding the lock, no one else builds this name: whatever a
        // builder left is dead. Others' leftovers go when their PID has.
        removeLeftovers(of: name)

        if FileManager.default.fileExists(atPath: path) {
            do {
                try verify(path, kind: kind, scale: scale)
                return path
            } catch {
                progress("data set \(name): the cached file failed verification (\(error)), building it again")
                for file in [path, Self.checksumPath(path)] { unlink(file) }
            }
        }
        progress("building data set \(kind.name) at scale \(scale), seed \(seed)")
        let building = path + ".building-\(getpid())"
        let parts = [building, building + "-wal", building + "-shm", Self.checksumPath(building)]
        for part in parts { unlink(part) }
        do {
            try build(kind, into: building, scale: scale, seed: seed, step: step, stopReason: stopReason)
            try Self.writeChecksum(of: building)
            guard rename(Self.checksumPath(building), Self.checksumPath(path)) == 0, rename(building, path) == 0 else {
                throw ScenarioFailure("cannot rename \(building) to \(path): \(String(cString: strerror(errno)))")
            }
        } catch {
            for part in parts { unlink(part) }
            throw error
        }
        try verify(path, kind: kind, scale: scale)
        progress("built data set \(name)")
        return path
    }

    /// Takes the exclusive lock, polling so that a stop is seen at once and
    /// saying whom it waits for.
    private func acquire(_ lock: Int32, name: String, progress: (String) -> Void, stopReason: () -> String?) throws {
        var announced = false
        while flock(lock, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw ScenarioFailure("cannot lock the data set \(name): \(String(cString: strerror(errno)))")
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
                if let reason = stopReason() { throw ObjectGraphError.cancelled(reason) }
                step(done, total)
            }
        }
        // Fold the WAL into the file, so that one file is the whole database.
        let connection = try Connection(.file(path))
        try connection.executeUntraced("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE")
        for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
    }

    /// Throws unless the file has the checksum recorded when it was built,
    /// the model, the row counts, and passes `PRAGMA quick_check`.
    public func verify(_ path: String, kind: DataSetKind, scale: Double) throws {
        guard let recorded = try? String(contentsOfFile: Self.checksumPath(path), encoding: .utf8) else {
            throw ScenarioFailure("\(path): no checksum recorded")
        }
        let actual = try Self.checksum(of: path)
        guard recorded.trimmingCharacters(in: .whitespacesAndNewlines) == actual else {
            throw ScenarioFailure("\(path): checksum \(actual) differs from the one recorded at build time")
        }
        var configuration = StoreConfiguration()
        configuration.sinks = []
        configuration.walMode = false
        _ = try Store(model: kind.model, location: .file(path), configuration: configuration)
        var options = Connection.Options()
        options.walMode = false
        let connection = try Connection(.file(path), options: options)
        var check = ""
        try connection.query("PRAGMA quick_check") { check = $0.string(0) }
        guard check == "ok" else { throw ScenarioFailure("\(path): quick_check says \(check)") }
        for (table, expected) in kind.expectedRows(scale: scale) {
            var count = -1
            try connection.query("SELECT count(*) FROM \"\(table)\"") { count = Int($0.int64(0)) }
            guard count == expected else { throw ScenarioFailure("\(path): \(table) has \(count) rows, not \(expected)") }
        }
        // Opening it must not have changed it, or the next check fails.
        guard try Self.checksum(of: path) == actual else { throw ScenarioFailure("\(path): changed by opening it") }
    }

    /// Copies a cached file for one scenario's use.
    static func copy(_ path: String, to destination: String) throws {
        remove(destination)
        try FileManager.default.copyItem(atPath: path, toPath: destination)
    }

    /// Removes a database file copy with its WAL and shared-memory files.
    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }

    // MARK: Leftovers

    /// Removes half-built files: this name's (the caller holds its lock),
    /// and any other whose builder process is gone.
    private func removeLeftovers(of name: String) {
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for file in files {
            guard let range = file.range(of: ".sqlite.building-") else { continue }
            let digits = file[range.upperBound...].prefix { $0.isNumber }
            let ours = file.hasPrefix(name + ".sqlite.building-")
            let builderGone = Int32(digits).map { kill($0, 0) != 0 && errno == ESRCH } ?? false
            if ours || builderGone { unlink(directory.appendingPathComponent(file).path) }
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

    private static func writeChecksum(of path: String) throws {
        let text = try checksum(of: path) + "\n"
        guard FileManager.default.createFile(atPath: checksumPath(path), contents: Data(text.utf8)) else {
            throw ScenarioFailure("cannot write \(checksumPath(path)): \(String(cString: strerror(errno)))")
        }
    }

    /// A 64-bit checksum of the file's bytes, in hexadecimal: each 8-byte
    /// word is mixed in by xor and a multiplication by an odd constant,
    /// both invertible, so any change of one word always changes it.
    static func checksum(of path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ScenarioFailure("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { try? handle.close() }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        var length: UInt64 = 0
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            length &+= UInt64(chunk.count)
            chunk.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                let words = bytes.count / 8
                var index = 0
                while index < words {
                    hash = (hash ^ bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) &* 0x0000_0100_0000_01B3
                    index += 1
                }
                var tail: UInt64 = 0
                for offset in (words * 8)..<bytes.count { tail = tail << 8 | UInt64(bytes[offset]) }
                if words * 8 < bytes.count { hash = (hash ^ tail) &* 0x0000_0100_0000_01B3 }
            }
        }
        hash = (hash ^ length) &* 0x0000_0100_0000_01B3
        return String(hash, radix: 16)
    }
}
