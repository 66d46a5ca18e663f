import Foundation
import Probes
import Reporting

/// An LTTng session for `perf-run run --lttng`: starts a session daemon if
/// none runs, records `faultline:*` on a blocking channel (with each event's
/// process ID), and afterwards stops, checks that nothing was discarded,
/// reads the trace back with babeltrace2, and stops what it started. The
/// trace directory stays for babeltrace2 or Trace Compass users.
public final class LTTngRecording {
    public let session: String
    public let directory: String
    private var startedDaemon: Int32?
    private var stopped = false

    /// Why LTTng cannot be used, in one line.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts recording. Must come before the provider library is loaded
    /// (it sets `LTTNG_UST_ALLOW_BLOCKING=1` for this process).
    public init(directory: String) throws {
        for tool in ["lttng", "lttng-sessiond", "babeltrace2"] where Self.find(tool) == nil {
            throw Unavailable(description: "--lttng needs \(tool), which is not installed (Debian: lttng-tools, babeltrace2)")
        }
        session = "faultline-\(getpid())-\(UUID().uuidString.prefix(6))"
        self.directory = directory
        startedDaemon = try Self.startDaemonIfNeeded()
        do {
            try Self.require("lttng", ["create", session, "--output=\(directory)"])
            try Self.require("lttng", [
                "enable-channel", "--session=\(session)", "--userspace", "--blocking-timeout=inf", "--subbuf-size=4M", "--num-subbuf=8",
                "blocking",
            ])
            try Self.require("lttng", ["enable-event", "--session=\(session)", "--userspace", "--channel=blocking", "faultline:*"])
            try Self.require("lttng", ["add-context", "--session=\(session)", "--userspace", "--channel=blocking", "--type=vpid"])
            try Self.require("lttng", ["start", session])
        } catch {
            tearDown()
            throw error
        }
        setenv("LTTNG_UST_ALLOW_BLOCKING", "1", 1)
    }

    deinit { tearDown() }

    /// Stops recording and returns the counters per scenario of this
    /// process's events; throws when events were discarded.
    public func finish() throws -> [String: Counters] {
        let stop = try Self.run("lttng", ["stop", session])
        stopped = true
        _ = try? Self.run("lttng", ["destroy", session])
        tearDownDaemon()
        if stop.output.contains("discarded") {
            throw Unavailable(description: "LTTng discarded events: \(stop.output.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        // Streamed: a trace of a full run holds millions of events.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["babeltrace2", directory]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        var counters = TraceCounters(processID: getpid())
        var pending = Data()
        let handle = pipe.fileHandleForReading
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            guard let last = pending.lastIndex(of: 0x0A) else { continue }
            let text = String(decoding: pending[pending.startIndex..<last], as: UTF8.self)
            for line in text.split(separator: "\n") { counters.consume(line) }
            pending = Data(pending[(last + 1)...])
        }
        if !pending.isEmpty { counters.consume(Substring(String(decoding: pending, as: UTF8.self))) }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Unavailable(description: "babeltrace2 could not read \(directory)") }
        return counters.result
    }

    /// Stops and destroys the session and a daemon this started (Ctrl-C too).
    public func tearDown() {
        if !stopped {
            _ = try? Self.run("lttng", ["stop", session])
            _ = try? Self.run("lttng", ["destroy", session])
            stopped = true
        }
        tearDownDaemon()
    }

    private func tearDownDaemon() {
        Self.stopDaemon(startedDaemon)
        startedDaemon = nil
    }

    /// Starts `lttng-sessiond` when none runs and waits until it answers;
    /// returns the process it started, nil when one was running already.
    public static func startDaemonIfNeeded() throws -> Int32? {
        guard try run("pgrep", ["-x", "lttng-sessiond"]).status != 0 else { return nil }
        guard try run("lttng-sessiond", ["--daemonize"], quietly: true).status == 0 else {
            throw Unavailable(description: "could not start lttng-sessiond")
        }
        var ready = false
        for _ in 0..<250 where !ready {
            ready = try run("lttng", ["list"]).status == 0
            if !ready { usleep(20_000) }
        }
        guard ready, let pid = Int32(try run("pgrep", ["-n", "-x", "lttng-sessiond"]).output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Unavailable(description: "lttng-sessiond did not answer within 5 seconds")
        }
        return pid
    }

    /// Stops a session daemon that ``startDaemonIfNeeded()`` started, and
    /// waits for it to go.
    public static func stopDaemon(_ pid: Int32?) {
        guard let pid else { return }
        kill(pid, SIGTERM)
        for _ in 0..<100 where kill(pid, 0) == 0 { usleep(20_000) }
    }

    // MARK: Commands

    private static func find(_ tool: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    @discardableResult
    private static func require(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try run(tool, arguments)
        guard result.status == 0 else {
            throw Unavailable(description: "\(tool) \(arguments.first ?? "") failed: \(result.output.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        return result
    }

    private static func run(_ tool: String, _ arguments: [String], quietly: Bool = false) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // `lttng` never launches a session daemon of its own: if the daemon
        // seen running goes away, a command fails at once rather than wait
        // for a daemon whose start-up signal this process may block.
        process.arguments = [tool] + (tool == "lttng" ? ["--no-sessiond"] : []) + arguments
        let pipe = Pipe()
        // A daemon keeps its streams: give it none to hold open.
        process.standardOutput = quietly ? FileHandle.nullDevice : pipe
        process.standardError = quietly ? FileHandle.nullDevice : pipe
        process.standardInput = FileHandle.nullDevice
        // The daemon's parent waits for a signal the caller may block.
        var none = sigset_t()
        var saved = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        try process.run()
        let data = quietly ? Data() : pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
