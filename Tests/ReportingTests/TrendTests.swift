import Foundation
import Probes
import Reporting
import Testing
import ToolSupport

/// The trend built from a history's runs: its lines, commits, counters and
/// changes, through a store as `perf-run trend` reads it.
@Suite struct TrendTests {
    static func run(
        _ commit: String, at hour: Double, runner: String = "ci-small", scale: Double = 0.02, scenario: String = "FetchAll", times: [Double],
        wall: [Double]? = nil, probe: [Double]? = nil, counters: [String: Int] = ["sqlStatements": 3], advisory: [String] = [],
        status: ScenarioReport.Status = .passed, identity: String? = nil
    ) -> HistoryRun {
        HistoryRun(
            identity: RunIdentity(rawValue: identity ?? "\(runner)-\(scale)-\(scenario)-\(commit)-\(hour)"), project: "acme/app", branch: "main",
            runner: runner, commit: commit, time: SyntheticHistory.start.addingTimeInterval(hour * 3_600),
            report: SyntheticHistory.report(
                scenario: scenario, times: times, wall: wall, probe: probe, counters: counters, advisory: advisory, scale: scale, status: status))
    }

    static func trend(_ runs: [HistoryRun], scenarios: [String] = [], timing: TimingMeasure = .cpu) -> Trend {
        let store = InMemoryHistoryStore(runs)
        let window = Trend.Window(HistoryQuery(), scenarios: scenarios)
        return Trend(runs: store.runs(window.query), source: "history.sqlite", window: window, timing: timing)
    }

    @Test func runnersAndScalesAreNeverMerged() {
        var runs: [HistoryRun] = []
        for (hour, commit) in ["a", "b"].enumerated() {
            for runner in ["ci-small", "ci-large"] {
                for scale in [0.02, 0.1] { runs.append(Self.run(commit, at: Double(hour), runner: runner, scale: scale, times: [0.002])) }
            }
            runs.append(Self.run(commit, at: Double(hour), scenario: "Prefetch", times: [0.001]))
        }
        let trend = Self.trend(runs)
        #expect(trend.lines.map(\.scenario) == ["FetchAll", "FetchAll", "FetchAll", "FetchAll", "Prefetch"])
        #expect(trend.lines.prefix(4).map { "\($0.key.runner) \($0.key.scale)" } == ["ci-large 0.02", "ci-large 0.1", "ci-small 0.02", "ci-small 0.1"])
        #expect(trend.lines.allSatisfy { $0.commits.map(\.commit) == ["a", "b"] })
        // Named scenarios: only those, in the order named.
        let asked = Self.trend(runs, scenarios: ["Prefetch", "FetchAll"])
        #expect(asked.lines.map(\.scenario) == ["Prefetch", "FetchAll", "FetchAll", "FetchAll", "FetchAll"])
        #expect(Self.trend(runs, scenarios: ["Prefetch"]).lines.count == 1)
    }

    @Test func commitsAreOrderedByTheirFirstRunAndRunsOfOneCommitPool() throws {
        let runs = [
            Self.run("zz", at: 0, times: [0.0020, 0.0021, 0.0022]),
            Self.run("aa", at: 1, times: [0.0030, 0.0031, 0.0032]),
            // zz again later (a retry): pooled with its first run, still first.
            Self.run("zz", at: 2, times: [0.0019, 0.0023, 0.0024]),
        ]
        let line = try #require(Self.trend(runs).lines.first)
        #expect(line.commits.map(\.commit) == ["zz", "aa"])
        #expect(line.commits.map(\.runs) == [2, 1])
        #expect(line.commits[0].firstRun == SyntheticHistory.start)
        #expect(line.commits[0].samples == [0.0020, 0.0021, 0.0022, 0.0019, 0.0023, 0.0024])
        let time = try #require(line.commits[0].time)
        #expect(abs(time.median - 0.00215) < 1e-12)
        #expect(time.samples == 6)
        #expect((time.low, time.high) == (0.0019, 0.0024))  // 6 samples: min–max, 96.9%
        #expect(abs(time.confidence - (1 - 2.0 / 64)) < 1e-12)
    }

    @Test func countersAreExactAndJudgedByTheirDirection() throws {
        let statements = [3, 3, 4, 4, 3, 3]
        let fetches = [1, 1, 1, 2, 2, 2]
        var runs = statements.indices.map { index in
            Self.run("c\(index)", at: Double(index), times: [0.002, 0.002, 0.002], counters: [
                "sqlStatements": statements[index], "fetches": fetches[index], "objectsRegisteredPeak": 100 + index,
                "rowsRead": index == 5 ? 99 : 30,
            ], advisory: index == 5 ? ["rowsRead"] : [])
        }
        // c6 failed: no point; the change from c5 to c7 is marked at c7.
        runs.append(Self.run("c6", at: 6, times: [0.002], counters: ["sqlStatements": 50], status: .failed))
        runs.append(Self.run("c7", at: 7, times: [0.002, 0.002, 0.002], counters: ["sqlStatements": 5, "fetches": 2, "rowsRead": 30]))
        let line = try #require(Self.trend(runs).lines.first)
        #expect(line.commits.map(\.commit) == ["c0", "c1", "c2", "c3", "c4", "c5", "c7"])
        // Advisory by nature (objectsRegisteredPeak) or in a run (rowsRead of c5): left out.
        #expect(line.counters.map(\.name) == ["fetches", "sqlStatements", "rowsRead"])
        #expect(line.counters.map(\.direction) == [.neutral, .cost, .cost])
        #expect(line.counters[2].points.map(\.value) == [30, 30, 30, 30, 30, nil, 30])
        #expect(line.changes == [
            TrendChange(commit: "c2", measure: .counter("sqlStatements"), verdict: .regression, before: 3, after: 4),
            TrendChange(commit: "c3", measure: .counter("fetches"), verdict: .change, before: 1, after: 2),
            TrendChange(commit: "c4", measure: .counter("sqlStatements"), verdict: .improvement, before: 4, after: 3),
            TrendChange(commit: "c7", measure: .counter("sqlStatements"), verdict: .regression, before: 3, after: 5),
        ])
        #expect(line.changedCounters.map(\.name) == ["fetches", "sqlStatements"])
        #expect(line.steadyCounters.map(\.name) == ["rowsRead"])
    }

    @Test func aGateFailsOnASlowdownOrACostIncreaseOnly() {
        func trend(statements: [Int], fetches: [Int] = [1, 1, 1, 1], levels: [Double] = [0.002, 0.002, 0.002, 0.002]) -> Trend {
            Self.trend(levels.indices.map { index in
                Self.run("c\(index)", at: Double(index), times: [levels[index] * 0.99, levels[index], levels[index] * 1.01],
                         counters: ["sqlStatements": statements[index], "fetches": fetches[index]])
            })
        }
        let fewer = trend(statements: [4, 4, 4, 3])
        #expect(fewer.changes.map(\.verdict) == [.improvement])
        #expect(!fewer.hasRegression)
        let neutral = trend(statements: [3, 3, 3, 3], fetches: [1, 1, 1, 2])
        #expect(neutral.changes.map(\.verdict) == [.change])
        #expect(!neutral.hasRegression)
        let more = trend(statements: [3, 3, 3, 4])
        #expect(more.hasRegression)
        #expect(more.regressions.map(\.measure) == [.counter("sqlStatements")])
        let faster = trend(statements: [3, 3, 3, 3], levels: [0.002, 0.002, 0.002, 0.001])
        #expect(faster.changes.map(\.verdict) == [.improvement])
        #expect(!faster.hasRegression)
        let slower = trend(statements: [3, 3, 3, 3], levels: [0.002, 0.002, 0.002, 0.004])
        #expect(slower.regressions.map(\.measure) == [.time(.cpu)])
        #expect(slower.regressions.map(\.commit) == ["c3"])
    }

    @Test func aSyntheticHistoryThroughAStoreIsMarkedAtItsSlowdown() throws {
        // 20 commits, the newest 2× slower and one more statement.
        let runs = SyntheticHistory.runs(SyntheticHistory.times(seed: 5) { $0 == 19 ? 0.004 : 0.002 }) { ["sqlStatements": $0 == 19 ? 4 : 3] }
        let store = InMemoryHistoryStore()
        #expect(store.add(runs.reversed()) == 20)
        let window = Trend.Window(HistoryQuery(branch: "main", runner: "ci-small"))
        let trend = Trend(runs: store.runs(window.query), source: "memory", window: window)
        let line = try #require(trend.lines.first)
        #expect(trend.lines.count == 1)
        #expect(line.commits.map(\.commit) == (0..<20).map { SyntheticHistory.commit($0) })
        #expect(line.changes.map(\.measure) == [.time(.cpu), .counter("sqlStatements")])
        #expect(line.changes.allSatisfy { $0.commit == SyntheticHistory.commit(19) && $0.verdict == .regression })
        let time = try #require(line.changes.first)
        #expect(try #require(time.ratio) > 1.7)
        #expect(try #require(time.pValue) < 0.001)
        #expect(try #require(line.noise) < 0.1)
        #expect(line.minimumEffect >= 1.10)
        // The A/A without the slowdown: nothing.
        let aa = Self.trend(SyntheticHistory.runs(SyntheticHistory.times(seed: 5)))
        #expect(aa.changes.isEmpty)
    }

    @Test func theJSONRoundTripsWithTimesInISO8601() throws {
        let runs = (0..<4).map { index in
            Self.run("c\(index)", at: Double(index), times: index == 3 ? [0.0040, 0.0041, 0.0042] : [0.0020, 0.0021, 0.0022],
                     counters: ["sqlStatements": index == 3 ? 4 : 3])
        }
        let window = Trend.Window(project: "acme/app", since: SyntheticHistory.start, scenarios: ["FetchAll"])
        let trend = Trend(runs: runs, source: "history.sqlite", window: window)
        let json = try JSONOutput.text(trend)
        #expect(json.contains("\"firstRun\" : \"2025-02-19T21:20:00.000Z\""), "\(json)")
        #expect(json.contains("\"since\" : \"2025-02-19T21:20:00.000Z\""))
        #expect(trend.changes.map(\.measure) == [.time(.cpu), .counter("sqlStatements")])
        #expect(json.contains("\"timing\" : \"cpu\""))
        #expect(json.contains("\"measure\" : \"cpuSeconds\""))
        #expect(json.contains("\"measure\" : \"sqlStatements\""))
        #expect(json.contains("\"verdict\" : \"regression\""))
        let decoded = try JSONDecoder().decode(Trend.self, from: Data(json.utf8))
        #expect(decoded == trend)
    }

    @Test func cpuTimeIsFollowedByDefaultAndWallTimeWhenChosen() throws {
        // c3 waited for a core: its wall time doubled, its CPU time did not.
        let runs = (0..<4).map { index in
            Self.run("c\(index)", at: Double(index), times: [0.0020, 0.0021, 0.0022],
                     wall: index == 3 ? [0.0040, 0.0042, 0.0044] : [0.0020, 0.0021, 0.0022])
        }
        let cpu = Self.trend(runs)
        #expect(cpu.timing == .cpu)
        #expect(cpu.changes.isEmpty)
        #expect(try #require(cpu.lines.first).commits[3].samples == [0.0020, 0.0021, 0.0022])
        let wall = Self.trend(runs, timing: .wall)
        #expect(wall.timing == .wall)
        #expect(wall.changes.map(\.measure) == [.time(.wall)])
        #expect(wall.regressions.map(\.commit) == ["c3"])
        #expect(try #require(wall.lines.first).commits[3].samples == [0.0040, 0.0042, 0.0044])
        // A run that kept no samples: its summary's median of the time followed.
        var summaryOnly = Self.run("c4", at: 4, times: [0.0030], wall: [0.0050])
        summaryOnly.report.scenarios[0].samples = []
        #expect(try #require(Self.trend(runs + [summaryOnly]).lines.first).commits[4].samples == [0.0030])
        #expect(try #require(Self.trend(runs + [summaryOnly], timing: .wall).lines.first).commits[4].samples == [0.0050])
    }

    @Test func aTrendWrittenWhenTrendsFollowedWallTimesOnlyStillReads() throws {
        let runs = (0..<4).map { index in
            Self.run("c\(index)", at: Double(index), times: index == 3 ? [0.0040, 0.0041, 0.0042] : [0.0020, 0.0021, 0.0022])
        }
        let trend = Trend(runs: runs, source: "history.sqlite", window: .init(), timing: .wall)
        #expect(trend.changes.map(\.measure) == [.time(.wall)])
        // The old shape: no `timing`, each commit's `wall` and `wallSamples`.
        var object = try #require(try JSONSerialization.jsonObject(with: Data(JSONOutput.text(trend).utf8)) as? [String: Any])
        object["timing"] = nil
        var lines = try #require(object["lines"] as? [[String: Any]])
        for (index, line) in lines.enumerated() {
            lines[index]["commits"] = try #require(line["commits"] as? [[String: Any]]).map { commit in
                var old = commit
                (old["wall"], old["time"]) = (commit["time"], nil)
                (old["wallSamples"], old["samples"]) = (commit["samples"], nil)
                return old
            }
        }
        object["lines"] = lines
        let old = try JSONSerialization.data(withJSONObject: object)
        #expect(!String(decoding: old, as: UTF8.self).contains("\"timing\""))
        #expect(String(decoding: old, as: UTF8.self).contains("\"wallSamples\""))
        #expect(try JSONDecoder().decode(Trend.self, from: old) == trend)
    }

    @Test func sinceIsADateATimeOrADuration() throws {
        let now = Date(timeIntervalSince1970: 1_750_000_000)
        #expect(try TrendSince.parse("2025-03-01", now: now) == Date(timeIntervalSince1970: 1_740_787_200))
        #expect(try TrendSince.parse("2025-03-01T12:00:00Z", now: now) == Date(timeIntervalSince1970: 1_740_830_400))
        #expect(try TrendSince.parse("30d", now: now) == now.addingTimeInterval(-30 * 86_400))
        #expect(try TrendSince.parse("1w2d", now: now) == now.addingTimeInterval(-9 * 86_400))
        #expect(try TrendSince.parse("90m", now: now) == now.addingTimeInterval(-5_400))
        for bad in ["", "30", "d", "2d1w", "0d", "yesterday", "2025-13-01", "1y"] {
            #expect(throws: UsageError.self, "\(bad)") { try TrendSince.parse(bad, now: now) }
        }
        #expect(throws: UsageError(option: "--since 0d", "a duration longer than zero (such as 30d)")) { try TrendSince.parse("0d", now: now) }
    }
}
