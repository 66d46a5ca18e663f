import Foundation
import Reporting
import TestSupport
import Testing

/// A run whose progress reader went away (`perf-run run … 2>&1 | head -1`
/// with the report to a file) still writes its report: the progress
/// lines' broken pipe is dropped, not the end of the process.
@Suite struct ProgressReaderGoneTests {
    /// Runs `executable` with standard error into a pipe nobody reads (its
    /// read end closed before the start), standard output to /dev/null.
    private func runWithStandardErrorUnread(_ executable: String, _ arguments: [String]) throws -> (status: Int32, signaled: Bool) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardError = pipe
        try pipe.fileHandleForReading.close()
        try process.run()
        try pipe.fileHandleForWriting.close()
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal)
    }

    @Test func aRunWhoseProgressNobodyReadsWritesItsReport() throws {
        // The control: a program that does not hold SIGPIPE back dies of
        // it here (so the run below is not merely ignoring the signal
        // because the test's process does).
        let control = try runWithStandardErrorUnread("/bin/sh", ["-c", "exec /usr/bin/yes >&2"])
        #expect(control.signaled && control.status == SIGPIPE, "yes ended with \(control)")

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("progress-gone-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try runWithStandardErrorUnread(
            PerfRunProcess.executable, ["run", "FetchAll", "--scale", "0.02", "--iterations", "2", "--json", path])
        #expect(!run.signaled && run.status == 0, "perf-run ended with \(run)")
        let report = try ReportFile.read(path)
        #expect(report.scenarios.map(\.name) == ["FetchAll"])
    }
}
