import Foundation
import Reporting
import TestSupport
import Testing
import ToolSupport

/// The one writer and the one error mapping, as a user meets them: no input
/// overwritten, no stray file, no output error ignored, no link of another
/// user followed, nothing from the data acting on the terminal.
@Suite struct OutputPipelineTests {
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("perf-run-output-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func report(in directory: URL, named name: String = "r.json", scenario: String = "Prefetch") throws -> String {
        var report = CompareCommandTests.report(sqlStatements: 5)
        report.scenarios[0].name = scenario
        let path = directory.appendingPathComponent(name).path
        try ReportFile.write(report, to: path)
        return path
    }

    /// perf-run through a shell, for redirections the test names.
    static func shell(_ script: String, environment: [String: String] = [:]) throws -> CommandResult {
        try CommandResult.run("/bin/sh", ["-c", script], environment: ["PERF_RUN": PerfRunProcess.executable].merging(environment) { $1 })
    }

    // MARK: Inputs are never outputs

    @Test func anOutputThatIsAnInputIsRefusedAndTheInputKept() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try Self.report(in: directory)
        let before = try Data(contentsOf: URL(fileURLWithPath: report))
        let html = try PerfRunProcess.run(["report", report, "--html", report])
        #expect(html.status == 2)
        #expect(html.stderr == "--html \(report) is the input REPORT (\(report)): it would be overwritten\n")
        // Through another name: a symbolic link of the user's own.
        let link = directory.appendingPathComponent("link.html").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: report)
        #expect(try PerfRunProcess.run(["report", report, "--markdown", link]).status == 2)
        let both = try PerfRunProcess.run(["report", report, "--markdown", directory.appendingPathComponent("x").path, "--html", directory.appendingPathComponent("x").path])
        #expect(both.status == 2)
        #expect(both.stderr.hasSuffix("are the same file: one would overwrite the other\n"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: report)) == before)

        let log = directory.appendingPathComponent("sql.log").path
        try "faultline: sql: SELECT 1 (0.1 ms; 1 row)\n".write(toFile: log, atomically: true, encoding: .utf8)
        let logged = try PerfRunProcess.run(["log", log, "--html", log])
        #expect(logged.status == 2)
        #expect(logged.stderr == "--html \(log) is the input FILE (\(log)): it would be overwritten\n")
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "faultline: sql: SELECT 1 (0.1 ms; 1 row)\n")

        let insights = directory.appendingPathComponent("insights.json").path
        try #"{"accepted": []}"#.write(toFile: insights, atomically: true, encoding: .utf8)
        let run = try PerfRunProcess.run(["run", "FetchAll", "--scale", "0.02", "--json", insights, "--accepted-insights", insights])
        #expect(run.status == 2)
        #expect(run.stderr == "--json \(insights) is the input --accepted-insights (\(insights)): it would be overwritten\n")
        #expect(try String(contentsOfFile: insights, encoding: .utf8) == #"{"accepted": []}"#)
    }

    // MARK: Standard output

    /// `-` is standard output everywhere; no file named `-` is made.
    @Test func aDashIsStandardOutput() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try PerfRunProcess.run(["run", "FetchAll", "--scale", "0.02", "--iterations", "1", "--warmup", "0", "--json", "-"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONDecoder().decode(Report.self, from: Data(run.stdout.utf8))
        #expect(report.scenarios.map(\.name) == ["FetchAll"])
        // The summary went to standard error, and no page was made beside "-".
        #expect(run.stderr.contains("FetchAll  passed"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        let page = try PerfRunProcess.run(["report", try Self.report(in: directory), "--html", "-"])
        #expect(page.status == 0)
        #expect(page.stdout.hasPrefix("<!DOCTYPE html>"))
        let twice = try PerfRunProcess.run(["report", try Self.report(in: directory), "--html", "-", "--markdown", "-"])
        #expect(twice.status == 2)
        #expect(twice.stderr == "--markdown - and --html - both write to standard output: name a file for one\n")
    }

    /// A full disk under standard output is exit code 2 and one line, for
    /// every command that prints.
    @Test(arguments: [
        "list", "list --json", "model import MODEL --swift", "compare REPORT REPORT", "report REPORT --markdown -", "log LOG",
        "explain Selfie 'rating < 3' --scale 0.01",
    ])
    func aFullDiskUnderStandardOutputIsAnError(command: String) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = directory.appendingPathComponent("Model.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model><entity name="Author"><attribute name="name" attributeType="String"/></entity></model>
            """.write(to: model.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("sql.log").path
        try "faultline: sql: SELECT 1 (0.1 ms; 1 row)\n".write(toFile: log, atomically: true, encoding: .utf8)
        let line = command.replacingOccurrences(of: "MODEL", with: model.path).replacingOccurrences(of: "REPORT", with: try Self.report(in: directory))
            .replacingOccurrences(of: "LOG", with: log)
        let result = try Self.shell("\"$PERF_RUN\" \(line) > /dev/full")
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr == "standard output: cannot write: No space left on device\n")
    }

    /// `/dev/stdout` of a pipe is written through, as `-` is.
    @Test func devStdoutIntoAPipeIsWritten() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try PerfRunProcess.run(["report", try Self.report(in: directory), "--html", "/dev/stdout"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("<!DOCTYPE html>"))
    }

    // MARK: Stray files

    @Test func aJSONReportToADeviceMakesNoPageBesideIt() throws {
        let stray = "/dev/null.html"
        try? FileManager.default.removeItem(atPath: stray)
        let result = try PerfRunProcess.run(["run", "FetchAll", "--scale", "0.02", "--iterations", "1", "--warmup", "0", "--json", "/dev/null", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: stray))
    }

    @Test func anEmptyPathIsNamedAsSuch() throws {
        let result = try PerfRunProcess.run(["run", "FetchAll", "--json", ""])
        #expect(result.status == 2)
        #expect(result.stderr == "--json: an empty path: name a file, or - for standard output\n")
    }

    /// A name of 255 bytes, the most a file system takes, is written: the
    /// temporary file's name is short.
    @Test func theLongestFileNameIsWritten() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = String(repeating: "r", count: 250) + ".json"
        let result = try PerfRunProcess.run([
            "run", "FetchAll", "--scale", "0.02", "--iterations", "1", "--warmup", "0", "--json", directory.appendingPathComponent(name).path, "--quiet",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: directory.path)) == [name, String(repeating: "r", count: 250) + ".html"])
    }

    /// A signal while `report` has its page's temporary file open (the
    /// checkpoint waits until the signal's clean-up has removed it, so the
    /// rename that follows fails every time) ends the command with the
    /// signal's status, says nothing, and leaves no temporary file.
    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130)), (SIGHUP, Int32(129))], SignalStress.rounds)
    func aSignalWhileWritingLeavesNoTemporaryFile(signal: (number: Int32, status: Int32), round: Int) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.json").path
        try ReportFile.write(CompareCommandTests.report(sqlStatements: 5), to: input)
        let pages = directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
        let result = try PerfRunProcess.run(
            ["report", input, "--html", pages.appendingPathComponent("page.html").path],
            environment: SignalStress.signal(signal.number, at: "output.temporary-file"))
        #expect(result.status == signal.status, "round \(round): \(result.stderr)")
        #expect(result.stderr.isEmpty, "round \(round): a signal's end says nothing more")
        #expect(try FileManager.default.contentsOfDirectory(atPath: pages.path).isEmpty)
    }

    // MARK: Another user's links

    /// Another user's symbolic link in a shared sticky directory, where the
    /// report is to go, is not followed: the root-only file it leads to is
    /// left as it was. The link is planted by `nobody`, as an attacker would.
    @Test func anotherUsersLinkInASharedDirectoryIsNotFollowed() throws {
        try HostileEnvironment.requireRoot("planting another user's link")
        let root = try HostileEnvironment.directory()
        defer { try? FileManager.default.removeItem(at: root) }
        let shared = try HostileEnvironment.sharedTemporaryDirectory(in: root)
        let victim = try HostileEnvironment.victim(in: root)
        let page = shared.appendingPathComponent("page.html").path
        try HostileEnvironment.asNobody(["ln", "-s", victim.path, page])
        let result = try PerfRunProcess.run(["report", try Self.report(in: root), "--html", page])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("\(page): not written: \(page) is a symbolic link of another user (uid "))
        HostileEnvironment.expectIntact(victim)
    }

    // MARK: The terminal and Markdown

    /// Escape sequences and bidirectional controls in a report's data do not
    /// reach the terminal; a bare URL does not become a link in Markdown.
    @Test func controlsFromTheDataAreShownEscaped() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let hostile = "Pre\u{1B}[2Jfetch\u{202E}gnp.exe https://evil.example/x"
        let report = try Self.report(in: directory, scenario: hostile)
        let text = try PerfRunProcess.run(["compare", report, report])
        #expect(text.status == 0)
        #expect(!text.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
        #expect(text.stdout.contains("Pre\\u{1B}[2Jfetch\\u{202E}gnp.exe"))
        let markdown = try PerfRunProcess.run(["report", report])
        #expect(!markdown.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
        #expect(!markdown.stdout.contains("https://evil"))
        #expect(markdown.stdout.contains("https\\://evil.example/x"))
    }

    /// The experiments' sentences under their rows (the mechanism, the
    /// break-even) reach the terminal escaped as the rest of the summary:
    /// a side's label from the report acts on nothing.
    @Test func theExperimentsSentencesAreEscapedForTheTerminal() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let hostile = "Pre\u{1B}[2Jfetch\u{202E}"
        func side(_ label: String, median: Double, sqlite: Double, statements: Int) -> ExperimentReport.Side {
            ExperimentReport.Side(label: label, sourceSeconds: 1, medianSeconds: median, sqliteSeconds: sqlite, counters: ["sqlStatements": statements])
        }
        let (single, prefetch) = (side("SingleFault", median: 0.192, sqlite: 0.0547, statements: 2_001), side(hostile, median: 0.203, sqlite: 0.0596, statements: 5))
        var report = CompareCommandTests.report(sqlStatements: 5)
        report.experiments = [ExperimentReport(
            name: "SingleFault vs Prefetch", lesson: "", source: "", sourceSetting: "", baseline: single, treatment: prefetch, sourceRatio: 10,
            measuredRatio: 0.95, ratioInterval: [0.93, 0.97], verdict: .inverted, reason: "",
            breakEven: StatementBreakEven(baseline: single, treatment: prefetch, sourceRatio: 10))]
        let path = directory.appendingPathComponent("r.json").path
        try ReportFile.write(report, to: path)
        let text = try PerfRunProcess.run(["report", path, "--format", "text"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(!text.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
        let experiment = try #require(report.experiments?.first)
        for sentence in experiment.lessonSentences {
            #expect(sentence.contains(hostile))
            #expect(text.stdout.contains("\n  " + TerminalText.escape(sentence) + "\n"), "\(text.stdout)")
        }
        #expect(text.stdout.contains("\n  A statement costs about 27.3 µs of SQLite here; Pre\\u{1B}[2Jfetch\\u{202E} runs 1,996 fewer"))
    }

    // MARK: Settings files and options

    @Test func aMisspelledKeyInAThresholdsFileIsAnError() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try Self.report(in: directory)
        let thresholds = directory.appendingPathComponent("t.json").path
        try #"{"counters": {"sqlStatments": {"absolute": 1}}}"#.write(toFile: thresholds, atomically: true, encoding: .utf8)
        let result = try PerfRunProcess.run(["compare", report, report, "--thresholds", thresholds])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("\(thresholds): counters.sqlStatments: unknown counter (batchRequests, "))
        try #"{"counters": {"sqlStatements": {"absolut": 1}}}"#.write(toFile: thresholds, atomically: true, encoding: .utf8)
        #expect(try PerfRunProcess.run(["compare", report, report, "--thresholds", thresholds]).stderr
            == "\(thresholds): counters.sqlStatements.absolut: unknown key (absolute, relative)\n")
        let floor = directory.appendingPathComponent("f.json").path
        try #"{"relativ": 0.1}"#.write(toFile: floor, atomically: true, encoding: .utf8)
        #expect(try PerfRunProcess.run(["compare", report, report, "--noise-floor", floor]).stderr
            == "\(floor): relativ: unknown key (relative, absolute, scenarios)\n")
    }

    @Test(arguments: [
        (["run", "FetchAll", "FETCHALL"], "scenario FetchAll is named twice (FetchAll, FETCHALL)\n"),
        (["run", "FetchAll", "--sql-log", "x.log"], "--sql-log writes the SQL debug log, which needs a level: add --sql-debug 1 to 4\n"),
        (["log", "-", "--limit", "-1"], "--limit must be at least 1, not -1\n"),
    ])
    func unclearOptionsSayWhatIsWrong(arguments: [String], message: String) throws {
        let result = try PerfRunProcess.run(arguments, environment: ["FAULTLINE_SQL_DEBUG": ""])
        #expect(result.status == 2)
        #expect(result.stderr.hasSuffix(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count <= 2)
    }

    // MARK: The SQL debug log's file

    /// perf-run's own log goes where any program's does: to `--sql-log`,
    /// else to the file `FAULTLINE_SQL_LOG` names (at `FAULTLINE_SQL_DEBUG`'s
    /// level or `--sql-debug`'s), else to standard error; a file the
    /// variable names is not even created when no log is asked for.
    @Test func theSQLLogGoesToTheFileTheEnvironmentNamesUnlessAnOptionDoes() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let named = directory.appendingPathComponent("env.log").path
        let given = directory.appendingPathComponent("option.log").path
        let run = ["run", "FetchAll", "--scale", "0.02", "--iterations", "1", "--warmup", "0", "--quiet", "--json",
                   directory.appendingPathComponent("r.json").path]
        func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

        let byEnvironment = try PerfRunProcess.run(run, environment: ["FAULTLINE_SQL_DEBUG": "1", "FAULTLINE_SQL_LOG": named])
        #expect(byEnvironment.status == 0, "\(byEnvironment.stderr)")
        #expect(text(named).contains("faultline: sql: "))
        #expect(!byEnvironment.stderr.contains("faultline: sql: "))

        try FileManager.default.removeItem(atPath: named)
        let byOption = try PerfRunProcess.run(
            run + ["--sql-debug", "1", "--sql-log", given], environment: ["FAULTLINE_SQL_DEBUG": "", "FAULTLINE_SQL_LOG": named])
        #expect(byOption.status == 0, "\(byOption.stderr)")
        #expect(text(given).contains("faultline: sql: "))
        #expect(!FileManager.default.fileExists(atPath: named))

        let noLog = try PerfRunProcess.run(run, environment: ["FAULTLINE_SQL_DEBUG": "", "FAULTLINE_SQL_LOG": named])
        #expect(noLog.status == 0, "\(noLog.stderr)")
        #expect(!FileManager.default.fileExists(atPath: named))

        let dash = try PerfRunProcess.run(run, environment: ["FAULTLINE_SQL_DEBUG": "1", "FAULTLINE_SQL_LOG": "-"])
        #expect(dash.status == 2)
        #expect(dash.stderr.contains("FAULTLINE_SQL_LOG"), "\(dash.stderr)")
    }

    // MARK: The run pipeline

    /// The report records every option that changes what a run measures;
    /// `perf-run report` given the run's JSON and trace file writes the page
    /// the run wrote, byte for byte.
    @Test func reportRebuildsTheRunsPageFromItsFiles() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("run.json").path
        let trace = directory.appendingPathComponent("trace.json").path
        let run = try PerfRunProcess.run([
            "run", "FetchAll", "SingleFault", "--scale", "0.02", "--iterations", "2", "--warmup", "0", "--timeout", "30", "--json", json,
            "--trace-events", trace, "--quiet",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ReportFile.read(json).configuration.timeoutSeconds == 30)
        let page = directory.appendingPathComponent("again.html").path
        let again = try PerfRunProcess.run(["report", json, "--trace-events", trace, "--html", page])
        #expect(again.status == 0, "\(again.stderr)")
        let original = try Data(contentsOf: directory.appendingPathComponent("run.html"))
        #expect(original.count > 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: page)) == original)
        #expect(String(decoding: original, as: UTF8.self).contains("Timeline of the last iterations"))
    }
}
