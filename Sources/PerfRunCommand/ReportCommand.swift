import ArgumentParser
import Foundation
import Reporting
import ToolSupport

extension PerfRun {
    struct ReportCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: "Writes a report again in any of its formats: its Markdown summary (for a CI job), its HTML page, JUnit XML, text.",
            discussion: """
                Given the trace file of the same run (--trace-events), the HTML page is the one perf-run run wrote, \
                timeline included, byte for byte. Without an output named, the Markdown goes to standard output.
                """)

        @Argument(help: "The report.")
        var report: String

        @OptionGroup var outputOptions: OutputOptions

        @Option(name: .customLong("trace-events"), help: "The run's trace file (perf-run run --trace-events), for the page's timeline.")
        var traceEvents: String?

        func run() throws {
            var inputs = [OutputPlan.Input(option: "REPORT", path: report)]
            if let traceEvents { inputs.append(.init(option: "--trace-events", path: traceEvents)) }
            let outputs = try outputOptions.outputs(
                "report", formats: ReportFormats.formats(of: .run), default: .markdown, rule: .unlessAnyOutputIsNamed)
            let plan = try OutputPlan(inputs: inputs, outputs: outputs)
            let loaded = try ReportFile.read(report)
            let timeline = try traceEvents.map { path throws(ReportError) in
                try Timeline(traceEvents: try InputFile.read(path, what: "trace file"), path: path)
            }
            try plan.writeAll(ReportDocument(loaded, timeline: timeline))
        }
    }
}
