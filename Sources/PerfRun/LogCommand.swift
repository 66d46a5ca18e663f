import ArgumentParser
import Foundation
import Reporting

extension PerfRun {
    /// `perf-run log`: analyzes a SQL debug log, Faultline's or Core Data's.
    struct Log: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "log",
            abstract: "Analyzes a SQL debug log (Faultline's or Core Data's): statements, duplicates, faults, insights.",
            discussion: "Reads the file (or standard input for -) in bounded memory. Exit code 0 when log lines were found, 2 otherwise.")

        @Argument(help: "The log file, or - for standard input.")
        var file: String

        @Flag(help: "Print the analysis as JSON.")
        var json = false

        @Option(help: "Rows per table in the text output.")
        var limit = 20

        func run() throws {
            guard limit >= 1 else { throw ValidationError("--limit must be at least 1, not \(limit)") }
            let handle: FileHandle
            if file == "-" {
                handle = .standardInput
            } else {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else {
                    throw UsageError("\(file): no such file")
                }
                guard !isDirectory.boolValue, let opened = FileHandle(forReadingAtPath: file) else {
                    throw UsageError("\(file): not a readable file")
                }
                handle = opened
            }
            var analyzer = SQLLogAnalyzer()
            analyzer.consume(handle)
            let analysis = analyzer.finish()
            guard analysis.logLines > 0 else {
                throw UsageError("\(file == "-" ? "standard input" : file): no SQL debug log lines in \(analysis.lines) lines (expected 'faultline: sql: …' or 'CoreData: sql: …')")
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(String(decoding: try encoder.encode(analysis), as: UTF8.self))
            } else {
                print(SQLLogText.render(analysis, limit: limit), terminator: "")
            }
        }
    }
}
