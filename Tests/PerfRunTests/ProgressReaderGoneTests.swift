import Foundation
import Reporting
import TestSupport
import Testing

/// A run whose progress reader went away (`perf-run run … 2>&1 | head -1`
/// with the report to a file) still writes its report: the progress
/// lines' broken pipe is dropped, not the end of the process.
@Suite struct ProgressReaderGoneTests {
    /// Runs `executable` with standard error into a pipe nobody reads (its
    /// read end closed before the start), standard output to /dev/null,
    /// and SIGPIPE as a program gets it by default: neither ignored (other
    /// tests in this process ignore it, and a child inherits that) nor
    /// blocked.
    private func runWithStandardErrorUnread(_ executable: String, _ arguments: [String]) throws -> (status: Int32, signaled: Bool) {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        defer { close(ends[1]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        try #require(spawned == 0, "cannot start \(executable): \(String(cString: strerror(spawned)))")
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        return signal != 0 ? (signal, true) : ((status >> 8) & 0xff, false)
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
