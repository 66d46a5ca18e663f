import Foundation
import ObjectGraph
import Probes
import Testing
@testable import BuiltInScenarios
@testable import Scenarios

/// The data set cache trusts its last full verification while the cached
/// file's facts (device, inode, size, modification and status-change
/// times) are as it saw them, and verifies fully when they change; a
/// writing scenario's working copy is brought back to the data set's bytes
/// before each iteration.
@Suite struct DataSetCacheVerificationTests {
    static let scale = 0.02

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-verification-\(UUID().uuidString.prefix(8))")
        try #require(mkdir(directory.path, 0o700) == 0, "cannot create \(directory.path): \(String(cString: strerror(errno)))")
        return directory
    }

    /// Waits until a file made now gets a later time than the file at
    /// `path` has (the file system's clock moves in ticks), so that a
    /// verification starting now may record what it sees.
    static func waitUntilOlder(_ path: String, in directory: URL) throws {
        let facts = try #require(DataSetVerificationRecord.Facts(path: path))
        let probe = directory.appendingPathComponent("clock").path
        for _ in 0..<1_000 {
            #expect(FileManager.default.createFile(atPath: probe, contents: Data()))
            defer { unlink(probe) }
            let now = try #require(DataSetVerificationRecord.Facts(path: probe))
            if facts.predate(now.modified) { return }
            usleep(1_000)
        }
        Issue.record("the file system's clock did not move past \(path)'s times in a second")
    }

    /// A cache with a built file whose last full verification is recorded:
    /// the cache, the file, and what the record holds.
    static func verifiedCache(in directory: URL) throws -> (DataSetCache, String, String) {
        let cache = DataSetCache(directory: directory.appendingPathComponent("cache"))
        let path = try cache.file(for: .selfies, scale: scale, seed: 1)
        let record = DataSetVerificationRecord.path(path)
        // As built, the file's last change (its rename) is too recent to record.
        #expect(!FileManager.default.fileExists(atPath: record))
        try waitUntilOlder(path, in: directory)
        #expect(try cache.verifyUnlessUnchanged(path, kind: .selfies, scale: scale) == true)
        let text = try String(contentsOfFile: record, encoding: .utf8)
        let facts = try #require(DataSetVerificationRecord.Facts(path: path))
        let expected = DataSetVerificationRecord(facts: facts, checksum: try DataSetCache.recordedChecksum(path), kind: .selfies, scale: scale)
        #expect(text == expected.text)
        return (cache, path, text)
    }

    /// Changes "Selfie 7" to "Selfie X" in place (same inode, same size):
    /// a valid database with the right row counts, that only the checksum
    /// tells from the built one.
    static func damage(_ path: String) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let name = try #require(bytes.range(of: Data("Selfie 7".utf8)))
        let file = open(path, O_WRONLY | O_NOFOLLOW)
        try #require(file >= 0)
        defer { close(file) }
        var x = UInt8(ascii: "X")
        #expect(pwrite(file, &x, 1, off_t(name.upperBound - 1)) == 1)
    }

    static func contains(_ path: String, _ text: String) throws -> Bool {
        try Data(contentsOf: URL(fileURLWithPath: path)).range(of: Data(text.utf8)) != nil
    }

    /// The second use of an unchanged file reads nothing of it: a damaged
    /// page goes unseen while the record matches the file's facts (here a
    /// record rewritten for the damaged file, as by a writer that leaves
    /// every fact as it was), and is caught, the file built again, once its
    /// modification time changes.
    @Test func anUnchangedFileIsNotVerifiedAgain() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (cache, path, _) = try Self.verifiedCache(in: directory)
        #expect(try cache.verifyUnlessUnchanged(path, kind: .selfies, scale: Self.scale) == false)

        try Self.damage(path)
        let facts = try #require(DataSetVerificationRecord.Facts(path: path))
        let forged = DataSetVerificationRecord(facts: facts, checksum: try DataSetCache.recordedChecksum(path), kind: .selfies, scale: Self.scale)
        try forged.text.write(toFile: DataSetVerificationRecord.path(path), atomically: true, encoding: .utf8)
        var messages: [String] = []
        #expect(try cache.file(for: .selfies, scale: Self.scale, seed: 1, progress: { messages.append($0) }) == path)
        #expect(messages.isEmpty, "\(messages)")
        #expect(try Self.contains(path, "Selfie X"), "not read: the damage is still there")

        // A new modification time: verified fully, caught, built again.
        var times = [timespec](repeating: timespec(tv_sec: facts.modified.seconds + 1, tv_nsec: 0), count: 2)
        #expect(utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0)
        #expect(try cache.file(for: .selfies, scale: Self.scale, seed: 1, progress: { messages.append($0) }) == path)
        #expect(messages.first?.contains("failed verification (cannot verify the data set: checksum") == true, "\(messages)")
        #expect(messages.contains("building data set selfies at scale 0.02, seed 1"))
        #expect(try !Self.contains(path, "Selfie X"))
    }

    /// A write that changes the file's size, its modification time, its
    /// inode (a replacement by rename), or that sets the modification time
    /// back to what it was (its status-change time still moves), is caught
    /// by the next use: verified fully, built again.
    @Test(arguments: ["size", "mtime", "mtime restored", "inode"])
    func aWriteThatChangesTheFactsIsCaught(change: String) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (cache, path, record) = try Self.verifiedCache(in: directory)
        let before = try #require(DataSetVerificationRecord.Facts(path: path))
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        try Self.waitUntilOlder(path, in: directory)
        switch change {
        case "size":
            let file = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW)
            try #require(file >= 0)
            let page = [UInt8](repeating: 0, count: 4096)
            #expect(write(file, page, page.count) == page.count)
            close(file)
        case "mtime":
            try Self.damage(path)
        case "mtime restored":
            try Self.damage(path)
            var times = [timespec](
                repeating: timespec(tv_sec: before.modified.seconds, tv_nsec: before.modified.nanoseconds), count: 2)
            #expect(utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0)
        default:
            let replacement = path + ".replacement"
            var bytes = original
            let name = try #require(bytes.range(of: Data("Selfie 7".utf8)))
            bytes[name.upperBound - 1] = UInt8(ascii: "X")
            try bytes.write(to: URL(fileURLWithPath: replacement))
            #expect(chmod(replacement, 0o600) == 0)
            #expect(rename(replacement, path) == 0)
        }
        let after = try #require(DataSetVerificationRecord.Facts(path: path))
        #expect(after != before)
        if change == "mtime restored" {
            #expect(after.modified == before.modified && after.size == before.size && after.inode == before.inode)
        }
        #expect(try String(contentsOfFile: DataSetVerificationRecord.path(path), encoding: .utf8) == record)

        var messages: [String] = []
        #expect(try cache.file(for: .selfies, scale: Self.scale, seed: 1, progress: { messages.append($0) }) == path)
        #expect(messages.first?.contains("failed verification (cannot verify the data set: checksum") == true, "\(messages)")
        #expect(messages.contains("building data set selfies at scale 0.02, seed 1"))
        let rebuilt = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(rebuilt.count == original.count && rebuilt.range(of: Data("Selfie X".utf8)) == nil)
        // The rebuilt file's record is written at its next use, not now.
        #expect(!FileManager.default.fileExists(atPath: DataSetVerificationRecord.path(path)))
    }

    /// A record of another model or other rows (an application that changed
    /// its data set without a new generator version) is not trusted.
    @Test func aRecordOfOtherRowsIsNotTrusted() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (cache, path, _) = try Self.verifiedCache(in: directory)
        let base = DataSetKind.selfies
        let moreRows = DataSetKind(
            name: base.name, model: base.model, expectedRows: { scale in base.expectedRows(scale: scale).mapValues { $0 + 1 } },
            build: { store, scale, seed, step in try base.build(into: store, scale: scale, seed: seed, step: step) })
        #expect(throws: DataSetFailure.self) { try cache.verifyUnlessUnchanged(path, kind: moreRows, scale: Self.scale) }
        #expect(try cache.verifyUnlessUnchanged(path, kind: base, scale: Self.scale) == false)
    }

    // MARK: Working copies

    /// A copy that a store wrote (rows changed, rows added: the file grew)
    /// is brought back to the source's bytes, writing only the pages that
    /// differ; a copy cut short is filled again; an unchanged one costs no
    /// write.
    @Test func aRestoredCopyEqualsTheSource() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try DataSetCache(directory: directory.appendingPathComponent("cache")).file(for: .selfies, scale: Self.scale, seed: 1)
        let original = try Data(contentsOf: URL(fileURLWithPath: source))
        let copy = directory.appendingPathComponent("copy.sqlite").path
        #expect(try DataSetCache.copy(source, to: copy) == .bytes, "ext4 and tmpfs make no reflinks")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == original)
        do {
            let store = try Store(model: DataSetKind.selfies.model, location: .file(copy))
            _ = try store.execute(BatchUpdateRequest(entityName: "Selfie", propertiesToUpdate: ["rating": .value(.integer(9))]))
            let objects = (0..<2_000).map { ["name": Value.string("added \($0)"), "rating": Value.integer(1)] }
            _ = try store.execute(BatchInsertRequest(entityName: "Selfie", objects: objects))
        }
        #expect(!FileManager.default.fileExists(atPath: copy + "-wal"), "the store is closed")
        let written = try Data(contentsOf: URL(fileURLWithPath: copy))
        #expect(written.count > original.count)

        let pages = try #require(try DataSetCache.restore(copy, from: source))
        #expect(pages > 0)
        #expect(pages < original.count / 4096, "only the pages that differ: \(pages)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == original)
        #expect(try DataSetCache.restore(copy, from: source) == 0)

        #expect(truncate(copy, off_t(original.count / 2)) == 0)
        #expect(try DataSetCache.restore(copy, from: source) == (original.count - original.count / 2 + 4095) / 4096)
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == original)
    }

    /// A copy whose store is still open is left alone (nil): the runner
    /// makes a new copy instead.
    @Test func aCopyInUseIsNotRestored() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try DataSetCache(directory: directory.appendingPathComponent("cache")).file(for: .selfies, scale: Self.scale, seed: 1)
        let copy = directory.appendingPathComponent("copy.sqlite").path
        try DataSetCache.copy(source, to: copy)
        let store = try Store(model: DataSetKind.selfies.model, location: .file(copy))
        _ = try store.execute(BatchUpdateRequest(entityName: "Selfie", propertiesToUpdate: ["rating": .value(.integer(9))]))
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        #expect(try DataSetCache.restore(copy, from: source) == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before)
        withExtendedLifetime(store) {}
        #expect(try DataSetCache.restore(directory.appendingPathComponent("absent.sqlite").path, from: source) == nil)
    }

    /// A writing scenario's every iteration starts from the data set's
    /// rows, on the one copy restored in place (store-0.sqlite throughout):
    /// the ratings' sum and the rows it sees are the same each time,
    /// though each iteration changes every rating and adds rows.
    @Test func everyIterationOfAWritingScenarioSeesTheDataSet() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = Scenario(name: "WriteAndCount", summary: "", dataSet: .selfies, writes: true) { run in
            let context = run.context()
            let (count, sum) = try context.perform { () -> (Int, Int) in
                let selfies = Array(try context.fetch(FetchRequest<Selfie>(returningValues: true)))
                return (selfies.count, selfies.reduce(0) { $0 + Int($1.rating) })
            }
            run.record("selfies", Double(count))
            run.record("ratingSum", Double(sum))
            let name = (run.store.path as NSString).lastPathComponent
            run.record("copyNumber", Double(name.dropFirst("store-".count).prefix { $0.isNumber }) ?? -1)
            _ = try run.store.execute(BatchUpdateRequest(entityName: "Selfie", propertiesToUpdate: ["rating": .value(.integer(9))]))
            _ = try run.store.execute(BatchInsertRequest(entityName: "Selfie", objects: [["name": .string("added"), "rating": .integer(1)]]))
        }
        var options = RunOptions()
        options.configuration.scale = Self.scale
        options.configuration.iterations = 4
        let runner = ScenarioRunner(options: options, cache: DataSetCache(directory: directory.appendingPathComponent("cache")))
        let report = runner.run(scenario)
        #expect(report.status == .passed, "\(report.error ?? "")")
        let selfies = try #require(report.valueStatistics?["selfies"])
        let sum = try #require(report.valueStatistics?["ratingSum"])
        let copy = try #require(report.valueStatistics?["copyNumber"])
        #expect(selfies.min == Double(DataSetKind.selfies.expectedRows(scale: Self.scale)["Selfie"] ?? 0) && selfies.max == selfies.min)
        #expect(sum.min == sum.max && sum.min > 0, "\(sum)")
        #expect(copy.min == 0 && copy.max == 0, "\(copy)")
        // Every counter the same in each iteration.
        #expect(report.advisoryCounters == Counters.advisoryByNature.sorted(), "\(report.advisoryCounters)")
    }
}
