import Foundation
import TestSupport
import Testing
@testable import Scenarios

/// `perf-run run --lttng` is safe and bounded: no wait on another program
/// lasts for ever, nothing of the user's is deleted, nothing is removed
/// before every check passed, and a signal leaves neither a session nor a
/// session daemon behind.
///
/// The tests never touch a session daemon they did not start: fake tools on
/// PATH where no real one is needed, and otherwise a private LTTNG_HOME
/// (as root, whose daemon is the machine's, the child runs as `nobody`).
/// Every process they stop is one they started (or their child started),
/// stopped by its process ID.
@Suite(.serialized) struct LTTngReliabilityTests {
    // MARK: Waits are bounded

    /// A session daemon whose `--daemonize` never returns: perf-run kills it
    /// after its time limit, and the daemon it forked (its child, named
    /// lttng-sessiond), and exits 2 with one line saying so.
    @Test func aSessionDaemonThatNeverReturnsIsKilledAndSaidSo() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pidFile = directory.appendingPathComponent("sessiond.pid").path
        let childFile = directory.appendingPathComponent("forked.pid").path
        let tools = try Self.fakeTools(in: directory, sessiond: """
            if [ "$1" = --forked ]; then while :; do sleep 1; done; fi
            "$0" --forked &
            echo $! > '\(childFile)'
            echo $$ > '\(pidFile)'
            exec sleep 1000000
            """)
        defer { Self.killFake(pidFile) }
        defer { Self.killFake(childFile, named: "lttng-sessiond") }
        let start = Date()
        let run = try Child(PerfRunProcess.executable, [
            "run", "FetchAll", "--scale", "0.02", "--lttng", "--lttng-output", directory.appendingPathComponent("trace").path,
            "--json", directory.appendingPathComponent("r.json").path,
        ], environment: ["PATH": tools, "TMPDIR": directory.path], in: directory)
        defer { run.kill() }
        #expect(run.wait(upTo: 60), "perf-run still waits after 60 s")
        let seconds = Date().timeIntervalSince(start)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr == "--lttng: lttng-sessiond --daemonize did not return within 10 s\n")
        #expect(seconds < 30, "took \(seconds) s")
        // perf-run killed it, by its process ID.
        let fake = try #require(Self.pid(in: pidFile), "the fake lttng-sessiond never ran")
        #expect(!LTTngRecording.isRunning(fake), "the fake lttng-sessiond (process \(fake)) still runs")
        let forked = try #require(Self.pid(in: childFile), "the fake lttng-sessiond forked nothing")
        #expect(!LTTngRecording.isRunning(forked), "the daemon the fake lttng-sessiond forked (process \(forked)) still runs")
    }

    /// While `lttng-sessiond --daemonize` hangs, another program's session
    /// daemon starts and the PID file names it: perf-run, ending the hung
    /// start, leaves that daemon running. (Run as `nobody` on a private
    /// home, whose PID file the test may write: root's is the machine's.)
    @Test func aDaemonAnotherProgramStartedMeanwhileIsLeftRunning() throws {
        let home = try PrivateLTTng()
        defer { home.remove() }
        // The other program's daemon: a script named lttng-sessiond.
        let other = home.home.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let otherDaemon = other.appendingPathComponent("lttng-sessiond").path
        try Data("#!/bin/sh\nwhile :; do sleep 1; done\n".utf8).write(to: URL(fileURLWithPath: otherDaemon))
        chmod(otherDaemon, 0o755)
        let (program, arguments) = home.command(otherDaemon, [])
        let running = try Child(program, arguments, environment: home.environment, in: home.home)
        defer { running.kill() }
        let otherPID = running.process.processIdentifier
        // The hung start writes that daemon's PID where this user's goes.
        let pidFile = home.pidFile
        let tools = try Self.fakeTools(in: home.home, sessiond: """
            mkdir -p '\(URL(fileURLWithPath: pidFile).deletingLastPathComponent().path)'
            echo \(otherPID) > '\(pidFile)'
            exec sleep 1000000
            """)
        if home.asNobody { _ = try BoundedCommand.run("/bin/chown", ["-R", "65534:65534", home.home.path], limit: .total(30)) }
        var environment = home.environment
        environment["PATH"] = tools
        let (perfRun, perfRunArguments) = home.command(PerfRunProcess.executable, [
            "run", "FetchAll", "--scale", "0.02", "--lttng", "--lttng-output", home.home.appendingPathComponent("trace").path,
            "--json", home.home.appendingPathComponent("r.json").path,
        ])
        let run = try Child(perfRun, perfRunArguments, environment: environment, in: home.home)
        defer { run.kill() }
        #expect(run.wait(upTo: 60), "perf-run still waits after 60 s")
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr == "--lttng: lttng-sessiond --daemonize did not return within 10 s\n")
        #expect(LTTngRecording.daemonNamed(by: pidFile) == otherPID, "the PID file no longer names the other daemon")
        #expect(LTTngRecording.isRunning(otherPID, named: "lttng-sessiond"), "perf-run stopped a daemon another program started (process \(otherPID))")
    }

    /// The limits themselves: a total one, and one on silence that a
    /// program printing now and then does not reach; the child is killed by
    /// its PID, and what it printed before its end is all read.
    @Test func boundedCommandsEndWithinTheirLimits() throws {
        let sh = "/bin/sh"
        let start = BoundedCommand.monotonicSeconds()
        #expect(throws: BoundedCommand.TimedOut.self) { try BoundedCommand.run(sh, ["-c", "exec sleep 1000"], limit: .total(0.5)) }
        #expect(throws: BoundedCommand.TimedOut.self) {
            try BoundedCommand.run(sh, ["-c", "echo 1; sleep 0.3; echo 2; exec sleep 1000"], limit: .silence(1), output: .discard)
        }
        #expect(BoundedCommand.monotonicSeconds() - start < 10)
        let chatty = try BoundedCommand.run(sh, ["-c", "for i in 1 2 3 4 5 6; do echo $i; sleep 0.2; done"], limit: .silence(1))
        #expect(chatty == (0, "1\n2\n3\n4\n5\n6\n"))
        let big = try BoundedCommand.run(sh, ["-c", "head -c 1000000 /dev/zero; echo oops >&2; exit 3"], limit: .total(30))
        #expect(big.status == 3 && big.output.utf8.count == 1_000_005)
        // Streamed: standard output as it comes, standard error kept aside.
        nonisolated(unsafe) var streamed = Data()
        let reader = try BoundedCommand.start(sh, ["-c", "echo out; echo oops >&2; exit 3"], output: .stream { streamed.append($0) })
        #expect(try reader.wait(limit: .total(30)).status == 3)
        #expect(String(decoding: streamed, as: UTF8.self) == "out\n")
        var errorLines: [String] = []
        reader.scanErrorLines { errorLines.append(String($0)); return true }
        #expect(errorLines == ["oops"])
        // Whatever this process blocks or ignores, the child starts with the
        // defaults (a daemon's parent waits for its child's SIGUSR1).
        let lines = try BoundedCommand.run(sh, ["-c", "grep -E '^Sig(Blk|Ign)' /proc/self/status"], limit: .total(30)).output
        let masks = Dictionary(
            uniqueKeysWithValues: lines.split(separator: "\n").map { line in
                let parts = line.split(separator: "\t")
                return (String(parts[0]), UInt64(parts[1], radix: 16) ?? .max)
            })
        let handled = [SIGHUP, SIGINT, SIGUSR1, SIGTERM].reduce(UInt64(0)) { $0 | 1 << UInt64($1 - 1) }
        #expect(masks["SigBlk:"] == 0, "\(lines)")
        #expect(masks["SigIgn:"].map { $0 & handled } == 0, "\(lines)")
    }

    /// A trace babeltrace2 cannot read is refused with babeltrace2's own
    /// reason, on one line.
    @Test func aTraceBabeltraceCannotReadIsRefusedWithItsReason() throws {
        _ = try #require(LTTngRecording.find("babeltrace2"), "babeltrace2 is not installed (scripts/install-system-packages.sh --test installs it)")
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("trace")
        try FileManager.default.createDirectory(at: trace.appendingPathComponent("ust"), withIntermediateDirectories: true)
        try Data("not CTF metadata\n".utf8).write(to: trace.appendingPathComponent("ust/metadata"))
        for path in [trace.path, directory.appendingPathComponent("none").path] {
            do {
                _ = try LTTngRecording.read(path)
                Issue.record("babeltrace2 read \(path)")
            } catch let error as LTTngRecording.Unavailable {
                let prefix = "babeltrace2 could not read \(path) (exit 1): "
                #expect(error.description.hasPrefix(prefix), "\(error.description)")
                #expect(error.description.count > prefix.count + 5, "\(error.description)")
                #expect(!error.description.contains("\n"))
            }
        }
    }

    /// babeltrace2's reason is its first logged error's message (Debian
    /// 12's babeltrace2 2.0.4, a trace without CTF metadata), else its last
    /// line; at most 300 characters.
    @Test func babeltracesReasonIsItsFirstLoggedError() {
        func reason(_ text: String) -> String? {
            LTTngRecording.babeltraceError { visit in
                for line in text.split(separator: "\n", omittingEmptySubsequences: false) where !visit(line) { return }
            }
        }
        let logged = """
            11-25 20:02:30.733 26156 26156 W PLUGIN/CTF/META/DECODER ctf_metadata_decoder_append_content@decoder.c:249 [N/A] Missing "/* CTF major.minor" signature
            11-25 20:02:30.733 26156 26156 E PLUGIN/CTF/META/DECODER ctf_metadata_decoder_append_content@decoder.c:257 [N/A] Invalid metadata version found in plain text signature: version=2671082563.32596
            11-25 20:02:30.733 26156 26156 E CLI main@babeltrace2.c:2662 Command-line error: retcode=1

            ERROR:    [Babeltrace CLI] (babeltrace2.c:2662)
              Command-line error: retcode=1
            """
        #expect(reason(logged) == "[N/A] Invalid metadata version found in plain text signature: version=2671082563.32596")
        #expect(reason("ERROR:    [Babeltrace CLI]\n  Trace is empty.\n\n") == "Trace is empty.")
        #expect(reason("") == nil)
        let long = reason("11-25 20:02:30.733 1 1 E CLI main@babeltrace2.c:1 " + String(repeating: "x", count: 400))
        #expect(long == String(repeating: "x", count: 299) + "…")
    }

    // MARK: Only what Faultline made is deleted

    /// A directory with a `ust` entry and a file of the user's is refused,
    /// whole, whether or not it carries Faultline's mark.
    @Test(arguments: [false, true])
    func anOutputDirectoryWithTheUsersFilesIsRefusedNotDeleted(marked: Bool) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tools = try Self.fakeTools(in: directory)
        let trace = directory.appendingPathComponent("trace")
        try FileManager.default.createDirectory(at: trace.appendingPathComponent("ust"), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: trace.appendingPathComponent("ust/kept"))
        try Data("my notes".utf8).write(to: trace.appendingPathComponent("notes.txt"))
        if marked { try Data().write(to: trace.appendingPathComponent(LTTngTraceDirectory.markerName)) }
        let result = try PerfRunProcess.run(
            ["run", "FetchAll", "--scale", "0.02", "--lttng", "--lttng-output", trace.path, "--json", directory.appendingPathComponent("r.json").path],
            in: directory, environment: ["PATH": tools, "TMPDIR": directory.path])
        #expect(result.status == 2)
        let reason = marked ? "holds notes.txt besides the trace Faultline made" : "not a trace Faultline made (no .faultline-trace in it)"
        #expect(result.stderr == "--lttng-output \(trace.path): \(reason); not replaced\n")
        #expect(try String(contentsOf: trace.appendingPathComponent("notes.txt"), encoding: .utf8) == "my notes")
        #expect(try String(contentsOf: trace.appendingPathComponent("ust/kept"), encoding: .utf8) == "mine")
    }

    /// An earlier trace Faultline made is replaced entry by entry: its
    /// trace's entries go, the directory stays and is marked again. A file
    /// in place of the directory is refused.
    @Test func anEarlierTraceLosesOnlyItsTraceEntries() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("trace")
        for folder in ["ust/uid/0/64-bit/index", "kernel/index"] {
            try FileManager.default.createDirectory(at: trace.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for file in ["ust/uid/0/64-bit/metadata", "kernel/metadata", "metadata", LTTngTraceDirectory.markerName] {
            try Data("x".utf8).write(to: trace.appendingPathComponent(file))
        }
        let earlier = try LTTngTraceDirectory.check(trace.path)
        #expect(earlier == .trace([LTTngTraceDirectory.markerName, "kernel", "metadata", "ust"]))
        try LTTngTraceDirectory.prepare(trace.path, replacing: earlier, session: "faultline-test")
        #expect(try FileManager.default.contentsOfDirectory(atPath: trace.path) == [LTTngTraceDirectory.markerName])
        #expect(try LTTngTraceDirectory.check(trace.path) == .trace([LTTngTraceDirectory.markerName]))
        #expect(try LTTngTraceDirectory.check(directory.appendingPathComponent("none").path) == .nothing)
        let file = directory.appendingPathComponent("file")
        try Data("report".utf8).write(to: file)
        #expect(throws: LTTngRecording.Unavailable.self) { try LTTngTraceDirectory.check(file.path) }
        #expect(try String(contentsOf: file, encoding: .utf8) == "report")
    }

    // MARK: Every check before anything is removed

    /// Without the tracepoint provider, the run is refused and the earlier
    /// trace Faultline made is still there.
    @Test func aRunRefusedForTheProviderKeepsTheEarlierTrace() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tools = try Self.fakeTools(in: directory)
        let trace = directory.appendingPathComponent("trace")
        try FileManager.default.createDirectory(at: trace.appendingPathComponent("ust/uid/0/64-bit"), withIntermediateDirectories: true)
        try Data("metadata".utf8).write(to: trace.appendingPathComponent("ust/uid/0/64-bit/metadata"))
        try Data("made by perf-run".utf8).write(to: trace.appendingPathComponent(LTTngTraceDirectory.markerName))
        let provider = "/nonexistent/libFaultlineTracepointProvider.so"
        let result = try PerfRunProcess.run(
            ["run", "FetchAll", "--scale", "0.02", "--lttng", "--lttng-output", trace.path, "--json", directory.appendingPathComponent("r.json").path],
            in: directory, environment: ["PATH": tools, "TMPDIR": directory.path, "FAULTLINE_TRACEPOINT_PROVIDER": provider])
        #expect(result.status == 2)
        #expect(result.stderr == "--lttng: the tracepoint provider \(provider) does not exist\n")
        #expect(try String(contentsOf: trace.appendingPathComponent("ust/uid/0/64-bit/metadata"), encoding: .utf8) == "metadata")
        #expect(try String(contentsOf: trace.appendingPathComponent(LTTngTraceDirectory.markerName), encoding: .utf8) == "made by perf-run")
    }

    // MARK: Signals

    /// Ctrl-C as soon as the session exists, on a session daemon the test
    /// started: the session is destroyed, the daemon (not perf-run's) still
    /// runs, the exit code is 130.
    @Test func ctrlCEarlyDestroysTheSession() throws {
        let home = try PrivateLTTng()
        defer { home.remove() }
        let daemon = try home.startDaemon()
        defer { Self.stop(daemon) }
        let run = try home.perfRun()
        defer { run.kill() }
        #expect(home.waitForSession(of: run), "the session of perf-run (process \(run.pid)) never showed: \(run.stderr)")
        kill(run.pid, SIGINT)
        #expect(run.wait(upTo: 60), "perf-run did not end within 60 s of SIGINT")
        #expect(run.status == 130, "\(run.stderr)")
        let sessions = try home.lttng(["list"])
        #expect(sessions.status == 0 && !sessions.output.contains("faultline-\(run.pid)-"), "left behind: \(sessions.output)")
        #expect(LTTngRecording.isRunning(daemon, named: "lttng-sessiond"), "perf-run stopped a session daemon it did not start")
    }

    /// Ctrl-C as soon as the session exists, on the session daemon perf-run
    /// started: that daemon is stopped, the exit code is 130.
    @Test func ctrlCEarlyStopsTheDaemonItStarted() throws {
        let home = try PrivateLTTng()
        defer { home.remove() }
        let run = try home.perfRun()
        defer { run.kill() }
        #expect(home.waitForSession(of: run), "the session of perf-run (process \(run.pid)) never showed: \(run.stderr)")
        let daemon = try #require(LTTngRecording.daemonNamed(by: home.pidFile), "no lttng-sessiond named by \(home.pidFile)")
        defer { Self.stop(daemon) }
        kill(run.pid, SIGINT)
        #expect(run.wait(upTo: 60), "perf-run did not end within 60 s of SIGINT")
        #expect(run.status == 130, "\(run.stderr)")
        let deadline = Date().addingTimeInterval(15)
        while LTTngRecording.isRunning(daemon), Date() < deadline { usleep(50_000) }
        #expect(!LTTngRecording.isRunning(daemon), "the lttng-sessiond perf-run started (process \(daemon)) still runs")
    }

    // MARK: Helpers

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-lttng-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Fake `lttng` (every command fails: no daemon answers),
    /// `lttng-sessiond` (runs `sessiond`) and `babeltrace2` in
    /// `directory/bin`; returns a PATH with them first.
    static func fakeTools(in directory: URL, sessiond: String = "exit 1") throws -> String {
        let bin = directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for (name, body) in [("lttng", "exit 1"), ("lttng-sessiond", sessiond), ("babeltrace2", "exit 0")] {
            let path = bin.appendingPathComponent(name).path
            try Data("#!/bin/sh\n\(body)\n".utf8).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o755)
        }
        return bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }

    static func pid(in file: String) -> Int32? {
        (try? String(contentsOfFile: file, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Kills the fake daemon whose PID file is `file`, if it still runs (as
    /// `sleep`, which it became, unless named otherwise).
    static func killFake(_ file: String, named name: String = "sleep") {
        guard let pid = pid(in: file), LTTngRecording.isRunning(pid, named: name) else { return }
        kill(pid, SIGKILL)
    }

    /// Stops a session daemon by its process ID, if it runs.
    static func stop(_ daemon: Int32) {
        LTTngRecording.stopDaemon(daemon)
    }
}

/// A program started in the background, its standard error kept (with its
/// standard output, `keepingOutput`); waited for with a limit, killed by
/// its process ID.
final class Child: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var text = ""

    init(_ executable: String, _ arguments: [String], environment: [String: String], in directory: URL, keepingOutput: Bool = false) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        let err = Pipe()
        process.standardOutput = keepingOutput ? err : FileHandle.nullDevice
        process.standardError = err
        try process.run()
        let handle = err.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let data = handle.availableData
                lock.lock()
                text += String(decoding: data, as: UTF8.self)
                if data.isEmpty { outputEnded = true }
                lock.unlock()
                if data.isEmpty { return }
            }
        }
    }

    private var outputEnded = false

    /// Waits (at most 5 s) until the output's end was read.
    private func waitForEndOfOutput() {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            lock.lock()
            let ended = outputEnded
            lock.unlock()
            if ended { return }
            usleep(5_000)
        }
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }
    var status: Int32 { process.terminationStatus }

    /// Its standard error so far (all of it once the pipe's end was read).
    var stderr: String {
        if !process.isRunning { waitForEndOfOutput() }
        lock.lock()
        defer { lock.unlock() }
        return text
    }

    /// Waits at most `seconds` for the end; false when it still ran then,
    /// and was killed (its status is then SIGKILL's).
    func wait(upTo seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        guard process.isRunning else { return true }
        kill()
        process.waitUntilExit()
        return false
    }

    /// Kills it if it still runs.
    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }
}

/// A private LTTng home for the tests' session daemons, and perf-run and
/// lttng run on it. As root (whose session daemon is the machine's, in
/// /var/run/lttng, whatever LTTNG_HOME says) they run as `nobody`.
struct PrivateLTTng {
    let home: URL
    static let nobody: UInt32 = 65_534
    var asNobody: Bool { getuid() == 0 }

    init() throws {
        home = try LTTngReliabilityTests.temporaryDirectory()
        if getuid() == 0 { chown(home.path, Self.nobody, Self.nobody) }
    }

    var environment: [String: String] {
        [
            "LTTNG_HOME": home.path, "HOME": home.path, "TMPDIR": home.path,
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]
    }

    var pidFile: String { home.appendingPathComponent(".lttng/lttng-sessiond.pid").path }

    /// `program` with `arguments`, as `nobody` when root (setpriv executes
    /// the program in its own process: the PID is the program's).
    func command(_ program: String, _ arguments: [String]) -> (String, [String]) {
        guard asNobody else { return (program, arguments) }
        return ("/usr/bin/setpriv", ["--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups", "--", program] + arguments)
    }

    /// Runs a tool on this home, within 30 s, as perf-run runs it: with the
    /// default signal dispositions and mask (Foundation's Process passes on
    /// the test thread's blocked signals, and `lttng-sessiond --daemonize`
    /// would wait for ever for its child's SIGUSR1).
    func tool(_ name: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let path = try #require(["/usr/bin/\(name)", "/usr/local/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) })
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let (program, full) = command("/usr/bin/env", assignments + [path] + arguments)
        return try BoundedCommand.run(program, full, limit: .total(30))
    }

    /// Runs `lttng` (never launching a daemon) on this home, within 30 s.
    func lttng(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try tool("lttng", ["--no-sessiond"] + arguments)
    }

    /// Starts a session daemon of the test's own; returns its PID.
    func startDaemon() throws -> Int32 {
        let started = try tool("lttng-sessiond", ["--daemonize"])
        #expect(started.status == 0, "lttng-sessiond --daemonize: \(started.output)")
        return try #require(LTTngRecording.daemonNamed(by: pidFile), "no lttng-sessiond named by \(pidFile)")
    }

    /// perf-run run --lttng on this home, in the background: long enough
    /// (many iterations) that its session is seen before it ends.
    func perfRun() throws -> Child {
        let (program, arguments) = command(PerfRunProcess.executable, [
            "run", "FetchAll", "--scale", "0.02", "--iterations", "2000", "--lttng", "--lttng-output", home.appendingPathComponent("trace").path,
            "--json", home.appendingPathComponent("r.json").path, "--quiet",
        ])
        return try Child(program, arguments, environment: environment, in: home)
    }

    /// Waits (at most 60 s, while it runs) until `run`'s session shows in `lttng list`.
    func waitForSession(of run: Child) -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while run.isRunning, Date() < deadline {
            if let list = try? lttng(["list"]), list.output.contains("faultline-\(run.pid)-") { return true }
            usleep(5_000)
        }
        return false
    }

    func remove() {
        try? FileManager.default.removeItem(at: home)
    }
}
