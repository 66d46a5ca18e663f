import Foundation
import TestSupport
import Scenarios
import BuiltInScenarios
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
        // As perf-run does: `lttng` fails rather than launch a daemon.
        process.arguments = [program] + (program == "lttng" ? ["--no-sessiond"] : []) + arguments
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

    /// Builds, in `directory`, a tracepoint provider that says it defines
    /// the tracepoints of version 2 (and defines none): the program
    /// refuses it and closes it again.
    static func buildProviderOfVersion2(in directory: URL) throws -> URL {
        let source = directory.appendingPathComponent("provider.c")
        let library = directory.appendingPathComponent("libFaultlineTracepointProvider.so")
        try "int faultline_tracepoint_provider_version(void) { return 2; }\n".write(to: source, atomically: true, encoding: .utf8)
        try require("cc", ["-shared", "-fPIC", "-o", library.path, source.path])
        return library
    }

    /// The directory of the test executable, where the build puts
    /// faultline-bench and the tracepoint provider.
    static var buildDirectory: URL { BuildProducts.directory }

    /// Starts `lttng-sessiond` when none runs; returns the PID it started.
    static func startSessionDaemonIfNeeded() throws -> Int32? {
        try LTTngRecording.startDaemonIfNeeded()
    }

    static func stopSessionDaemon(_ pid: Int32?) {
        LTTngRecording.stopDaemon(pid)
    }
}
