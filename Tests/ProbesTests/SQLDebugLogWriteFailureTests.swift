import Foundation
import Probes
import Testing

/// The SQL debug log sink never ends the process when its destination
/// cannot be written: at the first error it stops writing and says why,
/// where, and after how many lines (``SQLDebugLogSink/WriteFailure``).
@Suite struct SQLDebugLogWriteFailureTests {
    /// A statement event: two lines at level 2 (the statement and its one
    /// bound value), then the annotation.
    static func statement(_ number: Int) -> Event {
        .sql(SQLEvent(
            start: 0, durationNanoseconds: 1_000, thread: 0, sql: "SELECT t0.pk FROM \"T\" t0 WHERE t0.pk = ?", shape: "SELECT t0.pk FROM \"T\" t0 WHERE t0.pk = ?",
            shapeID: 0, arguments: ["\(number)"], rowsReturned: 1, rowsChanged: 0, fullScanSteps: 0, sorts: 0, autoIndexes: 0, vmSteps: 0,
            purpose: "fault", queryPlan: nil, callSite: CallSite(file: "T.swift", line: 1), facts: nil))
    }

    static func linesPerStatement(level: Int) -> Int {
        SQLDebugLogFormat.lines(for: statement(1), level: level).count
    }

    @Test func aFullDiskStopsTheLogAndSaysWhy() throws {
        let sink = try SQLDebugLogSink(level: 2, destination: .file("/dev/full"), name: "--sql-log /dev/full")
        #expect(sink.writeFailure == nil)
        for number in 1...3 { sink.receive(Self.statement(number)) }
        let failure = try #require(sink.writeFailure)
        #expect(failure.errorNumber == ENOSPC)
        #expect(failure.reason == "No space left on device")
        #expect(failure.destination == "--sql-log /dev/full")
        #expect(failure.linesWritten == 0)
        #expect(failure.description == "--sql-log /dev/full: cannot write: No space left on device (the log stops after 0 lines)")
        #expect(sink.linesWritten == 0)
    }

    @Test func aDescriptorThatRefusesWritesStopsTheLogAfterTheLinesWritten() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-sink-\(UUID().uuidString).log").path
        defer { unlink(path) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0)
        let sink = try SQLDebugLogSink(level: 2, destination: .descriptor(descriptor))
        #expect(sink.destinationName == "file descriptor \(descriptor)")
        for number in 1...2 { sink.receive(Self.statement(number)) }
        let written = 2 * Self.linesPerStatement(level: 2)
        #expect(sink.linesWritten == written)
        // The descriptor stops accepting writes (EBADF) without being
        // closed: a closed number could be reused at once by a test running
        // in parallel, whose file would then take the writes.
        let readOnly = open("/dev/null", O_RDONLY | O_CLOEXEC)
        try #require(readOnly >= 0)
        try #require(dup2(readOnly, descriptor) == descriptor)
        close(readOnly)
        defer { close(descriptor) }
        sink.receive(Self.statement(3))
        sink.receive(Self.statement(4))
        let failure = try #require(sink.writeFailure)
        #expect(failure.errorNumber == EBADF)
        #expect(failure.linesWritten == written)
        #expect(failure.description == "file descriptor \(descriptor): cannot write: Bad file descriptor (the log stops after \(written) lines)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.split(separator: "\n").count == written)
        #expect(text.hasSuffix("\n"))
    }

    @Test func aReadOnlyDescriptorIsAFailureNotACrash() throws {
        let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let sink = try SQLDebugLogSink(level: 1, destination: .descriptor(descriptor), name: "standard error")
        sink.receive(Self.statement(1))
        #expect(sink.writeFailure?.description == "standard error: cannot write: Bad file descriptor (the log stops after 0 lines)")
    }

    @Test func aPipeWhoseReaderLeftIsAFailureNotSIGPIPE() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        let sink = try SQLDebugLogSink(level: 1, destination: .descriptor(ends[1]), name: "a pipe")
        sink.receive(Self.statement(1))
        #expect(sink.writeFailure?.errorNumber == EPIPE)
        #expect(sink.writeFailure?.description == "a pipe: cannot write: Broken pipe (the log stops after 0 lines)")
        // The SIGPIPE the write raised was taken back, not left pending.
        var pending = sigset_t()
        sigpending(&pending)
        #expect(sigismember(&pending, SIGPIPE) == 0)
    }

    @Test func oneLineIsOneLine() {
        let failure = SQLDebugLogSink.WriteFailure(destination: "--sql-log /mnt/x.log", errorNumber: ENOSPC, linesWritten: 1_234)
        #expect(failure.description == "--sql-log /mnt/x.log: cannot write: No space left on device (the log stops after 1,234 lines)")
        #expect(SQLDebugLogSink.WriteFailure(destination: "x", errorNumber: EIO, linesWritten: 1).description
            == "x: cannot write: Input/output error (the log stops after 1 line)")
    }

    @Test func theEnvironmentsFileIsNamedByItsVariable() throws {
        let sink = try #require(SQLDebugLogSink.fromEnvironment(["FAULTLINE_SQL_DEBUG": "1", "FAULTLINE_SQL_LOG": "/dev/full"]))
        #expect(sink.destinationName == "FAULTLINE_SQL_LOG=/dev/full")
        sink.receive(Self.statement(1))
        #expect(sink.writeFailure?.description == "FAULTLINE_SQL_LOG=/dev/full: cannot write: No space left on device (the log stops after 0 lines)")
    }
}

/// A program that takes its log from the environment hears of a log that
/// cannot be written: once, in one line.
@Suite struct SQLDebugLogEnvironmentFailureTests {
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var said: [String] = []
        func say(_ line: String) { lock.withLock { said.append(line) } }
        var lines: [String] { lock.withLock { said } }
    }

    @Test func aLogThatStopsIsSaidOnce() throws {
        let lines = Lines()
        let made = SQLDebugLogSink.fromEnvironment(["FAULTLINE_SQL_DEBUG": "1", "FAULTLINE_SQL_LOG": "/dev/full"], saying: { lines.say($0) })
        let sink = try #require(made)
        #expect(lines.lines.isEmpty)
        for key in 1...3 { sink.receive(SQLDebugLogWriteFailureTests.statement(key)) }
        #expect(lines.lines == [
            "faultline: the SQL debug log FAULTLINE_SQL_LOG=/dev/full: cannot write: No space left on device (the log stops after 0 lines)",
        ])
    }

    @Test func aLogThatCannotBeOpenedIsSaid() {
        let lines = Lines()
        let path = "/nonexistent-\(UUID())/sql.log"
        #expect(SQLDebugLogSink.fromEnvironment(["FAULTLINE_SQL_DEBUG": "2", "FAULTLINE_SQL_LOG": path], saying: { lines.say($0) }) == nil)
        // Said once per process: no other test opens a log that cannot be opened.
        #expect(lines.lines.count == 1)
        #expect(lines.lines.allSatisfy { $0.hasPrefix("faultline: FAULTLINE_SQL_DEBUG=2: cannot write the SQL log ") && $0.hasSuffix(
            ": No such file or directory (no SQL debug log is written)") })
    }
}
