import BuiltInScenarios
import Foundation
import Probes
import Reporting
import SQLLogViewer
import Scenarios
import TestSupport
import Testing

/// The command line: exit codes and one-line reasons.
@Suite struct PerfRunCommandTests {
    static var executable: String { PerfRunProcess.executable }

    static func perfRun(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> CommandResult {
        try PerfRunProcess.run(arguments, in: directory, environment: environment)
    }

    @Test(arguments: [
        (["run", "--scale", "0"], "--scale must be between 0.01 and 4, not 0.0\n"),
        (["run", "--scale", "5"], "--scale must be between 0.01 and 4, not 5.0\n"),
        (["run", "NoSuchScenario"], "unknown scenario NoSuchScenario (perf-run list shows them)\n"),
        (["run", "--scales", "0.5,x"], "--scales takes scales separated by commas, such as 0.5,1: 'x' is not a number (in '0.5,x')\n"),
        (["run", "--scales", "0.5,,1"], "--scales takes scales separated by commas, such as 0.5,1: an empty one is not a number (in '0.5,,1')\n"),
        (["run", "--scales", "1"], "--scales needs at least two scales to fit a line, not 1\n"),
        (["run", "--scales", "0.5,9"], "--scales takes scales between 0.01 and 4, not 9.0\n"),
        (["run", "--scales", "0.5,1,0.5"], "--scales names the scale 0.5 twice\n"),
        (["run", "--scales", "0.5,1", "--scale", "1"], "--scale and --scales: give one scale, or the scales to fit against\n"),
        (["run", "FetchAll", "--json", "/proc/nowhere/report.json"], "/proc/nowhere/report.json: cannot write: cannot create /proc/nowhere: No such file or directory\n"),
        (["run", "--store", "tape"], "The value 'tape' is invalid for '--store <store>'. Please provide one of 'file' and 'memory'.\n"),
        (["explain", "Selfie", "rating < 5", "--dataset", "nope"],
         "The value 'nope' is invalid for '--dataset <dataset>'. Please provide one of 'selfies', 'fireballs' or 'library'.\n"),
        (["compare", "a.json", "b.json", "--format", "xml"],
         "--format: no format xml: compare writes text, json, markdown, html, junit\n"),
        (["explain", "Selfie", "rating < 5", "--scale", "9"], "--scale must be between 0.01 and 4, not 9.0\n"),
        (["run", "--insight-threshold", "n-plus-one=0"], "--insight-threshold n-plus-one=0: the value must be a whole number of 1 or more\n"),
        (["run", "--insight-threshold", "n-plus-one"], "--insight-threshold n-plus-one: expected rule=value (count-by-fetch, "
            + "fetch-without-batch-size, full-scan, n-plus-one, query-in-loop, repeated-count, repeated-statement, save-in-loop, "
            + "sort-without-index, unused-prefetch)\n"),
        (["log", "-", "--model", "/nonexistent/Model.xcdatamodeld"], "--model: /nonexistent/Model.xcdatamodeld: no such file or directory\n"),
        (["log", "-", "--insight-threshold", "fault-storm=3"], "--insight-threshold fault-storm=3: unknown rule fault-storm (count-by-fetch, "
            + "fetch-without-batch-size, full-scan, n-plus-one, query-in-loop, repeated-count, repeated-statement, save-in-loop, "
            + "sort-without-index, unused-prefetch)\n"),
    ])
    func badUsageExitsWithTwoAndOneLine(arguments: [String], message: String) throws {
        let result = try Self.perfRun(arguments)
        #expect(result.status == 2)
        #expect(result.stderr == message)
    }

    /// An insights file with a misspelled key is bad input, named with its key path.
    @Test func anInsightsFileWithAnUnknownKeyExitsWithTwo() throws {
        let path = NSTemporaryDirectory() + "insights-\(UUID()).json"
        try #"{ "thresholds": { "n-plus-one": 3 }, "acepted": [] }"#.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try Self.perfRun(["run", "FetchAll", "--scale", "0.02", "--accepted-insights", path, "--json", NSTemporaryDirectory() + "x-\(UUID()).json"])
        #expect(result.status == 2)
        #expect(result.stderr == "\(path): acepted: unknown key (accepted, thresholds, intended, smallTableRows)\n")
    }

    /// `--what-if` measures the advice and the summary says what to fix first.
    @Test func whatIfMeasuresTheAdviceAndRanksIt() throws {
        let json = NSTemporaryDirectory() + "whatif-\(UUID()).json"
        defer { try? FileManager.default.removeItem(atPath: json) }
        let result = try Self.perfRun(["run", "ToOneList", "--scale", "0.02", "--iterations", "3", "--warmup", "1", "--what-if", "--json", json])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("ToOneList: what if prefetch `group`"))
        let report = try ReportFile.read(json)
        #expect(report.configuration.whatIf == true)
        let nPlusOne = try #require(report.scenarios[0].insights.first { $0.rule == .nPlusOne })
        // BEGIN, the fetch and the prefetch of the groups.
        #expect(nPlusOne.whatIf?.after?.counters["sqlStatements"] == 3)
        // The summary follows the verdict measured (a loaded machine can
        // measure no gain at this small scale): ranked first, or withdrawn
        // with the measurement that withdrew it.
        if nPlusOne.isActionable {
            #expect(result.stdout.contains("what to fix first\n1. ToOneList: "))
            let ranked = result.stdout.split(separator: "\n").contains { $0.hasSuffix(". ToOneList: \(nPlusOne.message)") && $0.first!.isNumber }
            #expect(ranked, "\(result.stdout)")
        } else {
            #expect(result.stdout.contains("advice withdrawn\n- ToOneList: "))
            #expect(result.stdout.contains("\n- ToOneList: \(nPlusOne.message)\n  measured \(try #require(nPlusOne.whatIf).reason); "))
        }
        let markdown = try Self.perfRun(["report", json, "--markdown", "-"])
        #expect(markdown.stdout.contains("### Fixes measured (--what-if)"))
        #expect(markdown.stdout.components(separatedBy: "| as it is |").count == 2)
    }

    /// `--scales` fits each count against the scale; `compare` of two such
    /// reports compares the slopes, and of one without says so.
    @Test func scalesFitTheCountsAndCompareComparesTheSlopes() throws {
        let directory = NSTemporaryDirectory()
        let (scaled, plain) = (directory + "scales-\(UUID()).json", directory + "plain-\(UUID()).json")
        defer { for path in [scaled, plain] { try? FileManager.default.removeItem(atPath: path) } }
        let result = try Self.perfRun([
            "run", "FetchAll", "--scales", "0.02,0.04", "--iterations", "1", "--warmup", "0", "--store", "memory", "--json", scaled,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("FetchAll: at scale 0.02"))
        #expect(result.stdout.contains("how the work grows with the data (N = the data set's scale;"))
        let report = try ReportFile.read(scaled)
        #expect(report.configuration.scale == 0.04 && report.configuration.scales == [0.02, 0.04])
        let scaling = try #require(report.scenarios[0].scaling)
        // FetchAll runs the same statements whatever the data's size: a
        // constant, the report's own count.
        let statements = try #require(scaling.fits.first { $0.counter == "sqlStatements" && $0.shape == nil })
        let count = try #require(report.scenarios[0].counters["sqlStatements"])
        #expect(statements.growth == .constant && statements.counts == [count, count] && statements.equation == "\(count)")
        let same = try Self.perfRun(["compare", scaled, scaled])
        #expect(same.status == 0, "\(same.stdout)")
        #expect(try Self.perfRun(["run", "FetchAll", "--scale", "0.04", "--iterations", "1", "--store", "memory", "--json", plain, "--quiet"]).status == 0)
        let mixed = try Self.perfRun(["compare", plain, scaled])
        #expect(mixed.stdout.contains("fits: not comparable (\(scaled) has fits of how the work grows with the data and \(plain) has none"))
    }

    @Test func lttngWithoutTheToolsStopsWithAReason() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        process.arguments = ["run", "FetchAll", "--scale", "0.02", "--lttng", "--json", NSTemporaryDirectory() + "x-\(UUID()).json"]
        process.environment = ["PATH": "/nonexistent"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(message == "--lttng needs lttng, which is not installed (Debian: lttng-tools, babeltrace2)\n")
    }

    @Test func modelImportPrintsTheModelAndSaysWhatItSkipped() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-model-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let good = directory.appendingPathComponent("contents").path
        try """
            <model>
                <entity name="Author"><attribute name="name" attributeType="String"/><attribute name="avatar" optional="YES" attributeType="Transformable"/>
                    <relationship name="posts" optional="YES" toMany="YES" destinationEntity="Post" inverseName="author"/></entity>
                <entity name="Post"><attribute name="title" optional="YES" attributeType="String"/>
                    <relationship name="author" optional="YES" maxCount="1" destinationEntity="Author" inverseName="posts"/></entity>
            </model>
            """.write(toFile: good, atomically: true, encoding: .utf8)
        let text = try Self.perfRun(["model", "import", good])
        #expect(text.status == 0)
        #expect(text.stdout == "model:     \(good)\nimported:  2 entities, 2 attributes, 2 relationships\nskipped:\n"
            + "  Author.avatar: transformable: a value only the app's transformer can read (line 2)\n")
        let swift = try Self.perfRun(["model", "import", good, "--swift"])
        #expect(swift.status == 0)
        // The model in an enum named after the contents file's folder, and a class per entity.
        #expect(swift.stdout.contains("\nimport ObjectGraph\n\n/// The model, each entity declared with its class.\npublic enum FaultlineModelCli"))
        #expect(swift.stdout.contains("\n    public static let model = try! Model([\n        Entity(\"Author\", Author.self, properties: [\n"))
        #expect(swift.stdout.contains("\npublic final class Author: ManagedObject, FaultlineModelCli"))
        #expect(swift.stdout.contains("\n    public var posts: [Post] { self[toMany: \"posts\"] }\n"))
        #expect(swift.stderr == "1 skipped, 0 changed: perf-run model import \(good) says which\n")
        let json = try Self.perfRun(["model", "import", good, "--json"])
        let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((decoded?["entities"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Author", "Post"])
        let bad = directory.appendingPathComponent("bad").path
        try "<model><entity name=\"A\">".write(toFile: bad, atomically: true, encoding: .utf8)
        let broken = try Self.perfRun(["model", "import", bad])
        #expect(broken.status == 2)
        #expect(broken.stderr == "\(bad):1:25: not well-formed XML: the document ends before <entity> is closed\n")
        // The model's own predicate on its default data set (10 objects of
        // each entity at scale 0.1; post N belongs to author N).
        let explained = try Self.perfRun(["explain", "Author", "ANY posts.title == 'Post.title 3'", "--model", good, "--scale", "0.1"])
        #expect(explained.status == 0, "\(explained.stderr)")
        #expect(explained.stdout.contains("matches:   1 of 10 Author objects"), "\(explained.stdout)")
        let unknown = try Self.perfRun(["explain", "Reader", "name == 'x'", "--model", good])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "\(good) has no entity Reader (Author, Post)\n")
        let both = try Self.perfRun(["model", "import", good, "--swift", "--json"])
        #expect(both.status == 2)
        #expect(both.stderr == "--swift - and --json - both write to standard output: name a file for one\n")
    }

    @Test func unknownOptionsAreUsageErrorsToo() throws {
        let result = try Self.perfRun(["run", "--bogus"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("Unknown option '--bogus'"))
    }

    @Test func aRunWritesAReadableReport() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("perf-run-\(UUID()).json").path
        let result = try Self.perfRun(["run", "FetchAll", "DidFault", "--scale", "0.02", "--iterations", "2", "--json", path, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let report = try ReportFile.read(path)
        #expect(report.scenarios.map(\.name) == ["FetchAll", "DidFault"])
        #expect(report.configuration.scale == 0.02)
        #expect(report.tool.commandLine.contains("--scale"))
        #expect(report.environment.sqliteVersion.hasPrefix("3."))
        #expect(report.environment.clock == ProbeClock.source.description)
    }

    /// `FAULTLINE_CLOCK=kernel` times every event with clock_gettime, and
    /// the report says so.
    @Test func theKernelsClockCanBeChosen() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("perf-run-\(UUID()).json").path
        let result = try Self.perfRun(
            ["run", "FetchAll", "--scale", "0.02", "--iterations", "1", "--json", path, "--quiet"], environment: ["FAULTLINE_CLOCK": "kernel"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try ReportFile.read(path).environment.clock == "clock_gettime")
    }

    @Test func traceEventsAreWrittenForTheLastIterations() throws {
        let directory = FileManager.default.temporaryDirectory
        let trace = directory.appendingPathComponent("trace-\(UUID()).json").path
        let result = try Self.perfRun([
            "run", "DidFault", "--scale", "0.02", "--iterations", "1", "--quiet",
            "--json", directory.appendingPathComponent("r-\(UUID()).json").path, "--trace-events", trace,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: trace))) as? [String: Any])
        let slices = try #require(document["traceEvents"] as? [[String: Any]])
        let names = slices.compactMap { $0["name"] as? String }
        #expect(names.first == "iteration-begin DidFault")
        #expect(names.contains("fetch Selfie"))
        #expect(names.contains("relationship fault Selfie.socialNetworks"))
        #expect(names.last == "iteration-end DidFault")
    }

    @Test func aFailedScenarioExitsWithOneAndTheReportSaysWhy() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("perf-run-\(UUID()).json").path
        let result = try Self.perfRun([
            "run", "Predicate", "FetchAll", "--scale", "0.2", "--iterations", "50", "--warmup", "0", "--timeout", "0.05", "--json", path,
            "--quiet",
        ])
        #expect(result.status == 1)
        let report = try ReportFile.read(path)
        #expect(report.scenarios[0].status == .failed)
        #expect(report.scenarios[0].error == "stopped: timed out after 0.05 s")
        #expect(report.scenarios.count == 2)
    }

    /// Every line of progress, in order, on a data set cache of its own (a
    /// shared one may be being filled by another process, which adds a
    /// line that says whom the run waits for).
    @Test func progressIsPlainLinesWhenNotATerminal() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("perf-run-progress-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("report.json").path
        let result = try Self.perfRun(
            ["run", "FetchAll", "--scale", "0.02", "--iterations", "2", "--json", path], environment: ["TMPDIR": directory.path])
        #expect(result.status == 0)
        // Each line without its times (` · 0.1 s elapsed · about 0.1 s left`, ` in 0.2 s`).
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.map { $0.components(separatedBy: " · ")[0].components(separatedBy: " in ")[0] } == [
            "FetchAll: warm-up 1 of 1, 0 done", "building data set selfies at scale 0.02, seed 1", "built data set selfies-scale0.02-seed1-g1",
            "FetchAll: iteration 1 of 2, 0 done", "FetchAll: iteration 2 of 2, 1 done", "FetchAll: passed",
        ])
        #expect(lines[0].hasSuffix(" s elapsed") && lines[3].hasSuffix(" s elapsed") && lines[4].hasSuffix(" s left"), "\(lines)")
        #expect(lines[5].hasPrefix("FetchAll: passed in ") && lines[5].hasSuffix(" s"))
        #expect(result.stdout.hasPrefix("scenario  status  median"))
        #expect(result.stdout.contains("report: \(path)"))
    }

    @Test func listShowsEveryScenario() throws {
        let result = try Self.perfRun(["list", "--json"])
        #expect(result.status == 0)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: String]])
        #expect(list.count == ScenarioCatalog.all.count && list.count == 20)
        #expect(list.allSatisfy { ($0["description"] ?? "").count > 80 })
    }
}

@Suite struct ExplainTests {
    static let cache = DataSetCache(
        directory: FileManager.default.temporaryDirectory.appendingPathComponent("faultline-test-datasets-\(getpid())"))

    @Test func explainShowsTheSQLPlanMatchesAndCounters() throws {
        let explanation = try PredicateExplanation.explain(
            entity: "Selfie", format: "rating < 5 OR name LIKE '*e*ie*'", dataSet: .selfies, scale: 0.02, cache: Self.cache)
        #expect(explanation.predicate == "rating < 5 OR name LIKE \"*e*ie*\"")
        #expect(explanation.sql == "SELECT t0.pk, t0.\"name\", t0.\"rating\" FROM \"Selfie\" t0 WHERE (t0.\"rating\" < ? OR faultline_like(t0.\"name\", ?, 0) = 1)")
        #expect(explanation.arguments == ["5", "'*e*ie*'"])
        #expect(explanation.fullScans == ["SCAN t0"])
        #expect(explanation.matches == 10)
        // The pattern ran only for the rows the rating test did not decide
        // (rated 5 or more: SELECT count(*) FROM Selfie WHERE rating >= 5).
        #expect(explanation.rows == 10)
        #expect(explanation.patternMatches == 9)
        #expect(explanation.text.contains("patterns:  9 of 10 rows ran the pattern match"))
        #expect(explanation.counters["fetches"] == 1)
        #expect(explanation.counters["rowsRead"] == 10)
    }

    @Test func aBadPredicateExitsWithTwoAndTheColumn() throws {
        let result = try PerfRunCommandTests.perfRun(["explain", "Selfie", "(rating < 5 OR name LIKE 'x'", "--scale", "0.02"])
        #expect(result.status == 2)
        #expect(result.stderr == "expected ')' at column 29 in \"(rating < 5 OR name LIKE 'x'\"\n")
        let unknown = try PerfRunCommandTests.perfRun(["explain", "Selfy", "rating < 5", "--scale", "0.02"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "the selfies data set has no entity Selfy (Person, Selfie, SocialNetwork)\n")
    }
}

@Suite struct CompareCommandTests {
    static func write(_ report: Report) throws -> String {
        let path = NSTemporaryDirectory() + "report-\(UUID()).json"
        try ReportFile.write(report, to: path)
        return path
    }

    static func report(sqlStatements: Int) -> Report {
        Report(
            tool: .init(name: "perf-run", version: "0.1.0", commandLine: []),
            environment: .init(operatingSystem: "Debian", cpuModel: "CPU", cores: 2, swiftVersion: "6.3", sqliteVersion: "3.40.1",
                               buildConfiguration: "release", gitCommit: nil, hostName: "ci"),
            configuration: .init(scale: 0.1, seed: 1, iterations: 3, warmup: 1, store: .file, timeoutSeconds: nil),
            scenarios: [ScenarioReport(
                name: "Prefetch", description: "", dataSet: "selfies", status: .passed,
                samples: [0.1, 0.1, 0.1].map { Sample(wallSeconds: $0, cpuSeconds: $0, peakResidentBytes: nil) },
                counters: ["sqlStatements": sqlStatements], advisoryCounters: ["objectsRegisteredPeak"])])
    }

    @Test func exitCodesFollowTheVerdict() throws {
        let base = try Self.write(Self.report(sqlStatements: 5))
        let same = try PerfRunCommandTests.perfRun(["compare", base, base])
        #expect(same.status == 0)
        #expect(same.stdout.hasSuffix("verdict: no regression\n"))
        let worse = try Self.write(Self.report(sqlStatements: 6))
        let regression = try PerfRunCommandTests.perfRun(["compare", base, worse, "--format", "markdown"])
        #expect(regression.status == 1)
        #expect(regression.stdout.hasPrefix("## Faultline: ❌ 1 regression"))
        let thresholds = NSTemporaryDirectory() + "thresholds-\(UUID()).json"
        try #"{"counters": {"sqlStatements": {"absolute": 1}}}"#.write(toFile: thresholds, atomically: true, encoding: .utf8)
        #expect(try PerfRunCommandTests.perfRun(["compare", base, worse, "--thresholds", thresholds]).status == 0)
        #expect(try PerfRunCommandTests.perfRun(["compare", worse, base, "--exact-counters"]).status == 1)
    }

    @Test func badReportsExitWithTwoNamingTheFile() throws {
        let good = try Self.write(Self.report(sqlStatements: 5))
        func file(_ text: String) throws -> String {
            let path = NSTemporaryDirectory() + "bad-\(UUID()).json"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let cases: [(String, String)] = [
            (try file("{\"schemaVersion\": 1, \"tool\""), "not JSON"),
            (try file("{\"schemaVersion\": 6}"), "schema version 6 is not supported (this tool reads 1 to 5)"),
            (try file("{\"schemaVersion\": 1}"), "missing field tool"),
            (try file("hello"), "not JSON"),
            (NSTemporaryDirectory() + "missing-\(UUID()).json", "cannot read the file"),
        ]
        for (path, reason) in cases {
            let result = try PerfRunCommandTests.perfRun(["compare", good, path])
            #expect(result.status == 2, "\(path)")
            #expect(result.stderr.hasPrefix("\(path): "), "\(result.stderr)")
            #expect(result.stderr.contains(reason), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test func reportWritesAMarkdownSummary() throws {
        let path = try Self.write(Self.report(sqlStatements: 5))
        let result = try PerfRunCommandTests.perfRun(["report", path, "--markdown", "-"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("## Faultline run: 1 of 1 scenarios passed"))
        #expect(result.stdout.contains("| Prefetch | passed | 100 ms | 5 | - | - | 0 |"))
    }
}

extension PerfRunCommandTests {
    @Test func logReadsALogAndRefusesWhatIsNone() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let golden = root.appendingPathComponent("ProbesTests/Golden/sql-debug-level-2.log").path  // shared golden file
        let read = try Self.perfRun(["log", golden])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.hasPrefix("40 log lines (faultline) of 40 read\n12 statements in 10 shapes"))

        let html = FileManager.default.temporaryDirectory.appendingPathComponent("perf-run-log-\(UUID()).html").path
        defer { try? FileManager.default.removeItem(atPath: html) }
        let json = try Self.perfRun(["log", golden, "--json", "--html", html])
        #expect(json.status == 0, "\(json.stderr)")
        let decoded = try JSONDecoder().decode(SQLLogAnalysis.self, from: Data(json.stdout.utf8))
        #expect(decoded.logLines == 40)
        #expect(try String(contentsOfFile: html, encoding: .utf8).contains("<h1>SQL debug log: sql-debug-level-2.log</h1>"))

        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("perf-run-empty-\(UUID()).log").path
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let none = try Self.perfRun(["log", empty])
        #expect(none.status == 2)
        #expect(none.stderr == "\(empty): no SQL debug log lines in 0 lines (expected 'faultline: sql: …' or 'CoreData: sql: …')\n")
        let binary = FileManager.default.temporaryDirectory.appendingPathComponent("perf-run-binary-\(UUID()).log").path
        defer { try? FileManager.default.removeItem(atPath: binary) }
        #expect(FileManager.default.createFile(atPath: binary, contents: Data([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x0A])))
        let notText = try Self.perfRun(["log", binary])
        #expect(notText.status == 2)
        #expect(notText.stderr == "\(binary): not text (binary data), so no SQL debug log lines\n")
        let missing = try Self.perfRun(["log", "/nonexistent/app.log"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "/nonexistent/app.log: no such file\n")
        // A directory is bad input, read once or followed: one line, no crash.
        let directory = FileManager.default.temporaryDirectory.path
        for arguments in [["log", directory], ["log", directory, "--follow"]] {
            let result = try Self.perfRun(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr == "\(directory): a directory, not a log file\n")
        }
        // Standard input (empty here) is read as a stream to its end.
        let follow = try Self.perfRun(["log", "-", "--follow"])
        #expect(follow.status == 2)
        #expect(follow.stderr.hasPrefix("standard input: no SQL debug log lines in 0 lines"), "\(follow.stderr)")
    }

    /// Real Core Data logs of the corpus through the command: a fetch with
    /// no statement line and a level 3 fetch's values in the text, the
    /// values in the JSON, each statement's rows in the JSON.
    @Test func logSaysCoreDatasFetchesAndLevelThreeValues() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ReportingTests/Fixtures/sqldebug-corpus")
        let alone = try Self.perfRun(["log", corpus.appendingPathComponent("16-wire-pr-annotation-without-statement.log").path])
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect(alone.stdout == """
            1 log lines (coredata) of 1 read
            0 statements in 0 shapes; 0 transactions holding 0 statements
            1 fetch reported 1 row, with no statement line in the log (the paste starts after its SELECT)

            """)
        let levelThree = corpus.appendingPathComponent("17-openradar-fetch-returned-rows-level3.log").path
        let text = try Self.perfRun(["log", levelThree])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("\n1 fetch reported 6 rows; 1 statement read from level 3 `fetch using … with sql text` lines\n"))
        #expect(text.stdout.contains("\nFetched values (level 3)\n  line 1: Entity1, 6 rows: ( \"<NSManagedObject: 0x748bd50> (entity: Entity1;"))
        let json = try Self.perfRun(["log", levelThree, "--json"])
        let decoded = try JSONDecoder().decode(SQLLogAnalysis.self, from: Data(json.stdout.utf8))
        #expect(decoded.fetchValues.map(\.lines) == [5])
        #expect(decoded.statements.map(\.rows) == [6])
        let prefetch = try Self.perfRun(["log", corpus.appendingPathComponent("02-fatbobman-prefetch-intarray.log").path, "--json"])
        let rows = try JSONDecoder().decode(SQLLogAnalysis.self, from: Data(prefetch.stdout.utf8)).statements
            .sorted { $0.firstLine < $1.firstLine }.map(\.rows)
        #expect(rows == [190, 1581])
    }
}
