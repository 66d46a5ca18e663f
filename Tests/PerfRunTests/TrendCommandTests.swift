import Foundation
import Reporting
import TestSupport
import Testing

/// `perf-run trend` on histories written through the history store's API:
/// exit 0, 1 with `--fail-on regression` on a regression marked in the
/// window, 2 for bad input, a store it cannot read, or no runs; and the
/// one line for `--prometheus`.
@Suite struct TrendCommandTests {
    static let start = Date(timeIntervalSince1970: 1_740_000_000)  // 2025-02-19T21:20:00Z

    static func perfRun(_ arguments: [String]) throws -> CommandResult { try PerfRunProcess.run(arguments) }

    /// A store holding `runs`, as `perf-run history add` and `run --history`
    /// write one: the `--history` argument that opens it.
    static func makeHistory(_ runs: [HistoryRun]) throws -> String {
        let path = NSTemporaryDirectory() + "trend-history-\(UUID()).sqlite"
        try HistoryLocation(path, option: "--history").open().add(runs)
        return path
    }

    /// A run whose iterations took `times` (CPU and wall alike, unless
    /// `wall` gives the wall times).
    static func report(times: [Double], wall: [Double]? = nil, counters: [String: Int]) -> Report {
        let wall = wall ?? times
        var scenario = ScenarioReport(
            name: "FetchAll", description: "what FetchAll shows", dataSet: "selfies", status: .passed,
            samples: zip(times, wall).map { Sample(wallSeconds: $1, cpuSeconds: $0, peakResidentBytes: nil) }, counters: counters)
        scenario.summary = Summary(wallSeconds: Statistics(wall), cpuSeconds: Statistics(times))
        return Report(
            tool: .init(name: "perf-run", version: "0.2.0", commandLine: ["perf-run", "run"]),
            environment: .init(operatingSystem: "Debian", cpuModel: "cpu", cores: 2, swiftVersion: "6.3", sqliteVersion: "3.40.1",
                               buildConfiguration: "release", gitCommit: nil, hostName: "host"),
            configuration: .init(scale: 0.02, seed: 1, iterations: times.count, warmup: 1, store: .file, timeoutSeconds: nil),
            scenarios: [scenario])
    }

    /// 20 commits a day apart on one runner, 5 samples each around a level
    /// that wanders by up to 3% from one commit to the next; `level` and
    /// `statements` give each commit's level and statements, `waited` how
    /// many times its wall time is its CPU time (1: it never waited).
    static func runs(
        runner: String = "ci-small", level: (Int) -> Double = { _ in 0.002 }, statements: (Int) -> Int = { _ in 3 },
        waited: (Int) -> Double = { _ in 1 }
    ) -> [HistoryRun] {
        (0..<20).map { index in
            let commitLevel = level(index) * (1 + 0.03 * sin(Double(index) * 2.1))
            let times = [0.97, 0.99, 1.0, 1.01, 1.04].map { $0 * commitLevel }
            return HistoryRun(
                identity: RunIdentity(rawValue: "\(runner)-\(index)"), project: "acme/app", branch: "main", runner: runner,
                commit: commit(index), time: start.addingTimeInterval(Double(index) * 86_400),
                report: report(
                    times: times, wall: times.map { $0 * waited(index) }, counters: ["sqlStatements": statements(index), "fetches": 1]))
        }
    }

    /// A full hash whose first 12 characters tell it apart: `a0a0…`, `a1a1…`.
    static func commit(_ index: Int) -> String { String(repeating: String(format: "%02x", index + 0xA0), count: 20) }

    @Test func aSlowdownInTheNewestCommitFailsTheGate() throws {
        let history = try Self.makeHistory(Self.runs(level: { $0 == 19 ? 0.004 : 0.002 }))
        defer { try? FileManager.default.removeItem(atPath: history) }
        let gate = try Self.perfRun(["trend", "--history", history, "--fail-on", "regression"])
        #expect(gate.status == 1, "\(gate.stderr)")
        #expect(gate.stderr.isEmpty)
        #expect(gate.stdout.contains("1 regression · 0 improvements · 0 changes in 1 line"), "\(gate.stdout)")
        #expect(gate.stdout.contains("  ▲ \(Self.commit(19).prefix(12)) CPU time slower: "), "\(gate.stdout)")
        #expect(gate.stdout.contains("), a regression\n"))
        // Without --fail-on the trend is shown and the command succeeds.
        let shown = try Self.perfRun(["trend", "--history", history])
        #expect(shown.status == 0)
        #expect(shown.stdout == gate.stdout)
    }

    /// The "done when": a 20-commit history kept in a SQLite file and
    /// in a real PostgreSQL server, read back by `trend`: no mark and exit 0
    /// on an A/A history; a 2x slowdown from commit 12 on marked there, and
    /// exit 1 with `--fail-on regression`.
    @Test(arguments: HistoryStoreKind.allCases)
    func twentyCommitsInEitherStoreMarkWhereTheTimeMoved(kind: HistoryStoreKind) throws {
        for (slowFrom, expected) in [(nil, Int32(0)), (12, Int32(1))] as [(Int?, Int32)] {
            let store = try kind.newStore()
            let runs = Self.runs(runner: "ci-\(kind)", level: { index in slowFrom.map { index >= $0 ? 0.004 : 0.002 } ?? 0.002 })
            try HistoryLocation(store).open().add(runs)
            let gate = try Self.perfRun(["trend", "--history", store, "--runner", "ci-\(kind)", "--fail-on", "regression"])
            #expect(gate.status == expected, "\(kind) \(String(describing: slowFrom)): \(gate.stdout)\(gate.stderr)")
            if let slowFrom {
                #expect(gate.stdout.contains("1 regression · 0 improvements · 0 changes in 1 line"), "\(gate.stdout)")
                #expect(gate.stdout.contains("  ▲ \(Self.commit(slowFrom).prefix(12)) CPU time slower: "), "\(gate.stdout)")
            } else {
                #expect(gate.stdout.contains("0 regressions · 0 improvements · 0 changes in 1 line"), "\(gate.stdout)")
                // No mark at any commit (every commit of the history begins with "a").
                #expect(!gate.stdout.contains("  ▲ a") && !gate.stdout.contains("  ▼ a"), "\(gate.stdout)")
            }
        }
    }

    /// CPU time by default, as compare judges; wall time with `--timing wall`.
    @Test func cpuTimeIsJudgedByDefaultAndWallTimeWhenAsked() throws {
        // The newest commit's run waited for a core: its wall time doubled, its CPU time did not.
        let history = try Self.makeHistory(Self.runs(waited: { $0 == 19 ? 2 : 1 }))
        defer { try? FileManager.default.removeItem(atPath: history) }
        for arguments in [[], ["--timing", "cpu"]] {
            let cpu = try Self.perfRun(["trend", "--history", history, "--fail-on", "regression"] + arguments)
            #expect(cpu.status == 0, "\(arguments): \(cpu.stdout)\(cpu.stderr)")
            #expect(cpu.stdout.hasPrefix("Faultline trend (CPU time) from \(history)\n0 regressions · 0 improvements · 0 changes in 1 line\n"))
            #expect(cpu.stdout.contains("  commit        first run             CPU median [interval, n]\n"), "\(cpu.stdout)")
        }
        let wall = try Self.perfRun(["trend", "--history", history, "--fail-on", "regression", "--timing", "wall"])
        #expect(wall.status == 1, "\(wall.stdout)\(wall.stderr)")
        #expect(wall.stdout.hasPrefix("Faultline trend (wall time) from \(history)\n1 regression · 0 improvements · 0 changes in 1 line\n"))
        #expect(wall.stdout.contains("  ▲ \(Self.commit(19).prefix(12)) wall time slower: "), "\(wall.stdout)")
        let json = try Self.perfRun(["trend", "--history", history, "--timing", "wall", "--format", "json"])
        let trend = try JSONDecoder().decode(Trend.self, from: Data(json.stdout.utf8))
        #expect(trend.timing == .wall)
        #expect(trend.regressions.map(\.measure) == [.time(.wall)])
        let bad = try Self.perfRun(["trend", "--history", history, "--timing", "user"])
        #expect(bad.status == 2)
        #expect(bad.stdout.isEmpty && bad.stderr.contains("--timing") && bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
    }

    @Test func aCounterIncreaseInTheNewestCommitFailsTheGate() throws {
        let history = try Self.makeHistory(Self.runs(statements: { $0 == 19 ? 4 : 3 }))
        defer { try? FileManager.default.removeItem(atPath: history) }
        let gate = try Self.perfRun(["trend", "--history", history, "--fail-on", "regression"])
        #expect(gate.status == 1, "\(gate.stderr)")
        #expect(gate.stdout.contains("  ▲ \(Self.commit(19).prefix(12)) sqlStatements 3 → 4, a regression\n"), "\(gate.stdout)")
        #expect(!gate.stdout.contains("CPU time slower"))
    }

    @Test func noRegressionPassesTheGate() throws {
        // Steady; then fewer statements and faster: improvements.
        for runs in [Self.runs(), Self.runs(level: { $0 >= 10 ? 0.001 : 0.002 }, statements: { $0 >= 15 ? 2 : 3 })] {
            let history = try Self.makeHistory(runs)
            defer { try? FileManager.default.removeItem(atPath: history) }
            let gate = try Self.perfRun(["trend", "--history", history, "--fail-on", "regression", "--format", "json"])
            #expect(gate.status == 0, "\(gate.stderr)")
            let trend = try JSONDecoder().decode(Trend.self, from: Data(gate.stdout.utf8))
            #expect(!trend.hasRegression)
            #expect(trend.lines.map(\.commits.count) == [20])
            if runs.contains(where: { $0.report.scenarios[0].counters["sqlStatements"] == 2 }) {
                #expect(trend.changes.map(\.verdict) == [.improvement, .improvement])
                #expect(trend.changes.map(\.commit) == [Self.commit(10), Self.commit(15)])
            } else {
                #expect(trend.changes.isEmpty)
            }
        }
    }

    @Test func theWindowAndTheFiltersChooseTheRuns() throws {
        // A slowdown at commit 5 on ci-small, and a steady ci-large.
        let history = try Self.makeHistory(Self.runs(level: { $0 >= 5 ? 0.004 : 0.002 }) + Self.runs(runner: "ci-large"))
        defer { try? FileManager.default.removeItem(atPath: history) }
        let all = try Self.perfRun(["trend", "--history", history, "--fail-on", "regression", "--format", "json"])
        #expect(all.status == 1)
        let trend = try JSONDecoder().decode(Trend.self, from: Data(all.stdout.utf8))
        #expect(trend.lines.map(\.key.runner) == ["ci-large", "ci-small"])
        #expect(trend.regressions.map(\.commit) == [Self.commit(5)])
        // The runner that did not slow down passes.
        let large = try Self.perfRun(["trend", "FetchAll", "--history", history, "--runner", "ci-large", "--fail-on", "regression"])
        #expect(large.status == 0, "\(large.stderr)")
        // Since commit 8 (a date, then a time): the slowdown is before the window.
        for since in ["2025-02-27", "2025-02-27T21:20:00Z"] {
            let recent = try Self.perfRun(["trend", "--history", history, "--since", since, "--fail-on", "regression", "--format", "json"])
            #expect(recent.status == 0, "\(recent.stderr)")
            let window = try JSONDecoder().decode(Trend.self, from: Data(recent.stdout.utf8))
            #expect(window.lines.map(\.commits.first?.commit) == [Self.commit(8), Self.commit(8)])
        }
    }

    @Test func prometheusIsNoLongerASource() throws {
        let result = try Self.perfRun(["trend", "--prometheus", "http://127.0.0.1:9090", "--since", "30d"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "--prometheus: trend reads the history store (--history); Prometheus keeps only the latest values per group (docs/prometheus.md)\n")
    }

    @Test func badInputExitsWithTwoAndOneLine() throws {
        let history = try Self.makeHistory(Self.runs())
        defer { try? FileManager.default.removeItem(atPath: history) }
        let garbage = NSTemporaryDirectory() + "trend-garbage-\(UUID()).sqlite"
        try Data("not a history store at all\n".utf8).write(to: URL(fileURLWithPath: garbage))
        defer { try? FileManager.default.removeItem(atPath: garbage) }
        let cases: [([String], String)] = [
            (["trend"], "--history: the history store to read (a SQLite file path or a postgres:// URL) is required\n"),
            (["trend", "--history", history, "--since", "yesterday"],
             "--since yesterday: not a date (2025-03-01, 2025-03-01T12:00:00Z) or a duration (30d, 12h, 1w2d, 90m)\n"),
            (["trend", "--history", history, "--label", "runner=x"], "--label: trend reads the history store; choose runs with --project, --branch and --runner\n"),
            (["trend", "--history", history, "--branch", "release"], "--history \(history): no passed runs of branch release\n"),
            (["trend", "--history", history, "--since", "2030-01-01"], "--history \(history): no passed runs since 2030-01-01T00:00:00Z\n"),
            (["trend", "Prefetch", "--history", history, "--runner", "ci-large"], "--history \(history): no passed runs of runner ci-large\n"),
            (["trend", "Prefetch", "--history", history], "scenario Prefetch: no passed runs in \(history) (there are: FetchAll)\n"),
            (["trend", "--history", history, "--fail-on", "improvement"],
             "The value 'improvement' is invalid for '--fail-on <fail-on>'. Please provide one of 'regression'.\n"),
            (["trend", "--history", history, "--format", "junit"], "--format: trend writes text, json, markdown, html\n"),
        ]
        for (arguments, message) in cases {
            let result = try Self.perfRun(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr == message, "\(arguments)")
        }
        // A store that cannot be read: one line that names it.
        let unreadable = try Self.perfRun(["trend", "--history", garbage])
        #expect(unreadable.status == 2)
        #expect(unreadable.stderr.contains(garbage) && unreadable.stderr.split(separator: "\n").count == 1, "\(unreadable.stderr)")
    }

    @Test func theHelpSaysWhatIsMarked() throws {
        let help = try Self.perfRun(["trend", "--help"])
        #expect(help.status == 0)
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("--history <store>"))
        #expect(text.contains("--fail-on <fail-on>"))
        #expect(text.contains("a change point where a line's time moved beyond its own noise"))
        #expect(text.contains("--timing <timing>"))
        #expect(text.contains("CPU time by default (--timing)"))
        #expect(text.contains("more of a cost (statements, rows, faults) a regression, less an improvement"))
        #expect(!text.contains("--prometheus"))
    }
}
