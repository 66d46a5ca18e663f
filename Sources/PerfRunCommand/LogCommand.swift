import ArgumentParser
import Foundation
import ModelImport
import Reporting
import SQLLogViewer
import ToolSupport

extension PerfRun {
    /// `perf-run log`: analyzes a SQL debug log, Faultline's or Core Data's.
    struct Log: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "log",
            abstract: "Analyzes a SQL debug log (Faultline's or Core Data's): statements, duplicates, faults, insights.",
            discussion: "Reads the file (or standard input for -) in bounded memory. Exit code 0 when log lines were found, 2 otherwise.")

        // Optional to the parser: `log --json FILE` (today's spelling of
        // JSON on standard output) gives FILE to --json, which run() hands back.
        @Argument(help: "The log file, or - for standard input.")
        var fileArgument: String?

        @OptionGroup var outputOptions: OutputOptions

        @Option(parsing: .unconditional, help: "Rows per table in the text output, 1 or more.")
        var limit = 20

        @OptionGroup var insights: InsightOptions

        @Option(help: ArgumentHelp(
            "The Core Data model (.xcdatamodeld, .xcdatamodel or its contents file) whose entities a Core Data log's tables hold.",
            discussion: "Insights then name entities as the model does (Post, not ZPOST). Without it, the names the log shows (objects' URIs) are used.",
            valueName: "path"))
        var model: String?

        @Flag(help: ArgumentHelp(
            "Keep reading the file as it grows and print the summary again after each change (until Ctrl-C).",
            discussion: """
                On a terminal the summary is redrawn in place; to a file or a pipe each one is appended. A truncated or \
                replaced file is read again from its start. A FIFO, a pipe or standard input (-) is read as it comes, to \
                its end. With --json, one JSON object per line per update.
                """))
        var follow = false

        /// The options, with `log --json FILE` read as `log FILE --json`.
        private var options: OutputOptions {
            var options = outputOptions
            if fileArgument == nil, options.json != nil { options.json = "-" }
            return options
        }

        /// The log to read.
        private var file: String { fileArgument ?? outputOptions.json ?? "" }

        func validate() throws {
            if fileArgument == nil, outputOptions.json == nil || outputOptions.json == "-" {
                throw ValidationError("Missing expected argument '<file>'")
            }
            guard limit >= 1 else { throw ValidationError("--limit must be at least 1, not \(limit)") }
            if follow, options.named.contains(where: { $0.format != .json || $0.path != "-" }) || options.format != nil || options.output != nil {
                throw ValidationError("--follow writes text or JSON (--json) on standard output: leave the other outputs out")
            }
        }

        /// The analysis's text (or what the options name) on standard output, and the page.
        private func plan() throws -> OutputPlan {
            let outputs = try options.outputs("log", formats: ReportFormats.formats(of: .log), default: .text)
            var inputs = [OutputPlan.Input(option: "FILE", path: file)]
            if let accepted = insights.acceptedInsights { inputs.append(.init(option: "--accepted-insights", path: accepted)) }
            if let model { inputs.append(.init(option: "--model", path: model)) }
            return try OutputPlan(inputs: inputs, outputs: outputs)
        }

        /// Whether the analysis goes out as JSON (a followed log then says nothing else).
        private var json: Bool { options.json != nil }

        func run() throws {
            let plan = try plan()
            if follow { return try runFollowing(plan) }
            var analyzer = SQLLogAnalyzer(sourceName: title, settings: try insights.settings())
            analyzer.entityNames = try entityNames()
            if file == "-" {
                try analyzer.consume(.standardInput, path: "standard input")
            } else {
                try analyzer.consume(try LogFile.open(file), path: file)
            }
            let analysis = analyzer.finish()
            guard analysis.logLines > 0 else { throw noLogLines(in: analysis) }
            try plan.writeAll(SQLLogDocument(analysis, title: title, limit: limit))
            for entry in try insights.settings().acceptedInsights.unmatched(by: analysis.insights) {
                Console.warn("--accepted-insights: \(entry) matches no insight of \(name)")
            }
            for intention in analysis.unmatchedIntentions ?? [] {
                Console.warn("\(name): intended lazy loads of \(intention) match no insight")
            }
        }

        /// The entities of `--model` by table; a model that cannot be read is bad usage of the option.
        private func entityNames() throws -> [String: String] {
            guard let model else { return [:] }
            do {
                let location = try ModelCommand.locate(CoreDataModelReference(argument: model), version: nil, option: "--model")
                return try CoreDataModelXML.read(location.contents).entitiesByTable
            } catch let error as UsageError {
                throw error
            } catch {
                // The reader's errors name the file already.
                throw UsageError(option: "--model", "\(error)")
            }
        }

        /// The file's name in messages.
        private var name: String { file == "-" ? "standard input" : file }

        /// Exit code 2: nothing in the input was a log line.
        private func noLogLines(in analysis: SQLLogAnalysis) -> UsageError {
            if analysis.encoding == "binary" { return UsageError("\(name): not text (binary data), so no SQL debug log lines") }
            return UsageError("\(name): no SQL debug log lines in \(analysis.lines) lines (expected 'faultline: sql: …' or 'CoreData: sql: …')")
        }

        /// The log's name in the page's title and the analysis.
        private var title: String { file == "-" ? "standard input" : URL(fileURLWithPath: file).lastPathComponent }

        /// Polls a file twice a second and prints the summary when it
        /// changed, until Ctrl-C; a stream (a FIFO, standard input) is read
        /// as it comes, to its end, and then ends as a log read once does.
        private func runFollowing(_ plan: OutputPlan) throws {
            let output = plan.outputs[0]
            let console = Console(plan: nil)
            let settings = try insights.settings()
            let names = try entityNames()
            var follower = file == "-"
                ? LogFollower(stream: .standardInput, name: name, insights: settings, entityNames: names)
                : LogFollower(path: file, insights: settings, entityNames: names)
            var restarts = 0
            // On a terminal, each summary replaces the last one.
            var redraw = json ? nil : TerminalRedraw.standardOutput()
            var restarted = ""
            while true {
                let changed = try follower.poll()
                if follower.restarts != restarts {
                    restarts = follower.restarts
                    let note = "--- \(name) was truncated or replaced: reading it again from its start"
                    if redraw != nil {
                        restarted = note + "\n"
                    } else if !json {
                        try console.say(note)
                    }
                }
                if changed {
                    let document = SQLLogDocument(follower.analysis(), title: title, limit: limit, compactJSON: true)
                    if redraw != nil {
                        let text = try document.render(.text)
                        let block = TerminalText.escape(restarted + "--- \(name) at \(follower.offset) bytes\n" + (text.hasSuffix("\n") ? text : text + "\n"))
                        try StandardOutput.write(redraw!.replace(with: block))
                        restarted = ""
                    } else {
                        if !json { try console.say("--- \(name) at \(follower.offset) bytes") }
                        try plan.write(document, to: output)
                    }
                }
                if follower.ended { break }
                // A stream's poll waits for its bytes itself.
                if !follower.isStream { usleep(500_000) }
            }
            if !json { try console.say("--- end of \(name) at \(follower.offset) bytes") }
            let analysis = follower.analysis()
            guard analysis.logLines > 0 else { throw noLogLines(in: analysis) }
        }
    }
}
