import Foundation
import TestSupport
import Testing

/// `perf-run explain` works on a scratch store (an imported model's default
/// data set, or a copy of a cached one): whether it ends normally or by a
/// signal, no store, -wal or -shm file is left in `TMPDIR`.
@Suite struct ExplainScratchStoreTests {
    /// The model fixture with the most entities.
    static let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ModelImportTests/Fixtures/coredata-models/13-mastodon-mastodon-ios-CoreData/CoreData.xcdatamodeld").path
    static let explain = ["explain", "Status", "reblogsCount < 5", "--model", model, "--scale", "0.5"]

    /// A private TMPDIR, removed by the caller.
    static func privateTemporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-explain-test-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The SQLite files under `directory`: stores and their companions,
    /// and any scratch store's directory, empty or not.
    static func storeFiles(under directory: URL) -> [String] {
        let files = HostileEnvironment.files(under: directory).filter {
            $0.contains(".sqlite") || $0.hasSuffix("-wal") || $0.hasSuffix("-shm") || $0.hasSuffix("-journal")
        }
        var directories: [String] = []
        if let enumerator = FileManager.default.enumerator(atPath: directory.path) {
            while let name = enumerator.nextObject() as? String {
                guard name.contains(".scratch-") else { continue }
                var info = stat()
                if lstat(directory.appendingPathComponent(name).path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { directories.append(name + "/") }
            }
        }
        return (files + directories).sorted()
    }

    /// A signal that arrives while the scratch store's directory exists
    /// (the checkpoint waits until the signal's clean-up has removed it, so
    /// the explanation's next open fails every time) ends the command with
    /// the signal's status, says nothing, and leaves nothing behind: the
    /// clean-up and the failing command agree that the signal reports.
    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130)), (SIGHUP, Int32(129))], SignalStress.rounds)
    func aSignalDuringExplainLeavesNoStore(signal: (number: Int32, status: Int32), round: Int) throws {
        let tmp = try Self.privateTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let result = try PerfRunProcess.run(
            Self.explain, environment: ["TMPDIR": tmp.path].merging(SignalStress.signal(signal.number, at: "explain.scratch-store")) { $1 })
        #expect(result.status == signal.status, "round \(round): \(result.stderr)")
        #expect(!result.signaled)
        #expect(result.stderr.isEmpty, "round \(round): a signal's end says nothing more")
        #expect(Self.storeFiles(under: tmp).isEmpty, "left behind: \(Self.storeFiles(under: tmp))")
    }

    /// An explanation killed with SIGKILL cannot clean up: the next process
    /// that uses the cache removes its scratch store, as it removes a dead
    /// builder's files.
    @Test func aKilledExplanationsStoreIsRemovedByTheNextProcess() throws {
        let tmp = try Self.privateTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let killed = try PerfRunProcess.run(Self.explain, environment: ["TMPDIR": tmp.path].merging(SignalStress.signal(SIGKILL, at: "explain.scratch-store")) { $1 })
        #expect(killed.signaled && killed.status == SIGKILL)
        let left = Self.storeFiles(under: tmp)
        try #require(!left.isEmpty, "no scratch store was left by the killed explanation")

        let next = try PerfRunProcess.run(["explain", "Selfie", "rating < 5", "--scale", "0.02"], environment: ["TMPDIR": tmp.path])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(Set(Self.storeFiles(under: tmp)).isDisjoint(with: left), "still there: \(Self.storeFiles(under: tmp))")
    }

    /// The normal end leaves nothing behind either: no scratch store for a
    /// model; for a data set, only the cached data set with its checksum
    /// and lock.
    @Test func theNormalEndOfExplainLeavesNothing() throws {
        let tmp = try Self.privateTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let onModel = try PerfRunProcess.run(Self.explain, environment: ["TMPDIR": tmp.path])
        #expect(onModel.status == 0, "\(onModel.stderr)")
        #expect(onModel.stdout.contains("of 50 Status objects"), "\(onModel.stdout)")
        #expect(HostileEnvironment.files(under: tmp).isEmpty, "left behind: \(HostileEnvironment.files(under: tmp))")
        #expect(Self.storeFiles(under: tmp).isEmpty, "left behind: \(Self.storeFiles(under: tmp))")

        let onDataSet = try PerfRunProcess.run(["explain", "Selfie", "rating < 5", "--scale", "0.02"], environment: ["TMPDIR": tmp.path])
        #expect(onDataSet.status == 0, "\(onDataSet.stderr)")
        let name = "faultline-datasets/selfies-scale0.02-seed1-g1"
        #expect(HostileEnvironment.files(under: tmp) == [name + ".lock", name + ".sqlite", name + ".sqlite.checksum"])
    }
}
