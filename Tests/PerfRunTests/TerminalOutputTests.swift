import Foundation
import TestSupport
import Testing

/// What perf-run writes to a terminal and what to a file or a pipe:
/// `log --follow` redraws its summary in place on a terminal only.
@Suite struct TerminalOutputTests {
    /// Runs perf-run with standard output on `terminal` (a pipe when nil),
    /// feeding a FIFO log with `first`, then, once the summary of it is out,
    /// with `second`. Returns the status and what standard output got.
    static func followFIFO(first: String, second: String, terminal: PseudoTerminal?) throws -> (status: Int32, stdout: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("follow-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("app.log").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PerfRunProcess.executable)
        process.arguments = ["log", fifo, "--follow"]
        process.standardInput = FileHandle.nullDevice
        let pipe = Pipe()
        let collected = Collected()
        if let terminal {
            process.standardOutput = terminal.terminal
        } else {
            process.standardOutput = pipe
            pipe.fileHandleForReading.readabilityHandler = { collected.append($0.availableData) }
        }
        process.standardError = FileHandle.nullDevice
        try process.run()
        var descriptor: Int32 = -1
        let deadline = Date().addingTimeInterval(20)
        while descriptor < 0, Date() < deadline {
            descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
            if descriptor < 0 { usleep(20_000) }
        }
        try #require(descriptor >= 0)
        _ = fcntl(descriptor, F_SETFL, 0)
        _ = first.withCString { write(descriptor, $0, strlen($0)) }
        let output = { terminal?.output ?? collected.text }
        while !output().contains("of 2 read"), Date() < deadline { usleep(20_000) }
        _ = second.withCString { write(descriptor, $0, strlen($0)) }
        close(descriptor)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        if let terminal { return (process.terminationStatus, terminal.finish()) }
        pipe.fileHandleForReading.readabilityHandler = nil
        collected.append(pipe.fileHandleForReading.readDataToEndOfFile())
        return (process.terminationStatus, collected.text)
    }

    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func append(_ more: Data) { lock.withLock { data.append(more) } }
        var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
    }

    static let first = "faultline: sql: SELECT 1\nfaultline: sql: SELECT 2\n"
    static let second = "faultline: sql: SELECT 3\n"

    @Test func followingRedrawsInPlaceOnATerminal() throws {
        let terminal = try PseudoTerminal()
        let (status, output) = try Self.followFIFO(first: Self.first, second: Self.second, terminal: terminal)
        #expect(status == 0)
        // The first summary, then the cursor back up over it, the rows
        // below it cleared, and the second in its place.
        let first = try #require(output.range(of: "2 log lines (faultline) of 2 read"))
        let redraw = try #require(output.range(of: "\r\u{1B}\\[[0-9]+A\u{1B}\\[J", options: .regularExpression, range: first.upperBound..<output.endIndex))
        let rows = Int(output[redraw].dropFirst(3).prefix { $0.isNumber })
        let before = output[..<redraw.lowerBound]
        // The cursor goes up over exactly the rows of the first summary.
        #expect(rows == before.split(separator: "\n", omittingEmptySubsequences: false).count - 1, "\(output)")
        #expect(output[redraw.upperBound...].hasPrefix("--- "))
        #expect(output[redraw.upperBound...].contains("3 log lines (faultline) of 3 read"))
    }

    @Test func followingAppendsToAPipe() throws {
        let (status, output) = try Self.followFIFO(first: Self.first, second: Self.second, terminal: nil)
        #expect(status == 0)
        #expect(!output.contains("\u{1B}"))
        #expect(output.contains("2 log lines (faultline) of 2 read") && output.contains("3 log lines (faultline) of 3 read"))
        #expect(output.contains("\n--- end of "))
    }
}
