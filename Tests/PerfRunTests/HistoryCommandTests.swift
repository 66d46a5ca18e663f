import Foundation
import Reporting
import TestSupport
import Testing

/// `perf-run history add|list` and `run --history`, run as a user runs
/// them, against a SQLite file and a real PostgreSQL server.
@Suite struct HistoryCommandTests {
    /// No CI variable of the machine running the tests leaks into the labels.
    static let cleanEnvironment: [String: String] = Dictionary(
        uniqueKeysWithValues: HistoryLabels.environmentVariables.flatMap(\.variables).map { ($0, "") })

    static func perfRun(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> CommandResult {
        try PerfRunProcess.run(arguments, in: directory, environment: cleanEnvironment.merging(environment) { $1 })
    }

    static func scratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-history-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A report file: stamped with `identifier` (nil: an older, unstamped report).
    static func writeReport(in directory: URL, name: String, commit: String, identifier: String?, statements: Int = 3) throws -> String {
        var scenario = ScenarioReport(
            name: "FetchAll", description: "fetches every row", dataSet: "selfies", status: .passed,
            samples: [Sample(wallSeconds: 0.002, cpuSeconds: 0.002, peakResidentBytes: nil)], counters: ["sqlStatements": statements])
        scenario.summary = Summary(wallSeconds: Statistics([0.002]), cpuSeconds: Statistics([0.002]))
        var report = Report(
            tool: .init(name: "perf-run", version: "0.2.0", commandLine: ["perf-run", "run"]),
            environment: .init(
                operatingSystem: "Debian", cpuModel: "cpu", cores: 2, swiftVersion: "6.3", sqliteVersion: "3.40.1",
                buildConfiguration: "debug", gitCommit: commit, hostName: "report-host"),
            configuration: .init(scale: 0.02, seed: 1, iterations: 1, warmup: 0, store: .file, timeoutSeconds: nil),
            scenarios: [scenario])
        report.run = identifier.map { Report.RunStamp(identifier: $0, time: Date(timeIntervalSince1970: 1_780_000_000 + Double(statements))) }
        let path = directory.appendingPathComponent(name).path
        try ReportFile.write(report, to: path)
        return path
    }

    static func list(_ store: String, _ filters: [String] = []) throws -> [HistoryListing.Entry] {
        let result = try perfRun(["history", "list", "--history", store, "--format", "json"] + filters)
        try #require(result.status == 0, "\(result.stderr)")
        return try JSONDecoder().decode([HistoryListing.Entry].self, from: Data(result.stdout.utf8))
    }

    @Test(arguments: HistoryStoreKind.allCases)
    func addKeepsEachRunOnceWithItsLabels(kind: HistoryStoreKind) throws {
        let directory = try Self.scratchDirectory()
        let store = try kind.newStore()
        let first = try Self.writeReport(in: directory, name: "a.json", commit: "aaaa111", identifier: "run-a")
        let environment = ["FAULTLINE_PROJECT": "acme/shop", "GITHUB_REF_NAME": "main"]
        var result = try Self.perfRun(["history", "add", first, "--history", store], environment: environment)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let shown = try HistoryLocation(store).description
        #expect(result.stdout == "1 new run added to \(shown)\n")
        // Again, and with another report: one new, one kept already.
        let second = try Self.writeReport(in: directory, name: "b.json", commit: "bbbb222", identifier: "run-b", statements: 5)
        result = try Self.perfRun(["history", "add", first, second, "--history", store], environment: environment)
        #expect(result.stdout == "1 new run added to \(shown) (1 kept already)\n")
        #expect(result.status == 0)
        // The options win over the environment; the report's commit and host are the defaults.
        let third = try Self.writeReport(in: directory, name: "c.json", commit: "cccc333", identifier: "run-c", statements: 7)
        result = try Self.perfRun(
            ["history", "add", third, "--history", store, "--branch", "feature/x", "--runner", "big", "--commit", "dddd444"],
            environment: environment)
        #expect(result.status == 0, "\(result.stderr)")

        let entries = try Self.list(store)
        #expect(entries.map(\.identity.rawValue) == ["run-a", "run-b", "run-c"])
        #expect(entries.map(\.project) == ["acme/shop", "acme/shop", "acme/shop"])
        #expect(entries.map(\.branch) == ["main", "main", "feature/x"])
        #expect(entries.map(\.runner) == ["report-host", "report-host", "big"])
        #expect(entries.map(\.commit) == ["aaaa111", "bbbb222", "dddd444"])
        #expect(entries.map(\.time) == ["2026-05-28T20:26:43.000000Z", "2026-05-28T20:26:45.000000Z", "2026-05-28T20:26:47.000000Z"])
        #expect(try Self.list(store, ["--branch", "main"]).map(\.identity.rawValue) == ["run-a", "run-b"])
        #expect(try Self.list(store, ["--runner", "big", "--project", "acme/shop"]).map(\.identity.rawValue) == ["run-c"])
        #expect(try Self.list(store, ["--since", "2026-05-28T20:26:45Z"]).map(\.identity.rawValue) == ["run-b", "run-c"])
        #expect(try Self.list(store, ["--since", "2026-05-29"]).isEmpty)

        // The text listing: a line per run.
        let text = try Self.perfRun(["history", "list", "--history", store, "--branch", "main"])
        #expect(text.stdout == """
            time                  project    branch  runner       commit   scale  scenarios  run
            2026-05-28T20:26:43Z  acme/shop  main    report-host  aaaa111  0.02   1          run-a
            2026-05-28T20:26:45Z  acme/shop  main    report-host  bbbb222  0.02   1          run-b
            2 runs

            """)
    }

    /// A report written before runs were stamped: kept by the digest of its
    /// bytes, so adding it twice keeps one run and two such reports two.
    @Test func anUnstampedReportIsKeptByItsDigest() throws {
        let directory = try Self.scratchDirectory()
        let store = directory.appendingPathComponent("h.sqlite").path
        let old = try Self.writeReport(in: directory, name: "old.json", commit: "0ld", identifier: nil)
        let other = try Self.writeReport(in: directory, name: "other.json", commit: "0ld", identifier: nil, statements: 4)
        let environment = ["FAULTLINE_BRANCH": "main"]
        #expect(try Self.perfRun(["history", "add", old, "--history", store], in: directory, environment: environment).status == 0)
        let again = try Self.perfRun(["history", "add", old, other, "--history", store], in: directory, environment: environment)
        #expect(again.stdout.hasPrefix("1 new run added to \(store) (1 kept already)"))
        let entries = try Self.list(store)
        let digest = RunIdentity.of(try ReportFile.read(old), bytes: try Data(contentsOf: URL(fileURLWithPath: old)))
        #expect(entries.count == 2)
        #expect(entries.map(\.identity).contains(digest))
        #expect(digest.rawValue.hasPrefix("sha256:") && digest.rawValue.count == 7 + 64)
        // The project defaults to the current directory's name.
        #expect(entries.map(\.project) == [directory.lastPathComponent, directory.lastPathComponent])
    }

    /// Six `history add` processes at once on a store none of them has
    /// made: every run lands once.
    @Test(arguments: HistoryStoreKind.allCases)
    func processesAddingAtOnceLoseNothing(kind: HistoryStoreKind) throws {
        let directory = try Self.scratchDirectory()
        let store = try kind.newStore()
        let shared = try Self.writeReport(in: directory, name: "shared.json", commit: "5ha2ed", identifier: "run-shared")
        let processes = (0..<6).map { writer in
            let reports = (0..<3).map { index in
                try! Self.writeReport(in: directory, name: "w\(writer)-\(index).json", commit: "c\(writer)\(index)", identifier: "run-\(writer)-\(index)")
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: PerfRunProcess.executable)
            process.arguments = ["history", "add"] + reports + [shared, "--history", store, "--branch", "main"]
            process.environment = ProcessInfo.processInfo.environment.merging(Self.cleanEnvironment) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            return process
        }
        for process in processes { try process.run() }
        for process in processes { process.waitUntilExit() }
        #expect(processes.map(\.terminationStatus) == [0, 0, 0, 0, 0, 0])
        let entries = try Self.list(store)
        #expect(entries.count == 6 * 3 + 1)
        #expect(Set(entries.map(\.identity)).count == entries.count)
    }

    /// `run --history`: the run is kept, labelled with `--commit`; the
    /// report carries its run stamp, and its command line no password.
    @Test(arguments: HistoryStoreKind.allCases)
    func runRecordsTheRunItMade(kind: HistoryStoreKind) throws {
        let directory = try Self.scratchDirectory()
        var store = try kind.newStore()
        // The test server trusts loopback: a password is given, and never needed.
        if kind == .postgreSQL { store = store.replacingOccurrences(of: "://\(PostgreSQLTestServer.user)@", with: "://\(PostgreSQLTestServer.user):s3cret@") }
        let commit = String(repeating: "ab", count: 20)
        let result = try Self.perfRun(
            ["run", "FetchAll", "--scale", "0.02", "--iterations", "1", "--warmup", "0", "--json", "r.json", "--commit", commit, "--history", store,
             "--branch", "main", "--project", "acme/shop"],
            in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try ReportFile.read(directory.appendingPathComponent("r.json").path)
        #expect(report.environment.gitCommit == commit)
        let stamp = try #require(report.run)
        #expect(result.stdout.contains("history: run \(stamp.identifier) kept in \(try HistoryLocation(store))\n"))
        #expect(!result.stdout.contains("s3cret"))
        #expect(!report.tool.commandLine.joined(separator: " ").contains("s3cret"))
        #expect(report.tool.commandLine.contains("--history"))
        let entries = try Self.list(store)
        #expect(entries.map(\.identity.rawValue) == [stamp.identifier])
        #expect(entries.map(\.commit) == [commit])
        #expect(entries.map(\.time) == [HistoryTime.text(stamp.time)])
        #expect(entries.map(\.runner) == [report.environment.hostName])
    }

    /// `publish --history`: the report is kept first, so that a Pushgateway
    /// that cannot be reached (it keeps only the latest push anyway) loses
    /// nothing; the run is kept once however often it is published.
    @Test func publishKeepsTheReportInTheHistoryFirst() throws {
        let directory = try Self.scratchDirectory()
        let store = directory.appendingPathComponent("history.sqlite").path
        let report = try Self.writeReport(in: directory, name: "a.json", commit: "cccc333", identifier: "run-c")
        let unreachable = "http://127.0.0.1:\(try PostgreSQLTestServer.freePort())"
        for _ in 0..<2 {
            let result = try Self.perfRun(
                ["publish", report, "--pushgateway", unreachable, "--history", store, "--branch", "main", "--project", "acme/shop"])
            #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("history: run run-c "), "\(result.stdout)")
        }
        let entries = try Self.list(store)
        #expect(entries.map(\.identity.rawValue) == ["run-c"])
        #expect(entries.map(\.commit) == ["cccc333"])
        #expect(entries.map(\.branch) == ["main"])
        // The labels go with --history, which goes with a push.
        let labelsAlone = try Self.perfRun(["publish", report, "--pushgateway", unreachable, "--branch", "main"])
        #expect(labelsAlone.status == 2)
        #expect(labelsAlone.stderr.contains("add --history URL"), "\(labelsAlone.stderr)")
        let withDelete = try Self.perfRun(["publish", report, "--pushgateway", unreachable, "--delete", "--history", store])
        #expect(withDelete.status == 2)
        #expect(withDelete.stderr.contains("not with --delete"), "\(withDelete.stderr)")
    }

    /// Labels from the environment reach the terminal escaped.
    @Test func aLabelWithControlCharactersIsShownEscaped() throws {
        let directory = try Self.scratchDirectory()
        let store = directory.appendingPathComponent("h.sqlite").path
        let report = try Self.writeReport(in: directory, name: "a.json", commit: "abc", identifier: "run-a")
        let added = try Self.perfRun(["history", "add", report, "--history", store], environment: ["FAULTLINE_BRANCH": "evil\u{1B}[2J"])
        #expect(added.status == 0)
        let text = try Self.perfRun(["history", "list", "--history", store])
        #expect(text.status == 0)
        #expect(!text.stdout.contains("\u{1B}"))
        #expect(text.stdout.contains("evil"))
        #expect(try Self.list(store).map(\.branch) == ["evil\u{1B}[2J"])
    }

    /// A store that cannot be written: exit 2, one line with the reason,
    /// and the reports are kept.
    @Test(arguments: HistoryStoreKind.allCases)
    func runWithAStoreThatCannotBeWrittenExitsTwoAndKeepsTheReports(kind: HistoryStoreKind) throws {
        let directory = try Self.scratchDirectory()
        let store: String
        let reason: String
        switch kind {
        case .sqlite:
            store = "/proc/nowhere/history.sqlite"
            reason = "--history /proc/nowhere/history.sqlite: cannot open: unable to open database file\n"
        case .postgreSQL:
            let server = try PostgreSQLTestServer.shared()
            store = try server.createDatabase()
            try server.psql("ALTER DATABASE \(store.split(separator: "/").last!) SET default_transaction_read_only = on")
            reason = "--history \(store): cannot create the history's tables: cannot execute CREATE TABLE in a read-only transaction\n"
        }
        let result = try Self.perfRun(
            ["run", "FetchAll", "--scale", "0.02", "--iterations", "1", "--warmup", "0", "--quiet", "--json", "r.json", "--history", store,
             "--branch", "main", "--commit", "abc123"],
            in: directory)
        #expect(result.status == 2)
        #expect(result.stderr == reason)
        let report = try ReportFile.read(directory.appendingPathComponent("r.json").path)
        #expect(report.scenarios.map(\.name) == ["FetchAll"])
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("r.html").path))
    }

    @Test func badInputIsOneLineAndExitTwo() throws {
        let directory = try Self.scratchDirectory()
        let report = try Self.writeReport(in: directory, name: "a.json", commit: "abc", identifier: "run-a")
        let noCommit = try Self.writeReport(in: directory, name: "n.json", commit: "", identifier: "run-n")
        let store = directory.appendingPathComponent("h.sqlite").path
        let cases: [([String], String)] = [
            (["history", "add", report, "--history", "ftp://host/x"],
             "--history ftp://…: not a kind of history store (a SQLite file path, sqlite:PATH, or postgresql://…)\n"),
            (["history", "add", report, "--history", "postgresql://u:hunter2@host/db?bogus=1"],
             "--history postgresql://u:***@host/db?bogus=1: not a PostgreSQL URL: invalid URI query parameter: \"bogus\"\n"),
            (["history", "add", report, "--history", ""], "--history: an empty location: give a SQLite file path or a postgresql:// URL\n"),
            (["history", "add", report, "--history", store], "\(report): no branch for the history: give --branch (or set FAULTLINE_BRANCH)\n"),
            (["history", "add", noCommit, "--history", store, "--branch", "main"],
             "\(noCommit): the report names no commit (environment.gitCommit): give --commit\n"),
            (["history", "add", directory.appendingPathComponent("missing.json").path, "--history", store, "--branch", "main"],
             "\(directory.appendingPathComponent("missing.json").path): cannot read the file: No such file or directory\n"),
            (["history", "add", report, "--history", store, "--branch", ""], "--branch: an empty value\n"),
            (["history", "list", "--history", store], "--history \(store): no such file (perf-run history add creates it)\n"),
            (["history", "list", "--history", store, "--since", "yesterday"],
             "--since: not a date or time (2025-06-01, or 2025-06-01T12:00:00Z): yesterday\n"),
            (["run", "FetchAll", "--branch", "main"], "--project, --branch and --runner label what --history keeps: add --history URL\n"),
            (["run", "FetchAll", "--history", store], "--history: no branch to keep the run under: give --branch (or set FAULTLINE_BRANCH)\n"),
            (["run", "FetchAll", "--commit", ""], "--commit: an empty value\n"),
        ]
        for (arguments, message) in cases {
            let result = try Self.perfRun(arguments, in: directory)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr == message, "\(arguments)")
        }
        // Nothing was made by the refused commands.
        #expect(!FileManager.default.fileExists(atPath: store))
    }
}
