import Foundation
import Probes
import Reporting
import SQLLogViewer
import TestSupport
import Testing

/// What a hostile-user trial found, at the process level: counts at
/// `Int.max`, times that are no finite number, a standard error that
/// cannot be written. perf-run answers, never traps.
@Suite struct HostileTrialTests {
    /// Runs perf-run (``PerfRunProcess``); with `standardError`, its
    /// standard error is that file.
    static func perfRun(_ arguments: [String], standardError: String? = nil) throws -> CommandResult {
        try PerfRunProcess.run(arguments, standardError: standardError)
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-hostile-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func aReportOfHugeRowCountsRendersAsHTMLAndMarkdown() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var scenario = ScenarioReport(
            name: "Huge", description: "", dataSet: "selfies", status: .passed,
            samples: [Sample(wallSeconds: 0.1, cpuSeconds: 0.1, peakResidentBytes: nil)], counters: ["sqlStatements": Int.max])
        scenario.statements = [StatementReport(
            shape: "UPDATE \"T\" SET x = ?", purpose: "save", count: 1, totalSeconds: 0.1, maxSeconds: 0.1, rowsReturned: 1,
            rowsChanged: Int.max, fullScanSteps: 0, firstCallSite: "A.swift:1", queryPlan: nil)]
        let report = Report(
            tool: .init(name: "perf-run", version: "0.1.0", commandLine: []),
            environment: .init(operatingSystem: "Debian", cpuModel: "CPU", cores: 2, swiftVersion: "6.3", sqliteVersion: "3.40.1",
                               buildConfiguration: "release", gitCommit: nil, hostName: "ci"),
            configuration: .init(scale: 0.1, seed: 1, iterations: 1, warmup: 0, store: .file, timeoutSeconds: nil),
            scenarios: [scenario])
        let path = directory.appendingPathComponent("huge.json").path
        try ReportFile.json(report).write(to: URL(fileURLWithPath: path))
        let page = directory.appendingPathComponent("huge.html").path
        let ending = try Self.perfRun(["report", path, "--html", page, "--markdown", "-"])
        #expect(!ending.signaled)
        #expect(ending.status == 0, "\(ending.stderr)")
        #expect(ending.stdout.contains("| Huge | passed | 100 ms | \(Int.max.groupedDigits) |"))
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains("<td data-value=\"\(Int.max)\">\(Int.max.groupedDigits)</td>"))
    }

    @Test func aLogOfHugeRowCountsAddsUpToIntMax() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let statement = "faultline: sql: SELECT t0.pk FROM \"T\" t0\n"
            + "faultline: annotation: sql execution time: 0.000001s, rows: \(Int.max), changed: 0, purpose: fetch T\n"
        let path = directory.appendingPathComponent("rows.log").path
        try (statement + statement).write(toFile: path, atomically: true, encoding: .utf8)
        let ending = try Self.perfRun(["log", path, "--json"])
        #expect(!ending.signaled)
        #expect(ending.status == 0, "\(ending.stderr)")
        let analysis = try JSONDecoder().decode(SQLLogAnalysis.self, from: Data(ending.stdout.utf8))
        #expect(analysis.statements.map(\.rows) == [Int.max])
        #expect(analysis.statements.map(\.count) == [2])
    }

    /// Times that are no finite number (Core Data's `inf`, a number too
    /// large for a Double): unknown, counted, and valid JSON.
    @Test(arguments: [
        "CoreData: sql: SELECT 1\nCoreData: annotation: sql execution time: inf\n",
        "faultline: sql: SELECT 1\nfaultline: annotation: sql execution time: 1\(String(repeating: "0", count: 400))s, rows: 1, changed: 0, purpose: fetch T\n",
        "faultline: sql: SELECT 1\nfaultline: annotation: sql execution time: nan, rows: 1, changed: 0, purpose: fetch T\n",
    ])
    func aLogWithATimeThatIsNoFiniteNumberIsValidJSON(log: String) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("times.log").path
        try log.write(toFile: path, atomically: true, encoding: .utf8)
        let ending = try Self.perfRun(["log", "--json", path])
        #expect(!ending.signaled)
        #expect(ending.status == 0, "\(ending.stderr)")
        #expect(ending.stderr.isEmpty)
        let analysis = try JSONDecoder().decode(SQLLogAnalysis.self, from: Data(ending.stdout.utf8))
        #expect(analysis.statements.map(\.count) == [1])
        #expect(analysis.statements.map(\.totalSeconds) == [0])
        #expect(analysis.timesNotFinite == 1)
        #expect(analysis.firstTimeNotFiniteLine == 2)
        let text = try Self.perfRun(["log", path])
        #expect(text.status == 0)
        #expect(text.stdout.contains("1 statement time was not a finite number of seconds (inf, nan, too large) at line 2: taken as unknown"))
    }

    /// `--sql-debug 2` with standard error on a full device: the log stops,
    /// the run goes on and writes its report.
    @Test func aRunWhoseStandardErrorIsFullWritesItsReport() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("run.json").path
        let ending = try Self.perfRun(
            ["run", "FetchAll", "--scale", "0.02", "--iterations", "1", "--warmup", "0", "--sql-debug", "2", "--json", json,
             "--html", directory.appendingPathComponent("run.html").path],
            standardError: "/dev/full")
        #expect(!ending.signaled, "status \(ending.status)")
        // The log, an output of the run, was not written: exit code 2.
        #expect(ending.status == 2)
        let report = try ReportFile.read(json)
        #expect(report.scenarios.map(\.name) == ["FetchAll"])
        #expect(report.scenarios.map(\.status) == [.passed])
    }

    /// The same with `--sql-log` on a full device.
    @Test func aRunWhoseSQLLogIsFullWritesItsReport() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("run.json").path
        let ending = try Self.perfRun(
            ["run", "FetchAll", "--scale", "0.02", "--iterations", "1", "--warmup", "0", "--sql-debug", "2", "--sql-log", "/dev/full",
             "--json", json, "--html", directory.appendingPathComponent("run.html").path])
        #expect(!ending.signaled, "status \(ending.status): \(ending.stderr)")
        #expect(ending.status == 2)
        #expect(ending.stderr.hasSuffix("--sql-log /dev/full: cannot write: No space left on device (the log stops after 0 lines)\n"), "\(ending.stderr)")
        let report = try ReportFile.read(json)
        #expect(report.scenarios.map(\.status) == [.passed])
    }
}
