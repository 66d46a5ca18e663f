import Foundation
import Reporting
import TestSupport
import Testing

/// docs/ci/compare-base-head.sh, the steps of docs/ci/performance.yml, run
/// in a scratch git repository with a base and a head commit: each report
/// is labelled with its own commit, the job summary holds the comparison's
/// Markdown, and the history holds both runs. The build step is the
/// script's own, overridden (PERF_BUILD) to supply the perf-run the suite
/// already built: building Faultline twice is not a test's work.
@Suite struct CIRecipeTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/ci/compare-base-head.sh").path

    static func git(_ arguments: [String], in directory: URL) throws -> String {
        let result = try CommandResult.run(
            "/usr/bin/env", ["git"] + arguments, in: directory,
            environment: [
                "GIT_AUTHOR_NAME": "CI", "GIT_AUTHOR_EMAIL": "ci@example.invalid", "GIT_COMMITTER_NAME": "CI",
                "GIT_COMMITTER_EMAIL": "ci@example.invalid", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
            ])
        guard result.status == 0 else { throw CIRecipeError(description: "git \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct CIRecipeError: Error, CustomStringConvertible { let description: String }

    @Test func theScriptLabelsEachSideWithItsCommitSummarisesAndKeepsBoth() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-ci-\(UUID().uuidString)")
        let repository = scratch.appendingPathComponent("app")
        try FileManager.default.createDirectory(at: repository, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        // A base commit on main, and a head commit on a branch of a pull request.
        _ = try Self.git(["init", "--quiet", "--initial-branch=main"], in: repository)
        try "base\n".write(to: repository.appendingPathComponent("README"), atomically: true, encoding: .utf8)
        _ = try Self.git(["add", "README"], in: repository)
        _ = try Self.git(["commit", "--quiet", "-m", "base"], in: repository)
        let base = try Self.git(["rev-parse", "HEAD"], in: repository)
        _ = try Self.git(["checkout", "--quiet", "-b", "feature/faster-list"], in: repository)
        try "head\n".write(to: repository.appendingPathComponent("README"), atomically: true, encoding: .utf8)
        _ = try Self.git(["commit", "--quiet", "-am", "head"], in: repository)
        let head = try Self.git(["rev-parse", "HEAD"], in: repository)
        #expect(base != head)

        let reports = scratch.appendingPathComponent("reports")
        let summary = scratch.appendingPathComponent("summary.md")
        try "# Job summary\n".write(to: summary, atomically: true, encoding: .utf8)
        let history = scratch.appendingPathComponent("history.sqlite").path
        // Every CI variable the script or perf-run reads, set as a GitHub job would, or cleared.
        var environment = Dictionary(uniqueKeysWithValues: HistoryLabels.environmentVariables.flatMap(\.variables).map { ($0, "") })
        environment.merge([
            "PERF_BASE": "main", "PERF_BUILD": "touch built-here", "PERF_TOOL": PerfRunProcess.executable,
            "PERF_RUN_ARGS": "FetchAll --scale 0.02 --iterations 2 --warmup 0", "PERF_OUT": reports.path, "PERF_HISTORY": history,
            "GITHUB_STEP_SUMMARY": summary.path, "GITHUB_REPOSITORY": "acme/app", "RUNNER_NAME": "ci-runner-1",
            "GITHUB_BASE_REF": "", "GITHUB_HEAD_REF": "", "PERF_BASE_BRANCH": "", "PERF_HEAD_BRANCH": "",
            "FAULTLINE_GIT_COMMIT": "",
        ]) { $1 }
        let result = try CommandResult.run("/bin/bash", [Self.script], in: repository, environment: environment)
        let basePath = reports.appendingPathComponent("base.json").path
        let headPath = reports.appendingPathComponent("head.json").path

        // The same comparison, made here: the script's exit status and summary are its.
        let comparison = try PerfRunProcess.run(["compare", basePath, headPath, "--format", "markdown"])
        #expect(result.status == comparison.status, "\(result.stderr)")
        #expect(comparison.status == 0, "\(comparison.stderr)")
        #expect(try String(contentsOf: summary, encoding: .utf8) == "# Job summary\n" + comparison.stdout)
        #expect(comparison.stdout.contains("FetchAll"))

        // Each side built in its own checkout, labelled with its own commit.
        #expect(FileManager.default.fileExists(atPath: repository.appendingPathComponent("built-here").path))
        #expect(try ReportFile.read(basePath).environment.gitCommit == base)
        #expect(try ReportFile.read(headPath).environment.gitCommit == head)
        // The base's worktree is gone again.
        #expect(try Self.git(["worktree", "list", "--porcelain"], in: repository).components(separatedBy: "worktree ").count == 2)

        // Both runs kept, with their commits and branches.
        let list = try PerfRunProcess.run(["history", "list", "--history", history, "--format", "json"])
        let entries = try JSONDecoder().decode([HistoryListing.Entry].self, from: Data(list.stdout.utf8))
        #expect(Set(entries.map { "\($0.commit) \($0.branch) \($0.project) \($0.runner)" }) == [
            "\(base) main acme/app ci-runner-1", "\(head) feature/faster-list acme/app ci-runner-1",
        ])
        #expect(Set(entries.map(\.identity.rawValue)) == [try ReportFile.read(basePath).run!.identifier, try ReportFile.read(headPath).run!.identifier])
    }

    @Test func aBaseThatIsNotThereIsExitTwoWithTheReason() throws {
        let repository = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-ci-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: repository, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: repository) }
        _ = try Self.git(["init", "--quiet", "--initial-branch=main"], in: repository)
        _ = try Self.git(["commit", "--quiet", "--allow-empty", "-m", "only"], in: repository)
        let result = try CommandResult.run(
            "/bin/bash", [Self.script], in: repository,
            environment: ["PERF_BASE": "origin/main", "PERF_BUILD": "true", "PERF_TOOL": PerfRunProcess.executable, "PERF_OUT": repository.path + "/out"])
        #expect(result.status == 2)
        #expect(result.stderr.hasSuffix("compare-base-head: PERF_BASE origin/main: no such commit here (fetch-depth: 0?)\n"))
    }
}
