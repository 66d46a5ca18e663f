import ArgumentParser
import Foundation
import Reporting
import ToolSupport

extension PerfRun {
    /// `perf-run history`: reports kept in a history store, and listed.
    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
            abstract: "Keeps reports in a history store (a SQLite file, or PostgreSQL for a fleet of runners) and lists them.",
            discussion: """
                Each run is kept whole, by its run identity (adding a report again changes nothing), with its project, branch, \
                runner, commit and time. docs/ci.md says how to set a store up.
                """,
            subcommands: [Add.self, ListRuns.self])
    }
}

extension PerfRun.History {
    /// `perf-run history add REPORT... --history URL`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Adds reports to the history; a report kept already is left as it is.",
            discussion: "Prints how many runs were new. Exit code 0, or 2 for a report that cannot be read or a store that cannot be written.")

        @Argument(help: "The reports (perf-run run --json).")
        var reports: [String]

        @OptionGroup var store: HistoryStoreOption

        @OptionGroup var labels: HistoryLabelOptions

        @Option(help: "The commit the reports measured (default: each report's own, environment.gitCommit).")
        var commit: String?

        func validate() throws {
            if reports.isEmpty { throw ValidationError("history add: name at least one report") }
            _ = try store.location()
            try labels.check()
            if let commit { try HistoryLabelOptions.check(commit, option: "--commit") }
        }

        func run() throws {
            let location = try store.location()
            var labels = labels.resolved()
            labels.commit = commit
            let now = Date()
            var runs: [HistoryRun] = []
            for path in reports {
                let bytes = try InputFile.read(path)
                let report = try ReportFile.decode(bytes, name: path)
                runs.append(try labels.run(of: report, bytes: bytes, reportName: path, now: now))
            }
            let added = try location.open().add(runs)
            let kept = runs.count - added
            try Console().say(
                "\(added) new run\(added == 1 ? "" : "s") added to \(location)\(kept > 0 ? " (\(kept) kept already)" : "")")
        }
    }

    /// `perf-run history list --history URL`.
    struct ListRuns: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "Lists the runs the history keeps, oldest first.",
            discussion: "Exit code 0, or 2 for bad input or a store that cannot be read (or does not exist).")

        @OptionGroup var store: HistoryStoreOption

        @Option(help: "Only the runs of this project.")
        var project: String?

        @Option(help: "Only the runs of this branch.")
        var branch: String?

        @Option(help: "Only the runs of this runner.")
        var runner: String?

        @Option(help: ArgumentHelp("Only the runs made at or after this time (2025-06-01, or 2025-06-01T12:00:00Z; default: every run).", valueName: "time"))
        var since: String?

        @OptionGroup var outputOptions: OutputOptions

        func validate() throws {
            _ = try store.location()
            _ = try query()
        }

        func query() throws -> HistoryQuery {
            var query = HistoryQuery(project: project, branch: branch, runner: runner)
            if let since {
                guard let time = HistoryTime.date(since) ?? HistoryTime.date(since + "T00:00:00Z") else {
                    throw ValidationError("--since: not a date or time (2025-06-01, or 2025-06-01T12:00:00Z): \(since)")
                }
                query.since = time
            }
            return query
        }

        func run() throws {
            let plan = try OutputPlan(inputs: [], outputs: try outputOptions.outputs("history list", formats: [.text, .json], default: .text))
            let runs = try store.location().open(.existing).runs(try query())
            try plan.writeAll(HistoryListing(runs))
        }
    }
}

/// `--history`, for `history add`, `history list` and `run`.
struct HistoryStoreOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The history store: a SQLite file (made on first use) or a postgresql:// URL.",
            discussion: "A password may be in the URL, or in PGPASSWORD or ~/.pgpass; messages never show it.", valueName: "url"))
    var history: String

    /// The location `--history` names; bad input is a usage error naming the option.
    func location() throws -> HistoryLocation { try Self.location(history) }

    static func location(_ argument: String) throws -> HistoryLocation {
        do {
            return try HistoryLocation(argument)
        } catch {
            throw ValidationError(error.description)
        }
    }
}

/// `--project`, `--branch`, `--runner`: what a run is kept under, for
/// `history add` and `run --history`.
struct HistoryLabelOptions: ParsableArguments {
    @Option(help: "The project (default: FAULTLINE_PROJECT, GITHUB_REPOSITORY, CI_PROJECT_PATH, else the current directory's name).")
    var project: String?

    @Option(help: "The branch (default: FAULTLINE_BRANCH, GITHUB_HEAD_REF, GITHUB_REF_NAME, CI_COMMIT_REF_NAME).")
    var branch: String?

    @Option(help: "The runner (default: FAULTLINE_RUNNER, RUNNER_NAME, CI_RUNNER_DESCRIPTION, else the report's host name).")
    var runner: String?

    /// Whether any option of the group was given.
    var isGiven: Bool { project != nil || branch != nil || runner != nil }

    /// The given labels are usable (non-empty, one line).
    func check() throws {
        for (option, value) in [("--project", project), ("--branch", branch), ("--runner", runner)] {
            if let value { try Self.check(value, option: option) }
        }
    }

    static func check(_ value: String, option: String) throws {
        if value.isEmpty { throw ValidationError("\(option): an empty value") }
        if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw ValidationError("\(option): a control character in \(value.debugDescription)")
        }
    }

    /// The labels given, with the environment's and the current directory's for the others.
    func resolved() -> HistoryLabels {
        HistoryLabels(project: project, branch: branch, runner: runner)
            .resolved(environment: ProcessInfo.processInfo.environment, currentDirectory: FileManager.default.currentDirectoryPath)
    }
}
