import Foundation
import ObjectGraph
import Probes
import Reporting

/// Where a run happens, for the report.
enum RunEnvironment {
    /// - Parameter commit: the commit to label the report with (`run
    ///   --commit`); nil takes `FAULTLINE_GIT_COMMIT`, else the current
    ///   directory's `git rev-parse HEAD`.
    static func current(commit: String? = nil) -> Report.Environment {
        Report.Environment(
            operatingSystem: osName(), cpuModel: cpuModel(), cores: ProcessInfo.processInfo.activeProcessorCount,
            swiftVersion: swiftVersion, sqliteVersion: Connection.sqliteVersion, buildConfiguration: buildConfiguration,
            gitCommit: commit ?? gitCommit(), hostName: ProcessInfo.processInfo.hostName,
            clock: ProbeClock.source.description)
    }

    static var buildConfiguration: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    static var swiftVersion: String {
        #if compiler(>=6.4)
        "6.4 or later"
        #elseif compiler(>=6.3)
        "6.3"
        #elseif compiler(>=6.2)
        "6.2"
        #else
        "before 6.2"
        #endif
    }

    private static func osName() -> String {
        guard let text = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8) else { return "Linux" }
        for line in text.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
            return line.dropFirst(12).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return "Linux"
    }

    private static func cpuModel() -> String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            return line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
        }
        return "unknown"
    }

    /// `FAULTLINE_GIT_COMMIT`, else `git rev-parse HEAD` in the current directory.
    private static func gitCommit() -> String? {
        if let commit = ProcessInfo.processInfo.environment["FAULTLINE_GIT_COMMIT"], !commit.isEmpty { return commit }
        // Bounded, as every wait on another program: a report is not worth a hang.
        guard let (status, output) = try? BoundedCommand.run("/usr/bin/env", ["git", "rev-parse", "HEAD"], limit: .total(5)),
            status == 0
        else { return nil }
        let commit = output.trimmingCharacters(in: .whitespacesAndNewlines)
        return commit.count == 40 && commit.allSatisfy(\.isHexDigit) ? commit : nil
    }
}
