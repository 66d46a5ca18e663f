import Foundation
import Testing
@testable import ToolSupport

@Suite struct OutputFileTests {
    static func directory() throws -> String {
        let path = NSTemporaryDirectory() + "output-file-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A write check's file left by an earlier process of the same ID does
    /// not stop the check: its files have fresh names.
    @Test func aStaleWriteCheckFileIsNoFailure() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(FileManager.default.createFile(atPath: directory + "/.perf-run-write-check-\(getpid())", contents: Data()))
        try OutputFile.checkWritable(directory + "/report.json")
        try OutputFile.write(Data("x".utf8), to: directory + "/report.json")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: directory)) == [".perf-run-write-check-\(getpid())", "report.json"])
    }

    /// Two names of one place where nothing is yet collide; a link of the
    /// user's own is followed to its file.
    @Test func namesOfOnePlaceCollide() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let a = try OutputFile.target(of: directory + "/a.json")
        let b = try OutputFile.target(of: directory + "/./a.json")
        #expect(a.kind == .absent && a.collides(with: b))
        #expect(!a.collides(with: try OutputFile.target(of: directory + "/b.json")))
        try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: directory + "/a.json")
        #expect(try OutputFile.target(of: directory + "/link").path == directory + "/a.json")
        #expect(throws: ReportError.self) { try OutputFile.target(of: "") }
    }

    /// A new file gets the mode the umask gives, as a shell redirection's.
    @Test func aNewFileHasTheUmasksMode() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try OutputFile.write(Data("x".utf8), to: directory + "/new.json")
        let mode = try FileManager.default.attributesOfItem(atPath: directory + "/new.json")[.posixPermissions] as? Int
        let mask = umask(0o022)
        umask(mask)
        #expect(mode == 0o666 & ~Int(mask))
    }
}
