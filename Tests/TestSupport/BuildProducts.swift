import Foundation

/// The products `swift build` put beside the running test binary: perf-run,
/// faultline-bench.
public enum BuildProducts {
    /// The build directory (`.build/debug`).
    public static var directory: URL {
        let tests = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: tests).deletingLastPathComponent()
    }

    /// The path of the product named `name`.
    public static func path(of name: String) -> String { directory.appendingPathComponent(name).path }
}

/// A command run to its end, what it printed and how it ended.
public struct CommandResult: Sendable {
    public let status: Int32
    /// Ended by a signal (a trap is SIGILL or SIGTRAP), not an exit.
    public let signaled: Bool
    public let stdout: String
    public let stderr: String

    /// Runs `executable` with `arguments` in `directory` (by default the
    /// system temporary directory, never the checkout: a default output path
    /// must not replace a user's report), with `environment` added and an
    /// empty standard input. With `standardError`, its standard error is
    /// that file (`/dev/full`), and `stderr` is empty.
    public static func run(
        _ executable: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
        standardError: String? = nil
    ) throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? FileManager.default.temporaryDirectory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        // Never the terminal's: a command that reads standard input ends.
        process.standardInput = FileHandle.nullDevice
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        if let standardError {
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: standardError))
        } else {
            process.standardError = err
        }
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = standardError == nil ? err.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
            stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// perf-run, as the command-line tests run it.
public enum PerfRunProcess {
    public static var executable: String { BuildProducts.path(of: "perf-run") }

    public static func run(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], standardError: String? = nil
    ) throws -> CommandResult {
        try CommandResult.run(executable, arguments, in: directory, environment: environment, standardError: standardError)
    }
}
