import Foundation
import TestSupport
import Testing

/// `perf-run explain` works on a scratch store (an imported model's default
/// data set, or a copy of a cached one): whether it ends normally or by a
/// signal, no store, -wal or -shm file is left in `TMPDIR`.
@Suite struct ExplainScratchStoreTests {
    /// The model fixture with the most entities: at scale 4 its data set
    /// takes long enough to build that a signal comes while the store exists.
    static let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ModelImportTests/Fixtures/coredata-models/13-mastodon-mastodon-ios-CoreData/CoreData.xcdatamodeld").path
    static let explain = ["explain", "Status", "reblogsCount < 5", "--model", model, "--scale", "4"]

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

    /// `perf-run explain` on the slow model, started with `tmp` as its
    /// TMPDIR and nothing on its standard streams.
    static func startExplain(in tmp: URL) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PerfRunProcess.executable)
        process.arguments = Self.explain
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": tmp.path]) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130))])
    func aSignalDuringExplainLeavesNoStore(signal: Int32, status: Int32) throws {
        let tmp = try Self.privateTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let process = try Self.startExplain(in: tmp)
        // Poll (at most a minute) until the scratch store exists, then signal.
        let deadline = Date().addingTimeInterval(60)
        var seen: [String] = []
        while process.isRunning, Date() < deadline {
            seen = Self.storeFiles(under: tmp)
            if !seen.isEmpty { break }
            usleep(1000)
        }
        let signalled = process.isRunning
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        try #require(!seen.isEmpty && signalled, "no store appeared in \(tmp.path) while explain ran (it ended with \(process.terminationStatus))")
        #expect(process.terminationStatus == status, "the store seen: \(seen)")
        #expect(process.terminationReason == .exit)
        #expect(Self.storeFiles(under: tmp).isEmpty, "left behind: \(Self.storeFiles(under: tmp))")
    }

    /// An explanation killed with SIGKILL cannot clean up: the next process
    /// that uses the cache removes its scratch store, as it removes a dead
    /// builder's files.
    @Test func aKilledExplanationsStoreIsRemovedByTheNextProcess() throws {
        let tmp = try Self.privateTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let process = try Self.startExplain(in: tmp)
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline, Self.storeFiles(under: tmp).isEmpty { usleep(1000) }
        let signalled = process.isRunning
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let left = Self.storeFiles(under: tmp)
        try #require(signalled && !left.isEmpty, "no store appeared in \(tmp.path) while explain ran")
        #expect(process.terminationReason == .uncaughtSignal)

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
        #expect(onModel.stdout.contains("of 400 Status objects"), "\(onModel.stdout)")
        #expect(HostileEnvironment.files(under: tmp).isEmpty, "left behind: \(HostileEnvironment.files(under: tmp))")
        #expect(Self.storeFiles(under: tmp).isEmpty, "left behind: \(Self.storeFiles(under: tmp))")

        let onDataSet = try PerfRunProcess.run(["explain", "Selfie", "rating < 5", "--scale", "0.02"], environment: ["TMPDIR": tmp.path])
        #expect(onDataSet.status == 0, "\(onDataSet.stderr)")
        let name = "faultline-datasets/selfies-scale0.02-seed1-g1"
        #expect(HostileEnvironment.files(under: tmp) == [name + ".lock", name + ".sqlite", name + ".sqlite.checksum"])
    }
}
