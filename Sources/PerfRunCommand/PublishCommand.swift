import ArgumentParser
import Foundation
import PrometheusPublishing
import Reporting
import ToolSupport

extension PerfRun {
    /// `perf-run publish`: a report's latest values to a Pushgateway, for
    /// dashboards; or the clean-up of its groups.
    struct Publish: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pushes a report's counters and wall times to a Prometheus Pushgateway: the latest values per group, for dashboards.",
            discussion: """
                The group is the job, runner, branch and scale (and any --label); each push replaces the group's last one, so \
                Prometheus sees only what it scrapes before the next push: history belongs in the history store (the history \
                command). The commit is a label of faultline_report_info only. --delete removes the report's group; \
                --delete-older-than removes the job's groups last pushed longer ago. Exit code 0 when done, 2 for bad input or a \
                request that failed. --history also keeps the report in the history store, first (as history add; a store \
                that cannot be written is exit 2, nothing pushed). docs/prometheus.md lists the metrics and labels.
                """)

        @Argument(help: "The report (perf-run run --json); none with --delete-older-than.")
        var report: String?

        @Option(help: "The Pushgateway's address (http://host:9091).")
        var pushgateway: String

        @OptionGroup var publishing: PublishOptions

        @Flag(help: "Delete the group the report goes to instead of pushing to it.")
        var delete = false

        @Option(
            name: .customLong("delete-older-than"),
            help: ArgumentHelp(
                "Delete every group of the job (with the --label values given) last pushed longer ago than this Prometheus duration (30d, 12h).",
                valueName: "duration"))
        var deleteOlderThan: String?

        @Option(
            help: ArgumentHelp(
                "Also keep the report in this history store (a SQLite file or a postgresql:// URL), as perf-run history add: the Pushgateway keeps only the latest push per group.",
                valueName: "url"))
        var history: String?

        @OptionGroup var historyLabels: HistoryLabelOptions

        func validate() throws {
            _ = try PublishOptions.address(pushgateway)
            try historyLabels.check()
            if let history {
                guard !delete, deleteOlderThan == nil else { throw ValidationError("--history keeps a report that is pushed: not with --delete or --delete-older-than") }
                _ = try HistoryStoreOption.location(history)
            } else if historyLabels.isGiven {
                throw ValidationError("--project, --branch and --runner label what --history keeps: add --history URL")
            }
            if let deleteOlderThan {
                guard report == nil else { throw ValidationError("--delete-older-than cleans up by age: give no report") }
                guard !delete else { throw ValidationError("--delete and --delete-older-than: give one") }
                do {
                    _ = try PrometheusDuration(deleteOlderThan, option: "--delete-older-than")
                    _ = try MetricLabel.parse(publishing.labels, reserved: MetricLabel.reservedForMatching)
                } catch {
                    throw ValidationError(error.description)
                }
            } else if report == nil {
                throw ValidationError("give the report to publish (or --delete-older-than DURATION to clean up by age)")
            } else {
                try publishing.validateForPushing()
            }
        }

        func run() throws {
            let gateway = try PublishOptions.address(pushgateway)
            let console = Console()
            if let deleteOlderThan {
                try cleanUp(gateway, age: try PrometheusDuration(deleteOlderThan, option: "--delete-older-than"), console: console)
                return
            }
            guard let report else { return }
            let bytes = try InputFile.read(report)
            let loaded = try ReportFile.decode(bytes, name: report)
            if let history {
                // Kept first: the Pushgateway keeps only the latest push, the history every one.
                let location = try HistoryStoreOption.location(history)
                let run = try historyLabels.resolved().run(of: loaded, bytes: bytes, reportName: report, now: Date())
                let added = try location.open().add([run])
                try console.say("history: run \(run.identity) \(added == 1 ? "kept" : "was kept already") in \(location)")
            }
            if delete {
                let group = try publishing.group(of: loaded)
                try group.delete(from: gateway)
                try console.say("deleted \(group.description) from \(gateway)")
                return
            }
            let publication = try publishing.publication(of: loaded, reportName: report)
            try publication.push(to: gateway)
            try console.say(publication.summary(to: gateway))
        }

        /// Deletes the job's groups last pushed longer than `age` ago, a line each.
        private func cleanUp(_ gateway: ServerAddress, age: PrometheusDuration, console: Console) throws {
            let job = publishing.job ?? Publication.defaultJob
            let matching = try MetricLabel.parse(publishing.labels, reserved: MetricLabel.reservedForMatching)
            let now = Date()
            let stale = try PushgatewayGroups.list(on: gateway).stale(job: job, matching: matching, olderThan: age, now: now)
            for listed in stale {
                try listed.group.delete(from: gateway)
                let days = (now.timeIntervalSince(listed.pushedAt ?? now) / 86_400 * 10).rounded() / 10
                try console.say("deleted \(listed.group.description), last pushed \(days) days ago")
            }
            try console.say("deleted \(stale.count) group\(stale.count == 1 ? "" : "s") of job \(job) last pushed more than \(age) ago from \(gateway)")
        }
    }
}

/// `--job` and `--label`, for `publish` and `run --pushgateway`.
struct PublishOptions: ParsableArguments {
    @Option(help: "The Pushgateway job (default \(Publication.defaultJob)).")
    var job: String?

    @Option(
        name: .customLong("label"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "A label as key=value (repeat for several): commit replaces the report's, branch and runner what CI says; others join the group.",
            discussion: "Without them: branch from FAULTLINE_BRANCH, GITHUB_HEAD_REF, GITHUB_REF_NAME or CI_COMMIT_REF_NAME; runner from FAULTLINE_RUNNER, RUNNER_NAME, CI_RUNNER_DESCRIPTION or the report's host name."))
    var labels: [String] = []

    /// Whether any option of the group was given.
    var isGiven: Bool { job != nil || !labels.isEmpty }

    func validate() throws {
        if job?.isEmpty == true { throw ValidationError("--job: an empty job name") }
        do {
            // The clean-up by age matches on more names than a push sets; its own check is the command's.
            _ = try MetricLabel.parse(labels, reserved: MetricLabel.reservedForMatching)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The labels as a push (or the delete of its group) takes them:
    /// the names Faultline sets itself refused.
    func validateForPushing() throws {
        do {
            _ = try MetricLabel.parse(labels)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The Pushgateway's address, checked.
    static func address(_ argument: String) throws -> ServerAddress {
        do {
            return try ServerAddress(argument, option: "--pushgateway")
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The metrics and group of a report, now.
    func publication(of report: Report, reportName: String) throws -> Publication {
        try Publication(
            report, reportName: reportName, job: job ?? Publication.defaultJob, labels: try MetricLabel.parse(labels),
            environment: ProcessInfo.processInfo.environment, time: Date())
    }

    /// The group a report goes to.
    func group(of report: Report) throws -> PushGroup {
        Publication.group(
            of: report, job: job ?? Publication.defaultJob, labels: try MetricLabel.parse(labels),
            environment: ProcessInfo.processInfo.environment)
    }
}
