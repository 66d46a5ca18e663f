import Foundation
import Scenarios
import TestSupport
import Testing

/// The data set cache under a shared temporary directory, attacked by
/// another user of the machine (`nobody`): a cache directory of theirs, or
/// symbolic links planted where the cache's lock and data files go, must
/// never make root write through them or trust what they lead to.
@Suite(.serialized) struct DataSetCacheSecurityTests {
    static let name = "selfies-scale0.02-seed1-g1"
    static let run = ["run", "FetchAll", "--scale", "0.02", "--iterations", "1", "--warmup", "0", "--quiet"]

    static func refusal(_ cache: URL, _ problem: String) -> String {
        "\(cache.path): the data set cache \(problem); refused: remove it or set TMPDIR to a directory of your own\n"
    }

    /// `nobody` makes `$TMPDIR/faultline-datasets` before root's first run
    /// and plants symbolic links to a root-only file where the lock, the
    /// data set and its checksum go. The run refuses the directory (exit
    /// 2, one line naming it, its owner and mode, and what to do) and the
    /// file is left as it was.
    @Test(arguments: [0o755, 0o777])
    func anotherUsersCacheDirectoryIsRefused(mode: Int) throws {
        try HostileEnvironment.requireRoot("planting an attack as nobody")
        let base = try HostileEnvironment.directory()
        defer { try? FileManager.default.removeItem(at: base) }
        let tmp = try HostileEnvironment.sharedTemporaryDirectory(in: base)
        let victim = try HostileEnvironment.victim(in: base)
        let cache = tmp.appendingPathComponent("faultline-datasets")
        try HostileEnvironment.asNobody(["mkdir", "-m", String(mode, radix: 8), cache.path])
        for suffix in [".lock", ".sqlite", ".sqlite.checksum"] {
            try HostileEnvironment.asNobody(["ln", "-s", victim.path, cache.appendingPathComponent(Self.name + suffix).path])
        }
        let json = base.appendingPathComponent("r.json").path
        let result = try PerfRunProcess.run(Self.run + ["--json", json], environment: ["TMPDIR": tmp.path])
        let expected = Self.refusal(cache, "belongs to another user (owner uid 65534, mode 0\(String(mode, radix: 8)); you are uid 0)")
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr == expected)
        HostileEnvironment.expectIntact(victim)
        #expect(!FileManager.default.fileExists(atPath: json), "nothing runs on a refused cache")

        // explain uses the same cache, and refuses it the same way.
        let explained = try PerfRunProcess.run(["explain", "Selfie", "rating < 5", "--scale", "0.02"], environment: ["TMPDIR": tmp.path])
        #expect(explained.status != 0)
        #expect(explained.stderr == expected)
        HostileEnvironment.expectIntact(victim)
    }

    /// A cache directory that others may write into (root's own, mode
    /// 0777), or a symbolic link planted where it goes, is refused too.
    @Test func aWritableOrLinkedCacheDirectoryIsRefused() throws {
        try HostileEnvironment.requireRoot("planting an attack as nobody")
        let base = try HostileEnvironment.directory()
        defer { try? FileManager.default.removeItem(at: base) }
        let tmp = try HostileEnvironment.sharedTemporaryDirectory(in: base)
        let cache = tmp.appendingPathComponent("faultline-datasets")
        try #require(mkdir(cache.path, 0o700) == 0 && chmod(cache.path, 0o777) == 0)
        let json = base.appendingPathComponent("r.json").path
        let writable = try PerfRunProcess.run(Self.run + ["--json", json], environment: ["TMPDIR": tmp.path])
        #expect(writable.status == 2, "\(writable.stderr)")
        #expect(writable.stderr == Self.refusal(cache, "is writable by group or others (owner uid 0, mode 0777)"))

        try FileManager.default.removeItem(at: cache)
        let elsewhere = tmp.appendingPathComponent("elsewhere")
        try HostileEnvironment.asNobody(["mkdir", "-m", "777", elsewhere.path])
        try HostileEnvironment.asNobody(["ln", "-s", elsewhere.path, cache.path])
        let linked = try PerfRunProcess.run(Self.run + ["--json", json], environment: ["TMPDIR": tmp.path])
        #expect(linked.status == 2, "\(linked.stderr)")
        #expect(linked.stderr == Self.refusal(cache, "is a symbolic link, not a directory (owner uid 65534, mode 0777)"))
        #expect(HostileEnvironment.files(under: elsewhere).isEmpty, "nothing written through the link")
        #expect(!FileManager.default.fileExists(atPath: json))
    }

    /// In the cache directory of one's own, a symbolic link (or a second
    /// hard link to a file) where the lock, the data set, its checksum or
    /// its verification record goes is an error naming it, never followed:
    /// the file it leads to is left as it was.
    @Test(arguments: ["lock", "data set", "checksum", "verification record", "hard link"])
    func aLinkPlantedInTheCacheIsAnErrorNotFollowed(planted: String) throws {
        try HostileEnvironment.requireRoot("a root-only victim file")
        let base = try HostileEnvironment.directory()
        defer { try? FileManager.default.removeItem(at: base) }
        let victim = try HostileEnvironment.victim(in: base)
        let tmp = base.appendingPathComponent("tmp")
        try #require(mkdir(tmp.path, 0o700) == 0)
        let cache = tmp.appendingPathComponent("faultline-datasets")
        let json = base.appendingPathComponent("r.json").path
        let lock = cache.appendingPathComponent(Self.name + ".lock").path
        let data = cache.appendingPathComponent(Self.name + ".sqlite").path
        let checksum = data + ".checksum"
        let record = data + ".verified"
        let expected: String
        if planted == "lock" {
            try #require(mkdir(cache.path, 0o700) == 0)
            try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: victim.path)
            expected = "\(lock): the data set's lock is a symbolic link (owner uid 0, mode 0777); not followed: remove it\n"
        } else {
            // A cache built as usual, then one of its files replaced.
            let first = try PerfRunProcess.run(Self.run + ["--json", json], environment: ["TMPDIR": tmp.path])
            try #require(first.status == 0, "\(first.stderr)")
            switch planted {
            case "data set":
                try FileManager.default.removeItem(atPath: data)
                try FileManager.default.createSymbolicLink(atPath: data, withDestinationPath: victim.path)
                expected = "\(data): the cached data set is a symbolic link (owner uid 0, mode 0777); not followed: remove it\n"
            case "checksum":
                try FileManager.default.removeItem(atPath: checksum)
                try FileManager.default.createSymbolicLink(atPath: checksum, withDestinationPath: victim.path)
                expected = "\(checksum): the data set's checksum is a symbolic link (owner uid 0, mode 0777); not followed: remove it\n"
            case "verification record":
                // Where the record of the file's last full verification goes.
                try FileManager.default.createSymbolicLink(atPath: record, withDestinationPath: victim.path)
                expected = "\(record): the data set's verification record is a symbolic link (owner uid 0, mode 0777); not followed: remove it\n"
            default:
                try FileManager.default.removeItem(atPath: data)
                try #require(link(victim.path, data) == 0)
                expected = "\(data): the cached data set has 2 hard links (owner uid 0, mode 0600); not used: remove it\n"
            }
        }
        let result = try PerfRunProcess.run(Self.run + ["--json", json], environment: ["TMPDIR": tmp.path])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr == expected)
        HostileEnvironment.expectIntact(victim)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.hasPrefix("faultline-run-") }.isEmpty)
    }

    /// The cache directory is made private (mode 0700), its files 0600.
    @Test func theCacheIsPrivate() throws {
        let base = try HostileEnvironment.directory()
        defer { try? FileManager.default.removeItem(at: base) }
        let result = try PerfRunProcess.run(
            Self.run + ["--json", base.appendingPathComponent("r.json").path], environment: ["TMPDIR": base.path])
        #expect(result.status == 0, "\(result.stderr)")
        let cache = base.appendingPathComponent("faultline-datasets")
        var info = stat()
        #expect(lstat(cache.path, &info) == 0)
        #expect(info.st_mode & 0o7777 == 0o700, "mode \(String(info.st_mode & 0o7777, radix: 8))")
        let files = HostileEnvironment.files(under: cache)
        #expect(files == [Self.name + ".lock", Self.name + ".sqlite", Self.name + ".sqlite.checksum"])
        for file in files {
            #expect(lstat(cache.appendingPathComponent(file).path, &info) == 0)
            #expect(info.st_mode & 0o7777 == 0o600, "\(file): mode \(String(info.st_mode & 0o7777, radix: 8))")
        }
    }

    /// A run removes the work directories of its own dead runs, not another
    /// user's (which root could be tricked into deleting through).
    @Test func anotherUsersWorkDirectoryIsLeftAlone() throws {
        try HostileEnvironment.requireRoot("planting files as nobody")
        let base = try HostileEnvironment.directory()
        defer { try? FileManager.default.removeItem(at: base) }
        let tmp = try HostileEnvironment.sharedTemporaryDirectory(in: base)
        let dead = Process()
        dead.executableURL = URL(fileURLWithPath: "/bin/true")
        try dead.run()
        dead.waitUntilExit()
        let theirs = tmp.appendingPathComponent("faultline-run-\(dead.processIdentifier)-theirs")
        let ours = tmp.appendingPathComponent("faultline-run-\(dead.processIdentifier)-ours")
        try HostileEnvironment.asNobody(["mkdir", theirs.path])
        try HostileEnvironment.asNobody(["touch", theirs.appendingPathComponent("file").path])
        try #require(mkdir(ours.path, 0o700) == 0)
        let result = try PerfRunProcess.run(
            Self.run + ["--json", base.appendingPathComponent("r.json").path], environment: ["TMPDIR": tmp.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: theirs.appendingPathComponent("file").path))
        #expect(!FileManager.default.fileExists(atPath: ours.path))
    }
}
