import ArgumentParser
import Foundation
import Reporting
import ToolSupport

extension PerfRun {
    struct ReportCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: "Writes a report's summary (Markdown, for a CI job summary) or its HTML page.",
            discussion: """
                Given the trace file of the same run (--trace-events), the HTML page is the one perf-run run wrote, \
                timeline included, byte for byte. Without --markdown or --html the Markdown goes to standard output.
                """)

        @Argument(help: "The report.")
        var report: String

        @Option(help: "Write a short Markdown summary here (- for standard output).")
        var markdown: String?

        @Option(help: "Write the HTML report here (- for standard output).")
        var html: String?

        @Option(name: .customLong("trace-events"), help: "The run's trace file (perf-run run --trace-events), for the page's timeline.")
        var traceEvents: String?

        func run() throws {
            var inputs = [OutputPlan.Input(option: "REPORT", path: report)]
            if let traceEvents { inputs.append(.init(option: "--trace-events", path: traceEvents)) }
            var outputs: [OutputPlan.Output] = []
            if let html { outputs.append(try .init(option: "--html", argument: html, format: .html)) }
            if let markdown { outputs.append(try .init(option: "--markdown", argument: markdown, format: .markdown)) }
            if outputs.isEmpty { outputs.append(.init(option: "--markdown", destination: .standardOutput, format: .markdown)) }
            let plan = try OutputPlan(inputs: inputs, outputs: outputs)
            let loaded = try ReportFile.read(report)
            let timeline = try traceEvents.map { path throws(ReportError) in
                try Timeline(traceEvents: try InputFile.read(path, what: "trace file"), path: path)
            }
            try plan.writeAll(ReportDocument(loaded, timeline: timeline))
        }
    }
}
