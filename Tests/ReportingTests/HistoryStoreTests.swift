import Foundation
import Reporting
import TestSupport
import Testing

/// The two history stores, each against the real thing: a SQLite file, and
/// a PostgreSQL server started by the test on loopback
/// (``PostgreSQLTestServer``). The same checks for both.
@Suite struct HistoryStoreTests {
    typealias Kind = HistoryStoreKind

    static let start = Date(timeIntervalSince1970: 1_780_000_000)

    /// A small report whose FetchAll ran `statements` statements in `wall` seconds.
    static func report(commit: String, statements: Int = 3, wall: [Double] = [0.0015, 0.002, 0.0025]) -> Report {
        var scenario = ScenarioReport(
            name: "FetchAll", description: "fetches every row", dataSet: "selfies", status: .passed,
            samples: wall.map { Sample(wallSeconds: $0, cpuSeconds: $0, peakResidentBytes: nil) },
            counters: ["sqlStatements": statements, "rowsRead": 30], values: ["coldSeconds": 0.1 + Double(statements) / 7])
        scenario.summary = Summary(wallSeconds: Statistics(wall), cpuSeconds: Statistics(wall))
        return Report(
            tool: .init(name: "perf-run", version: "0.2.0", commandLine: ["perf-run", "run"]),
            environment: .init(
                operatingSystem: "Debian", cpuModel: "cpu", cores: 2, swiftVersion: "6.3", sqliteVersion: "3.40.1",
                buildConfiguration: "debug", gitCommit: commit, hostName: "ci-host"),
            configuration: .init(scale: 0.02, seed: 1, iterations: 3, warmup: 1, store: .file, timeoutSeconds: nil),
            scenarios: [scenario])
    }

    /// The `index`th run of a history: its own identity, commit and time.
    static func run(_ index: Int, project: String = "acme/shop", branch: String = "main", runner: String = "ci-large") -> HistoryRun {
        var report = report(commit: String(format: "%040x", index + 1), statements: 3 + index)
        report.run = Report.RunStamp(identifier: "run-\(index)", time: start.addingTimeInterval(Double(index) * 60))
        return HistoryRun(
            identity: RunIdentity(rawValue: "run-\(index)"), project: project, branch: branch, runner: runner,
            commit: report.environment.gitCommit!, time: report.run!.time, report: report)
    }

    @Test(arguments: Kind.allCases)
    func runsComeBackWholeOldestFirst(kind: Kind) throws {
        let location = try HistoryLocation(try kind.newStore())
        let store = try location.open()
        #expect(try store.runs(HistoryQuery()).isEmpty)
        // Added newest first: read back oldest first.
        let runs = [Self.run(2), Self.run(0), Self.run(1)]
        #expect(try store.add(runs) == 3)
        let back = try store.runs(HistoryQuery())
        #expect(back.map(\.identity.rawValue) == ["run-0", "run-1", "run-2"])
        #expect(back == [Self.run(0), Self.run(1), Self.run(2)])
        // Another connection (a later command) reads the same.
        #expect(try location.open(.existing).runs(HistoryQuery()) == back)
    }

    @Test(arguments: Kind.allCases)
    func addingAgainKeepsOneRunAndNeverReplacesIt(kind: Kind) throws {
        let store = try HistoryLocation(try kind.newStore()).open()
        #expect(try store.add([Self.run(0), Self.run(1)]) == 2)
        #expect(try store.add([Self.run(0), Self.run(1)]) == 0)
        // A run with a kept identity but other labels: the kept one stays.
        var relabelled = Self.run(1)
        relabelled.branch = "elsewhere"
        relabelled.report.scenarios[0].counters["sqlStatements"] = 999
        #expect(try store.add([relabelled, Self.run(2), Self.run(2)]) == 1)
        let back = try store.runs(HistoryQuery())
        #expect(back == [Self.run(0), Self.run(1), Self.run(2)])
        #expect(try store.add([]) == 0)
    }

    @Test(arguments: Kind.allCases)
    func queriesFilterByProjectBranchRunnerAndTime(kind: Kind) throws {
        let store = try HistoryLocation(try kind.newStore()).open()
        try store.add([
            Self.run(0), Self.run(1, branch: "feature/x"), Self.run(2, runner: "ci-small"), Self.run(3, project: "acme/other"),
            Self.run(4), Self.run(5, branch: "feature/x", runner: "ci-small"),
        ])
        func identities(_ query: HistoryQuery) throws -> [String] { try store.runs(query).map(\.identity.rawValue) }
        #expect(try identities(HistoryQuery(project: "acme/shop")) == ["run-0", "run-1", "run-2", "run-4", "run-5"])
        #expect(try identities(HistoryQuery(branch: "feature/x")) == ["run-1", "run-5"])
        #expect(try identities(HistoryQuery(runner: "ci-small")) == ["run-2", "run-5"])
        #expect(try identities(HistoryQuery(project: "acme/shop", branch: "main", runner: "ci-large")) == ["run-0", "run-4"])
        // Since is inclusive, to the microsecond.
        #expect(try identities(HistoryQuery(since: Self.start.addingTimeInterval(180))) == ["run-3", "run-4", "run-5"])
        #expect(try identities(HistoryQuery(since: Self.start.addingTimeInterval(180.000001))) == ["run-4", "run-5"])
        #expect(try identities(HistoryQuery(branch: "main", since: Self.start.addingTimeInterval(60))) == ["run-2", "run-3", "run-4"])
        #expect(try identities(HistoryQuery(project: "nobody")) == [])
        // A value is a value, never SQL.
        #expect(try identities(HistoryQuery(project: "x' OR '1'='1")) == [])
    }

    /// Eight writers at once, each with its own connection, on a store
    /// none has made yet: every run lands, the tables are made once.
    @Test(arguments: Kind.allCases)
    func concurrentWritersLoseNothing(kind: Kind) throws {
        let location = try HistoryLocation(try kind.newStore())
        let writers = 8
        let perWriter = 10
        final class Outcome: @unchecked Sendable {
            let lock = NSLock()
            var added = 0
            var errors: [String] = []
        }
        let outcome = Outcome()
        let group = DispatchGroup()
        // Threads of their own: every writer runs at once, whatever the cores.
        for writer in 0..<writers {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    let store = try location.open()
                    for index in 0..<perWriter {
                        // Each adds its own run and one that every writer adds.
                        let added = try store.add([Self.run(writer * perWriter + index), Self.run(1_000 + index)])
                        outcome.lock.withLock { outcome.added += added }
                    }
                } catch {
                    outcome.lock.withLock { outcome.errors.append("\(error)") }
                }
            }.start()
        }
        group.wait()
        #expect(outcome.errors == [])
        #expect(outcome.added == writers * perWriter + perWriter)
        let kept = try location.open(.existing).runs(HistoryQuery())
        #expect(kept.count == writers * perWriter + perWriter)
        #expect(Set(kept.map(\.identity)).count == kept.count)
    }

    @Test(arguments: Kind.allCases)
    func readingAHistoryThatDoesNotExistIsAnErrorNotAnEmptyHistory(kind: Kind) throws {
        let location = try HistoryLocation(try kind.newStore())
        #expect(throws: HistoryError.self) { try location.open(.existing) }
        do {
            _ = try location.open(.existing)
        } catch {
            #expect(error.description.hasPrefix("--history \(location): "))
            #expect(error.description.contains("perf-run history add creates it"))
        }
    }

    @Test func aSQLiteFileOfSomethingElseIsRefusedAndLeftAlone() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Not a database at all.
        let json = directory.appendingPathComponent("report.json")
        try Data(#"{"schemaVersion": 4}"#.utf8).write(to: json)
        #expect(throws: HistoryError("--history \(json.path): cannot open: file is not a database")) {
            try HistoryLocation(json.path).open()
        }
        #expect(try Data(contentsOf: json) == Data(#"{"schemaVersion": 4}"#.utf8))
        // A path that cannot be made.
        #expect(throws: HistoryError("--history /proc/nowhere/history.sqlite: cannot open: unable to open database file")) {
            try HistoryLocation("/proc/nowhere/history.sqlite").open()
        }
    }

    @Test func aPostgreSQLDatabaseThatCannotBeWrittenIsAnErrorWithTheServersReason() throws {
        let server = try PostgreSQLTestServer.shared()
        let url = try server.createDatabase()
        let database = String(url.split(separator: "/").last!)
        try server.psql("ALTER DATABASE \(database) SET default_transaction_read_only = on")
        let location = try HistoryLocation(url)
        #expect(throws: HistoryError("--history \(url): cannot create the history's tables: cannot execute CREATE TABLE in a read-only transaction")) {
            try location.open()
        }
        // Made while writable, then read-only: reading works, adding is refused.
        let url2 = try server.createDatabase()
        try HistoryLocation(url2).open().add([Self.run(0)])
        try server.psql("ALTER DATABASE \(url2.split(separator: "/").last!) SET default_transaction_read_only = on")
        let store = try HistoryLocation(url2).open(.existing)
        #expect(try store.runs(HistoryQuery()).map(\.identity.rawValue) == ["run-0"])
        #expect(throws: HistoryError("--history \(url2): cannot add runs: cannot execute INSERT in a read-only transaction")) {
            try store.add([Self.run(1)])
        }
    }

    @Test func aNewerSchemaIsRefusedNotMisread() throws {
        let server = try PostgreSQLTestServer.shared()
        let url = try server.createDatabase()
        try HistoryLocation(url).open().add([Self.run(0)])
        try server.psql("UPDATE faultline_history_schema SET version = 99", database: String(url.split(separator: "/").last!))
        #expect(throws: HistoryError("--history \(url): the history's schema version 99 is newer than this tool's (1): use a newer perf-run")) {
            try HistoryLocation(url).open()
        }
    }

    @Test func aServerThatCannotBeReachedIsNamedWithoutItsPassword() throws {
        let port = try PostgreSQLTestServer.freePort()
        let location = try HistoryLocation("postgresql://ci:s3cr%65t@127.0.0.1:\(port)/perf?connect_timeout=5")
        do {
            _ = try location.open()
            Issue.record("opened a store where nothing listens")
        } catch {
            #expect(error.description.hasPrefix("--history postgresql://ci:***@127.0.0.1:\(port)/perf?connect_timeout=5: cannot connect: "))
            #expect(error.description.contains("Connection refused"))
            #expect(!error.description.contains("s3cr"))
        }
    }
}
