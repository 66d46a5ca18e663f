import Foundation
@testable import SQLLogViewer
import Testing

@Suite struct LogFollowerTests {
    @Test func readsAppendsTruncationsAndReplacements() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-follow-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("app.log")
        func append(_ text: String) throws {
            let handle = try FileHandle(forWritingTo: url)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(text.utf8))
            try handle.close()
        }

        var follower = LogFollower(path: url.path)
        #expect(throws: LogFileError.self) { try follower.poll() }

        try Data("faultline: sql: SELECT 1\nfaultline: sql: SELECT 2\n".utf8).write(to: url)
        #expect(try follower.poll())
        #expect(follower.analysis().logLines == 2)
        #expect(try follower.poll() == false)  // nothing new

        // Appended: read from where reading stopped; a partial line waits.
        try append("faultline: sql: SELECT 3\nfaultline: sql: SEL")
        #expect(try follower.poll())
        #expect(follower.analysis().logLines == 3)
        try append("ECT 4\n")
        #expect(try follower.poll())
        #expect(follower.analysis().logLines == 4)
        #expect(follower.analysis().statements.map(\.count) == [4])

        // Truncated, then written again: read from its start.
        try Data("faultline: sql: DELETE FROM t\n".utf8).write(to: url)
        #expect(try follower.poll())
        #expect(follower.restarts == 1)
        #expect(follower.analysis().logLines == 5)

        // Replaced by another file (rotation): reopened, read from its start.
        let rotated = directory.appendingPathComponent("app.log.new")
        try Data("faultline: sql: COMMIT\nfaultline: sql: COMMIT\nfaultline: sql: COMMIT\n".utf8).write(to: rotated)
        #expect(rename(rotated.path, url.path) == 0)
        #expect(try follower.poll())
        #expect(follower.restarts == 2)
        #expect(follower.analysis().logLines == 8)
        #expect(follower.offset == 69)
    }

    /// A file truncated and written again past its old size between two
    /// polls (the same inode, a larger size): its first bytes changed, so it
    /// is read again from its start and every statement of both is counted.
    @Test func aFileRewrittenPastItsOldSizeWithinOnePollIsReadAgain() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-follow-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("app.log")
        func log(_ run: String, _ count: Int) -> Data {
            Data((0..<count).map { "faultline: sql: SELECT \($0) FROM \(run)\n" }.joined().utf8)
        }
        try log("first", 3_000).write(to: url)
        var follower = LogFollower(path: url.path)
        #expect(try follower.poll())
        #expect(follower.analysis().totalStatements == 3_000)
        let inode = try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? NSNumber
        // Truncated and written again in place, longer than before.
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: log("second", 4_000))
        try handle.close()
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? NSNumber == inode)
        #expect(try follower.poll())
        #expect(follower.restarts == 1)
        #expect(follower.analysis().totalStatements == 7_000)
        #expect(follower.analysis().statements.map(\.count).sorted() == [3_000, 4_000])
        // Appended to afterwards: no restart.
        let append = try FileHandle(forWritingTo: url)
        try append.seekToEnd()
        try append.write(contentsOf: log("second", 10))
        try append.close()
        #expect(try follower.poll())
        #expect(follower.restarts == 1)
        #expect(follower.analysis().totalStatements == 7_010)
    }

    /// A FIFO is a stream: read as its bytes come, to its end, where a last
    /// line without a newline is read too.
    @Test func readsAFIFOToItsEnd() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-follow-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("app.log").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let firstRead = DispatchSemaphore(value: 0)
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            try? handle.write(contentsOf: Data("faultline: sql: SELECT 1\nfaultline: sql: SEL".utf8))
            firstRead.wait()
            try? handle.write(contentsOf: Data("ECT 2\nfaultline: sql: SELECT 3".utf8))
            try? handle.close()
        }
        writer.start()
        var follower = LogFollower(path: fifo)
        #expect(follower.isStream)
        #expect(try follower.poll())
        #expect(follower.analysis().logLines == 1)  // the second line waits for its newline
        #expect(!follower.ended)
        firstRead.signal()
        while !follower.ended { _ = try follower.poll() }
        #expect(follower.analysis().logLines == 3)
        #expect(follower.offset == 74)
        #expect(try follower.poll() == false)
    }
}
