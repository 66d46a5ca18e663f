import Foundation

/// What a report is kept under in the history besides its identity:
/// project, branch, runner, commit and time. Each is the one given
/// (`--project`, `--branch`, `--runner`, `--commit`), else what CI says
/// (``environmentVariables``, in order), else the report's own (its
/// commit, its host name as the runner, its run stamp's time), else a
/// default (the current directory's name as the project, now as the time).
/// A report with no commit and no `--commit`, or a run with no branch, is
/// an error that says which option to give.
public struct HistoryLabels: Equatable, Sendable {
    public var project: String?
    public var branch: String?
    public var runner: String?
    public var commit: String?

    public init(project: String? = nil, branch: String? = nil, runner: String? = nil, commit: String? = nil) {
        self.project = project
        self.branch = branch
        self.runner = runner
        self.commit = commit
    }

    /// The environment variables read for a label not given, in order:
    /// Faultline's own, then GitHub Actions', then GitLab CI's (as
    /// `perf-run publish` reads branch and runner).
    public static let environmentVariables: [(label: String, variables: [String])] = [
        ("project", ["FAULTLINE_PROJECT", "GITHUB_REPOSITORY", "CI_PROJECT_PATH"]),
        ("branch", ["FAULTLINE_BRANCH", "GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME"]),
        ("runner", ["FAULTLINE_RUNNER", "RUNNER_NAME", "CI_RUNNER_DESCRIPTION"]),
    ]

    /// These labels with the environment's for those not given.
    public func resolved(environment: [String: String], currentDirectory: String) -> HistoryLabels {
        func fromEnvironment(_ label: String) -> String? {
            let variables = Self.environmentVariables.first { $0.label == label }?.variables ?? []
            return variables.lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        }
        var labels = self
        labels.project = project ?? fromEnvironment("project") ?? {
            let name = URL(fileURLWithPath: currentDirectory).lastPathComponent
            return name.isEmpty || name == "/" ? nil : name
        }()
        labels.branch = branch ?? fromEnvironment("branch")
        labels.runner = runner ?? fromEnvironment("runner")
        return labels
    }

    /// The run of `report` with these labels (resolved first: see
    /// ``resolved(environment:currentDirectory:)``). `bytes` are the
    /// report's as read, for the identity of a report without a run stamp
    /// (``RunIdentity/of(_:bytes:)``); `reportName` names it in errors.
    public func run(of report: Report, bytes: Data?, reportName: String, now: Date) throws(HistoryError) -> HistoryRun {
        guard let project, !project.isEmpty else {
            throw HistoryError("\(reportName): no project for the history: give --project (or set FAULTLINE_PROJECT)")
        }
        guard let branch, !branch.isEmpty else {
            throw HistoryError("\(reportName): no branch for the history: give --branch (or set FAULTLINE_BRANCH)")
        }
        guard let commit = commit ?? report.environment.gitCommit.flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw HistoryError("\(reportName): the report names no commit (environment.gitCommit): give --commit")
        }
        let runner = runner ?? (report.environment.hostName.isEmpty ? nil : report.environment.hostName)
        guard let runner else { throw HistoryError("\(reportName): no runner for the history: give --runner (or set FAULTLINE_RUNNER)") }
        return HistoryRun(
            identity: RunIdentity.of(report, bytes: bytes), project: project, branch: branch, runner: runner, commit: commit,
            time: HistoryTime.truncated(report.run?.time ?? now), report: report)
    }
}
