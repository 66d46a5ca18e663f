import Foundation
import TestSupport
import Testing

/// What the data set tests stage as a hostile user or a hostile machine
/// would: files planted by the user `nobody`, a sticky world-writable
/// temporary directory, a small full file system. They need root, and fail
/// (never skip) without it.
enum HostileEnvironment {
    /// Fails the test, saying why, unless it runs as root.
    static func requireRoot(_ what: String) throws {
        try #require(geteuid() == 0, "\(what) needs root (the tests run as euid \(geteuid())): run the suite as root")
    }

    /// A fresh root-owned directory (mode 0755, so that `nobody` can reach
    /// what lies below it), removed by the caller.
    static func directory() throws -> URL {
        let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("faultline-hostile-\(UUID().uuidString.prefix(8))")
        try #require(mkdir(directory.path, 0o755) == 0, "cannot create \(directory.path): \(String(cString: strerror(errno)))")
        try #require(chmod(directory.path, 0o755) == 0)
        return directory
    }

    /// A sticky world-writable directory (mode 1777, as /tmp is) in `parent`.
    static func sharedTemporaryDirectory(in parent: URL) throws -> URL {
        let directory = parent.appendingPathComponent("tmp")
        try #require(mkdir(directory.path, 0o700) == 0, "cannot create \(directory.path): \(String(cString: strerror(errno)))")
        try #require(chmod(directory.path, 0o1777) == 0, "cannot chmod \(directory.path): \(String(cString: strerror(errno)))")
        return directory
    }

    /// Runs a command as the user `nobody` (group `nogroup`, no other
    /// groups), as another user of the machine would; fails the test
    /// unless it succeeds.
    static func asNobody(_ arguments: [String]) throws {
        let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let tool = try #require(setpriv, "setpriv (util-linux) is needed to act as the user nobody")
        let result = try CommandResult.run(tool, ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"] + arguments)
        try #require(result.status == 0, "as nobody, \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stderr)")
    }

    /// A root-owned file of mode 0600 with random contents: what an attack
    /// would make root overwrite.
    static func victim(in directory: URL, named name: String = "victim") throws -> (path: String, contents: Data) {
        let path = directory.appendingPathComponent(name).path
        let contents = Data((0..<64).map { _ in UInt8.random(in: 0...255) })
        try #require(FileManager.default.createFile(atPath: path, contents: contents, attributes: [.posixPermissions: 0o600]))
        try #require(chmod(path, 0o600) == 0)
        return (path, contents)
    }

    /// Fails the test unless the victim is as it was: the same bytes, owner
    /// root, mode 0600, a regular file.
    static func expectIntact(_ victim: (path: String, contents: Data), sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(FileManager.default.contents(atPath: victim.path) == victim.contents, "\(victim.path) was changed", sourceLocation: sourceLocation)
        var info = stat()
        #expect(lstat(victim.path, &info) == 0, sourceLocation: sourceLocation)
        #expect(info.st_mode & S_IFMT == S_IFREG && info.st_mode & 0o7777 == 0o600 && info.st_uid == 0,
                "\(victim.path): mode \(String(info.st_mode, radix: 8)), owner \(info.st_uid)", sourceLocation: sourceLocation)
    }

    /// Mounts a tmpfs of `size` bytes on a new directory in `parent` (the
    /// caller unmounts it with ``unmount(_:)``); fails the test, saying
    /// why, when mounting is not permitted.
    static func mountSmallFileSystem(bytes size: Int, in parent: URL) throws -> URL {
        let mountPoint = parent.appendingPathComponent("small-disk")
        try #require(mkdir(mountPoint.path, 0o755) == 0)
        let mount = try CommandResult.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size),mode=1777", "tmpfs", mountPoint.path])
        try #require(mount.status == 0, "cannot mount a tmpfs on \(mountPoint.path) (the test needs root with CAP_SYS_ADMIN): \(mount.stderr)")
        return mountPoint
    }

    static func unmount(_ mountPoint: URL) {
        let result = try? CommandResult.run("/bin/umount", [mountPoint.path])
        #expect(result?.status == 0, "cannot unmount \(mountPoint.path): \(result?.stderr ?? "")")
    }

    /// Every file (not directory) under `directory`, as relative paths, sorted.
    static func files(under directory: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        var files: [String] = []
        while let name = enumerator.nextObject() as? String {
            var info = stat()
            guard lstat(directory.appendingPathComponent(name).path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { continue }
            files.append(name)
        }
        return files.sorted()
    }
}
