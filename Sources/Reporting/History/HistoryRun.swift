import Foundation

/// One run as the history keeps it: the whole report, and where it came
/// from (project, branch, runner, commit, time).
///
/// A run is known by its ``identity``: adding it again, from another job
/// or after a retry, changes nothing.
public struct HistoryRun: Codable, Equatable, Sendable {
    /// What tells this run from every other (``RunIdentity``).
    public var identity: RunIdentity
    /// The project (a repository's `owner/name`, or what the team calls it).
    public var project: String
    public var branch: String
    /// The machine or kind of machine that ran it: timings compare only
    /// within one runner.
    public var runner: String
    /// The commit the report measured.
    public var commit: String
    /// When the run was made.
    public var time: Date
    public var report: Report

    public init(identity: RunIdentity, project: String, branch: String, runner: String, commit: String, time: Date, report: Report) {
        self.identity = identity
        self.project = project
        self.branch = branch
        self.runner = runner
        self.commit = commit
        self.time = time
        self.report = report
    }
}

/// What a history store is asked for: every field nil or empty matches all.
public struct HistoryQuery: Equatable, Sendable {
    public var project: String?
    public var branch: String?
    public var runner: String?
    /// Runs made at or after this time.
    public var since: Date?

    public init(project: String? = nil, branch: String? = nil, runner: String? = nil, since: Date? = nil) {
        self.project = project
        self.branch = branch
        self.runner = runner
        self.since = since
    }

    public func matches(_ run: HistoryRun) -> Bool {
        (project.map { $0 == run.project } ?? true) && (branch.map { $0 == run.branch } ?? true)
            && (runner.map { $0 == run.runner } ?? true) && (since.map { run.time >= $0 } ?? true)
    }
}
