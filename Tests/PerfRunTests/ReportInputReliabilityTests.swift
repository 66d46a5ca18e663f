import Foundation
import Reporting
import SQLLogViewer
import TestSupport
import Testing

/// `perf-run compare`, `report` and `log` with reports and logs that are
/// hostile, out of range, incomplete or not regular files: a clear verdict
/// or one line and exit code 2, never a crash, never a silent wait.
@Suite struct ReportInputReliabilityTests {
    /// What a run of perf-run left, and whether it had to be killed.
    struct Outcome {
        let status: Int32
        let stdout: String
        let stderr: String
        let timedOut: Bool
    }

    /// Runs perf-run with `input` on its standard input (empty when nil),
    /// killing it after `seconds`. `whileRunning` runs once it started.
    static func perfRun(
        _ arguments: [String], input: Data? = nil, seconds: Double = 60, whileRunning: () throws -> Void = {}
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PerfRunProcess.executable)
        process.arguments = arguments
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        let inputPipe = Pipe()
        let out = Pipe()
        let err = Pipe()
        process.standardInput = inputPipe
        process.standardOutput = out
        process.standardError = err
        let collected = Collected()
        out.fileHandleForReading.readabilityHandler = { collected.append(out: $0.availableData) }
        err.fileHandleForReading.readabilityHandler = { collected.append(err: $0.availableData) }
        // perf-run may end before it reads its input: a write error, not SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        if let input { try? inputPipe.fileHandleForWriting.write(contentsOf: input) }
        try? inputPipe.fileHandleForWriting.close()
        try whileRunning()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        let timedOut = process.isRunning
        if timedOut { process.terminate() }
        process.waitUntilExit()
        out.fileHandleForReading.readabilityHandler = nil
        err.fileHandleForReading.readabilityHandler = nil
        collected.append(out: out.fileHandleForReading.readDataToEndOfFile())
        collected.append(err: err.fileHandleForReading.readDataToEndOfFile())
        return Outcome(status: process.terminationStatus, stdout: collected.stdout, stderr: collected.stderr, timedOut: timedOut)
    }

    /// Output read while the process runs (a pipe must not fill up).
    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var out = Data()
        private var err = Data()
        func append(out data: Data) { lock.withLock { out.append(data) } }
        func append(err data: Data) { lock.withLock { err.append(data) } }
        var stdout: String { lock.withLock { String(decoding: out, as: UTF8.self) } }
        var stderr: String { lock.withLock { String(decoding: err, as: UTF8.self) } }
    }

    /// A fresh directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-input-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func report(_ scenarios: [ScenarioReport]) -> Report {
        Report(
            tool: .init(name: "perf-run", version: "0.1.0", commandLine: []),
            environment: .init(operatingSystem: "Debian", cpuModel: "CPU", cores: 2, swiftVersion: "6.3", sqliteVersion: "3.40.1",
                               buildConfiguration: "release", gitCommit: nil, hostName: "ci"),
            configuration: .init(scale: 0.1, seed: 1, iterations: 3, warmup: 1, store: .file, timeoutSeconds: nil),
            scenarios: scenarios)
    }

    static func scenario(
        _ name: String = "Prefetch", status: ScenarioReport.Status = .passed, times: [Double] = [0.1, 0.1, 0.1],
        counters: [String: Int] = ["sqlStatements": 5, "rowsRead": 100]
    ) -> ScenarioReport {
        ScenarioReport(
            name: name, description: "", dataSet: "selfies", status: status, error: status == .passed ? nil : "stopped",
            samples: times.map { Sample(wallSeconds: $0, cpuSeconds: $0, peakResidentBytes: nil) }, counters: counters)
    }

    /// Writes `report` (or its JSON edited by `edit`) into `directory`.
    static func save(_ report: Report, _ name: String, in directory: URL, edit: (String) -> String = { $0 }) throws -> String {
        let path = directory.appendingPathComponent(name).path
        let json = String(decoding: try ReportFile.json(report), as: UTF8.self)
        try edit(json).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    // MARK: Values that overflow a chart or a ratio (item 6)

    @Test func hugeTimesDoNotCrashTheHTMLPages() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let base = try Self.save(Self.report([Self.scenario()]), "base.json", in: directory)
        let huge = try Self.save(Self.report([Self.scenario(times: [1e308, 1.7e308, 1e308])]), "huge.json", in: directory)
        let page = directory.appendingPathComponent("huge.html").path
        let report = try Self.perfRun(["report", huge, "--html", page])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains("<svg class=\"chart samples\""))
        for (a, b) in [(base, huge), (huge, base)] {
            let compared = try Self.perfRun(["compare", a, b, "--format", "html"])
            #expect(compared.status == 0, "\(compared.stderr)")
            #expect(compared.stdout.contains("<svg class=\"chart bars\""))
            #expect(compared.stderr.isEmpty)
        }
    }

    @Test func aRatioThatIsNotFiniteIsNotApplicable() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let zero = try Self.save(Self.report([Self.scenario(times: [0, 0, 0])]), "zero.json", in: directory)
        let base = try Self.save(Self.report([Self.scenario()]), "base.json", in: directory)
        let json = try Self.perfRun(["compare", zero, base, "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stderr.isEmpty)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let timing = ((object?["scenarios"] as? [[String: Any]])?.first?["timing"]) as? [String: Any]
        #expect(timing?["ratio"] is NSNull, "\(json.stdout)")
        let text = try Self.perfRun(["compare", zero, base])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains(": time 0 s → 100 ms ×n/a inconclusive"), "\(text.stdout)")
        let markdown = try Self.perfRun(["compare", zero, base, "--format", "markdown"])
        #expect(markdown.stdout.contains("×n/a"), "\(markdown.stdout)")
        let html = try Self.perfRun(["compare", zero, base, "--format", "html"])
        #expect(html.status == 0, "\(html.stderr)")
        #expect(html.stdout.contains("×n/a"))
    }

    // MARK: What HEAD lacks is a regression (item 7)

    @Test func whatHeadLacksIsARegressionUnlessAllowed() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let base = try Self.save(Self.report([Self.scenario("Prefetch"), Self.scenario("Cache")]), "base.json", in: directory)
        let heads: [(String, Report)] = [
            ("empty", Self.report([])),
            ("subset", Self.report([Self.scenario("Prefetch")])),
            ("skipped", Self.report([Self.scenario("Prefetch"), Self.scenario("Cache", status: .skipped)])),
            ("renamed", Self.report([Self.scenario("Prefetch2"), Self.scenario("Cache2")])),
            ("no-counters", Self.report([Self.scenario("Prefetch", counters: [:]), Self.scenario("Cache")])),
            ("lost-counter", Self.report([Self.scenario("Prefetch", counters: ["sqlStatements": 5]), Self.scenario("Cache")])),
        ]
        for (name, head) in heads {
            let path = try Self.save(head, "\(name).json", in: directory)
            let strict = try Self.perfRun(["compare", base, path])
            #expect(strict.status == 1, "\(name): \(strict.stdout)\(strict.stderr)")
            #expect(strict.stdout.hasSuffix("verdict: regression\n"), "\(name): \(strict.stdout)")
            // No scenario in both is nothing comparable: no pass, unless accepted.
            let disjoint = ["empty", "renamed"].contains(name)
            let allowed = try Self.perfRun(["compare", base, path, "--allow-missing"])
            #expect(allowed.status == (disjoint ? 2 : 0), "\(name): \(allowed.stdout)\(allowed.stderr)")
            #expect(allowed.stdout.hasSuffix("verdict: no regression\n"), "\(name): \(allowed.stdout)")
            if disjoint {
                #expect(allowed.stderr.contains("nothing comparable") && allowed.stderr.contains("no scenario is in both reports"), "\(allowed.stderr)")
                let accepted = try Self.perfRun(["compare", base, path, "--allow-missing", "--allow-incomparable"])
                #expect(accepted.status == 0, "\(name): \(accepted.stderr)")
            }
        }
        // A failure is never an intended subset.
        let failed = try Self.save(Self.report([Self.scenario("Prefetch"), Self.scenario("Cache", status: .failed)]), "failed.json", in: directory)
        #expect(try Self.perfRun(["compare", base, failed, "--allow-missing"]).status == 1)
        // What the text says.
        let subset = try Self.perfRun(["compare", base, directory.appendingPathComponent("subset.json").path])
        #expect(subset.stdout.contains("\nregression  Cache: only in base (missing in head: a regression; --allow-missing if intended)\n"), "\(subset.stdout)")
        let lost = try Self.perfRun(["compare", base, directory.appendingPathComponent("lost-counter.json").path])
        #expect(lost.stdout.contains(": rowsRead 100 → none (missing); time "), "\(lost.stdout)")
    }

    @Test(arguments: [
        ("\"sqlStatements\" : 5", "\"sqlStatements\" : -5", "scenarios[0].counters.sqlStatements: -5 is negative (a count is 0 or more)"),
        ("\"wallSeconds\" : 0.1", "\"wallSeconds\" : -0.1", "scenarios[0].samples[0].wallSeconds: -0.1 is negative (a time is 0 or more)"),
        ("\"sqlStatements\" : 5", "\"sqlStatements\" : 1.5", "scenarios[0].counters.sqlStatements: 1.5 is not a whole number"),
        ("\"sqlStatements\" : 5", "\"sqlStatements\" : 1e30", "scenarios[0].counters.sqlStatements: 1e+30 is too big (at most 9223372036854775807)"),
        ("\"rowsRead\" : 100", "\"rowsRead\" : \"100\"", "scenarios[0].counters.rowsRead: expected a whole number, found a string"),
    ])
    func badValuesInAReportAreBadInput(original: String, replacement: String, message: String) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let base = try Self.save(Self.report([Self.scenario()]), "base.json", in: directory)
        let bad = try Self.save(Self.report([Self.scenario()]), "bad.json", in: directory) {
            let edited = $0.replacingOccurrences(of: original, with: replacement)
            #expect(edited != $0)
            return edited
        }
        for arguments in [["compare", base, bad], ["compare", bad, base], ["report", bad]] {
            let result = try Self.perfRun(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stdout)")
            #expect(result.stderr == "\(bad): \(message)\n")
        }
    }

    // MARK: Markdown does not pass HTML through (item 14)

    @Test func markdownEscapesHTMLFromReports() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let hostile = "<script>alert(1)</script><img src=x onerror=alert(2)>"
        var scenario = Self.scenario(hostile, status: .failed)
        scenario.error = "<img src=y onerror=alert(3)> | broken\nrow"
        let path = try Self.save(Self.report([scenario]), "hostile.json", in: directory)
        let report = try Self.perfRun(["report", path, "--markdown", "-"])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(!report.stdout.contains("<script"))
        #expect(!report.stdout.contains("<img"))
        #expect(report.stdout.contains(
            "| &lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt; | failed: &lt;img src=y onerror=alert(3)&gt; \\| broken row | 100 ms |"),
            "\(report.stdout)")
        let compared = try Self.perfRun(["compare", path, path, "--format", "markdown"])
        #expect(!compared.stdout.contains("<script"))
        #expect(!compared.stdout.contains("<img"))
    }

    // MARK: Reports and settings from pipes (item 15)

    @Test func reportsAndSettingsAreReadFromPipes() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let base = try Self.save(Self.report([Self.scenario()]), "base.json", in: directory)
        let json = try Data(contentsOf: URL(fileURLWithPath: base))
        let compared = try Self.perfRun(["compare", base, "/dev/stdin"], input: json)
        #expect(compared.status == 0, "\(compared.stderr)")
        #expect(compared.stdout.hasSuffix("verdict: no regression\n"))
        let summary = try Self.perfRun(["report", "/dev/stdin", "--markdown", "-"], input: json)
        #expect(summary.status == 0, "\(summary.stderr)")
        #expect(summary.stdout.hasPrefix("## Faultline run: 1 of 1 scenarios passed"))
        let thresholds = Data(#"{"counters": {"sqlStatements": {"absolute": 1}}}"#.utf8)
        let worse = try Self.save(Self.report([Self.scenario(counters: ["sqlStatements": 6, "rowsRead": 100])]), "worse.json", in: directory)
        let allowed = try Self.perfRun(["compare", base, worse, "--thresholds", "/dev/stdin"], input: thresholds)
        #expect(allowed.status == 0, "\(allowed.stdout)\(allowed.stderr)")
        let accepted = try Self.perfRun(["compare", base, base, "--accepted-insights", "/dev/stdin"], input: Data("full-scan/Selfie/name\n".utf8))
        #expect(accepted.status == 0, "\(accepted.stderr)")
        let floor = try Self.perfRun(["compare", base, base, "--noise-floor", "/dev/stdin"], input: Data(#"{"relative": 0.1, "absolute": 0.001, "scenarios": {}}"#.utf8))
        #expect(floor.status == 0, "\(floor.stderr)")
        // A directory is still bad input, in one line.
        let folder = try Self.perfRun(["compare", base, directory.path])
        #expect(folder.status == 2)
        #expect(folder.stderr == "\(directory.path): cannot read the file: Is a directory\n")
    }

    // MARK: A log from a FIFO or standard input, followed (item 10)

    @Test func followingAFIFOReadsItToItsEnd() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("app.log").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try Self.perfRun(["log", fifo, "--follow"], seconds: 20) {
            // The writer opens once perf-run reads, then writes and closes.
            var descriptor: Int32 = -1
            let deadline = Date().addingTimeInterval(10)
            while descriptor < 0, Date() < deadline {
                descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
                if descriptor < 0 { usleep(20_000) }
            }
            guard descriptor >= 0 else { return }
            _ = fcntl(descriptor, F_SETFL, 0)
            let text = "faultline: sql: SELECT 1\nfaultline: sql: SELECT 2\nfaultline: sql: SELECT 3"
            _ = text.withCString { write(descriptor, $0, strlen($0)) }
            close(descriptor)
        }
        #expect(!result.timedOut, "perf-run log --follow did not end at the FIFO's end: \(result.stdout)")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("3 log lines (faultline) of 3 read"), "\(result.stdout)")
    }

    @Test func followingStandardInputReadsItToItsEnd() throws {
        let result = try Self.perfRun(["log", "-", "--follow", "--json"], input: Data("faultline: sql: SELECT 1\nfaultline: sql: SELECT 2\n".utf8), seconds: 20)
        #expect(!result.timedOut)
        #expect(result.status == 0, "\(result.stderr)")
        let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let analysis = try JSONDecoder().decode(SQLLogAnalysis.self, from: Data(last.utf8))
        #expect(analysis.logLines == 2)
        let nothing = try Self.perfRun(["log", "-", "--follow"], input: Data("hello\n".utf8), seconds: 20)
        #expect(nothing.status == 2)
        #expect(nothing.stderr == "standard input: no SQL debug log lines in 1 lines (expected 'faultline: sql: …' or 'CoreData: sql: …')\n")
    }
}
