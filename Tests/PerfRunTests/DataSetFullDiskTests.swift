import BuiltInScenarios
import Foundation
import Reporting
import Scenarios
import TestSupport
import Testing

/// A data set that does not fit on the disk of `TMPDIR` (a small tmpfs):
/// building or copying it fails with one line naming the file and the
/// system's reason, exit code 2, and no partial file left behind.
@Suite(.serialized) struct DataSetFullDiskTests {
    /// The data set is built on a disk too small for it (512 KiB for about
    /// 5 MB): the build stops at the first write that does not fit, its
    /// files go, and the scenarios after it are not run.
    @Test func aDataSetThatDoesNotFitIsOneLineAndLeavesNothing() throws {
        try HostileEnvironment.requireRoot("mounting a small tmpfs")
        let base = try HostileEnvironment.directory()
        defer { try? FileManager.default.removeItem(at: base) }
        let disk = try HostileEnvironment.mountSmallFileSystem(bytes: 512 * 1024, in: base)
        defer { HostileEnvironment.unmount(disk) }
        let json = base.appendingPathComponent("r.json").path
        let result = try PerfRunProcess.run(
            ["run", "FetchAll", "DidFault", "--scale", "0.5", "--iterations", "1", "--quiet", "--json", json],
            environment: ["TMPDIR": disk.path])
        let line = "\(disk.path)/faultline-datasets/selfies-scale0.5-seed1-g1.sqlite: cannot build the data set: No space left on device"
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr == line + "\n")
        #expect(HostileEnvironment.files(under: disk) == ["faultline-datasets/selfies-scale0.5-seed1-g1.lock"])
        // The report of what ran is still written.
        let report = try ReportFile.read(json)
        #expect(report.scenarios.map(\.status) == [.failed, .skipped])
        #expect(report.scenarios.first?.error == line)
    }

    /// The data set is in the cache, but the disk has no room for a
    /// scenario's copy of it: the copy stops, its partial file goes, the
    /// cached file stays as it was, with the record of its verification
    /// (written before the copy: a file older than the verification).
    @Test func aCopyThatDoesNotFitIsOneLineAndLeavesNothing() throws {
        try HostileEnvironment.requireRoot("mounting a small tmpfs")
        let base = try HostileEnvironment.directory()
        defer { try? FileManager.default.removeItem(at: base) }
        // Built where there is room, then placed on the small disk.
        let roomy = base.appendingPathComponent("roomy")
        let built = try DataSetCache(directory: roomy).file(for: .selfies, scale: 0.2, seed: 1)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: built)[.size] as? Int)
        let disk = try HostileEnvironment.mountSmallFileSystem(bytes: (size + 256 * 1024 + 4095) / 4096 * 4096, in: base)
        defer { HostileEnvironment.unmount(disk) }
        let cache = disk.appendingPathComponent("faultline-datasets")
        try #require(mkdir(cache.path, 0o700) == 0)
        let cached = cache.appendingPathComponent("selfies-scale0.2-seed1-g1.sqlite").path
        for suffix in ["", ".checksum"] {
            try FileManager.default.copyItem(atPath: built + suffix, toPath: cached + suffix)
            #expect(chmod(cached + suffix, 0o600) == 0)
        }
        let original = try Data(contentsOf: URL(fileURLWithPath: cached))
        try Self.waitUntilOlder(cached, in: disk)

        let json = base.appendingPathComponent("r.json").path
        let result = try PerfRunProcess.run(
            ["run", "FetchAll", "--scale", "0.2", "--iterations", "1", "--quiet", "--json", json], environment: ["TMPDIR": disk.path])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("\(cached): cannot copy the data set to \(disk.path)/faultline-run-"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("/FetchAll/store-0.sqlite: No space left on device\n"), "\(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
        #expect(
            HostileEnvironment.files(under: disk)
                == ["faultline-datasets/selfies-scale0.2-seed1-g1.lock", "faultline-datasets/selfies-scale0.2-seed1-g1.sqlite",
                    "faultline-datasets/selfies-scale0.2-seed1-g1.sqlite.checksum",
                    "faultline-datasets/selfies-scale0.2-seed1-g1.sqlite.verified"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: cached)) == original)
        #expect(try ReportFile.read(json).scenarios.first?.status == .failed)
    }

    /// Waits until a file made in `directory` gets a later time than the
    /// file at `path` has (the file system's clock moves in ticks): the
    /// cache then records its verification of that file.
    static func waitUntilOlder(_ path: String, in directory: URL) throws {
        func times(_ path: String) throws -> (modified: timespec, changed: timespec) {
            var info = stat()
            try #require(lstat(path, &info) == 0)
            return (info.st_mtim, info.st_ctim)
        }
        func before(_ a: timespec, _ b: timespec) -> Bool { (a.tv_sec, a.tv_nsec) < (b.tv_sec, b.tv_nsec) }
        let file = try times(path)
        let probe = directory.appendingPathComponent("clock").path
        for _ in 0..<1_000 {
            #expect(FileManager.default.createFile(atPath: probe, contents: Data()))
            defer { unlink(probe) }
            let now = try times(probe).modified
            if before(file.modified, now), before(file.changed, now) { return }
            usleep(1_000)
        }
        Issue.record("the file system's clock did not move past \(path)'s times in a second")
    }
}
