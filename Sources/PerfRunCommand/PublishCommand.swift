import ArgumentParser
import Foundation
import PrometheusPublishing
import Reporting

extension PerfRun {
    /// `perf-run publish`: a report's counters and timings to a Pushgateway.
    struct Publish: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pushes a report's exact counters and wall times to a Prometheus Pushgateway, per scenario and commit.",
            discussion: """
                The group is the job, runner, branch and scale (and any --label); each push replaces the group's last one, \
                and Prometheus keeps the history per commit. Exit code 0 when pushed, 2 for bad input or a push that failed. \
                docs/prometheus.md lists the metrics and labels.
                """)

        @Argument(help: "The report (perf-run run --json).")
        var report: String

        @Option(help: "The Pushgateway's address (http://host:9091).")
        var pushgateway: String

        @OptionGroup var publishing: PublishOptions

        func validate() throws {
            _ = try PublishOptions.address(pushgateway)
        }

        func run() throws {
            let gateway = try PublishOptions.address(pushgateway)
            let loaded = try ReportFile.read(report)
            let publication = try publishing.publication(of: loaded, reportName: report)
            try publication.push(to: gateway)
            try Console().say(publication.summary(to: gateway))
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
}
