import Foundation
import Testing

/// Runs commands for the LTTng tests, and a session daemon when none runs
/// (stopping only the one it started).
enum LTTngHarness {
    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
        /// The process's ID, while it ran.
        var pid: Int32?
    }

    /// Runs a program (looked up in PATH) and waits for it.
    @discardableResult
    static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes to the end before waiting, so neither fills up.
        nonisolated(unsafe) var errorData = Data()
        let reader = Thread { errorData = err.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let outputData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !reader.isFinished { usleep(1_000) }
        return Output(
            status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData, as: UTF8.self), pid: process.processIdentifier)
    }

    /// Runs a command that must succeed; records its output when it fails.
    @discardableResult
    static func require(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Output {
        let output = try run(program, arguments, environment: environment)
        if output.status != 0 {
            Issue.record("\(program) \(arguments.joined(separator: " ")) exited \(output.status): \(output.stderr)\(output.stdout)")
            throw CommandFailed(command: program)
        }
        return output
    }

    struct CommandFailed: Error {
        let command: String
    }

    /// The directory of the test executable, where the build puts
    /// faultline-bench and the tracepoint provider.
    static var buildDirectory: URL {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent()
    }

    /// Starts `lttng-sessiond` when none runs; returns the PID it started.
    static func startSessionDaemonIfNeeded() throws -> Int32? {
        guard try run("pgrep", ["-x", "lttng-sessiond"]).status != 0 else { return nil }
        // The daemon's parent waits for SIGUSR1 from the daemon, and the
        // test runner's threads block most signals, which a child inherits:
        // spawn it with nothing blocked. It gets no streams to hold open.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["lttng-sessiond", "--daemonize"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        var none = sigset_t()
        var saved = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            Issue.record("lttng-sessiond --daemonize exited \(process.terminationStatus)")
            throw CommandFailed(command: "lttng-sessiond")
        }
        var ready = false
        for _ in 0..<250 {
            if try run("lttng", ["list"]).status == 0 {
                ready = true
                break
            }
            usleep(20_000)
        }
        guard ready else {
            Issue.record("lttng-sessiond did not answer within 5 seconds")
            throw CommandFailed(command: "lttng-sessiond")
        }
        let pid = try require("pgrep", ["-n", "-x", "lttng-sessiond"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return Int32(pid)
    }

    static func stopSessionDaemon(_ pid: Int32?) {
        guard let pid else { return }
        kill(pid, SIGTERM)
        for _ in 0..<100 where kill(pid, 0) == 0 { usleep(20_000) }
    }
}
