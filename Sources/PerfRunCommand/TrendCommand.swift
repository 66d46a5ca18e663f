import ArgumentParser
import Foundation
import PrometheusPublishing
import Reporting
import ToolSupport

extension PerfRun {
    /// `perf-run trend`: what `publish` sent, back from Prometheus, per commit.
    struct TrendCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "trend",
            abstract: "Shows scenarios' counters and wall times per commit, read back from Prometheus: where a counter changed, where a median moved.",
            discussion: """
                A line per scenario and kind of run (runner, branch, scale, …), commits oldest first. ▲/▼ marks an exact counter \
                that changed from the commit before, and a median outside the commit before's min–max. Exit code 0, or 2 for bad \
                input, a server that cannot be reached, or no series. docs/prometheus.md says what is read.
                """)

        @Argument(help: "Scenarios to show; all that have series when none is named.")
        var scenarios: [String] = []

        @Option(help: "Prometheus' address (http://host:9090).")
        var prometheus: String

        @Option(help: "How far back, as a Prometheus duration (30d, 12h, 1w).")
        var since = "30d"

        @OptionGroup var outputOptions: OutputOptions

        @Option(help: "The job the reports were published as (default \(Publication.defaultJob)).")
        var job = Publication.defaultJob

        @Option(name: .customLong("label"), parsing: .unconditionalSingleValue, help: "Only series with this label, as key=value (runner=ci-large, branch=main; repeat for several).")
        var labels: [String] = []

        func validate() throws {
            do {
                _ = try reader()
            } catch {
                throw ValidationError(error.description)
            }
        }

        func reader() throws(PublishError) -> TrendReader {
            try TrendReader(
                server: try ServerAddress(prometheus, option: "--prometheus"), job: job,
                labels: try MetricLabel.parse(labels, reserved: TrendReader.reservedForMatching), since: since, scenarios: scenarios)
        }

        func run() throws {
            let plan = try OutputPlan(inputs: [], outputs: try outputOptions.outputs("trend", formats: ReportFormats.formats(of: .trend), default: .text))
            try plan.writeAll(try reader().read())
        }
    }
}
