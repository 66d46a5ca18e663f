import Foundation
import Reporting
import Testing

/// A trend's times on the machine's speed: each run's samples divided by
/// its machine speed probe and multiplied by the line's, when every run of
/// the line has a probe; as measured otherwise.
@Suite struct TrendMachineSpeedTests {
    /// The A/A history of 20 commits, the newest run on a machine 40%
    /// slower: its samples and its probe both 1.4 times the others'.
    static let busy = SyntheticHistory.times(seed: 5).enumerated().map { index, samples in index == 19 ? samples.map { $0 * 1.4 } : samples }

    /// A commit's probe: 0.3 ms, 1.4 times that on the busy machine.
    static func probe(_ index: Int) -> [Double] { [0.000297, 0.000300, 0.000303].map { $0 * (index == 19 ? 1.4 : 1) } }

    static func trend(_ runs: [HistoryRun], timing: TimingMeasure = .cpu) -> Trend {
        Trend(runs: runs, source: "history.sqlite", window: .init(), timing: timing)
    }

    @Test(arguments: TimingMeasure.allCases)
    func aSlowerMachineForOneCommitIsNoSlowerCommit(timing: TimingMeasure) throws {
        let trend = Self.trend(SyntheticHistory.runs(Self.busy, probes: Self.probe), timing: timing)
        #expect(trend.changes.isEmpty)
        let line = try #require(trend.lines.first)
        // The line's probe: the median of its runs' probe medians.
        #expect(line.probe == 0.000300)
        #expect(abs(try #require(line.commits[19].probe) - 0.000420) < 1e-15)
        #expect(line.commits[0].probe == 0.000300)
        // The busy commit's samples back on the others' speed; the others as they were.
        let measured = SyntheticHistory.times(seed: 5)
        for index in [0, 19] {
            #expect(line.commits[index].samples.count == measured[index].count)
            for (adjusted, sample) in zip(line.commits[index].samples, measured[index]) { #expect(abs(adjusted - sample) < 1e-15) }
        }
    }

    @Test func withoutProbesTheSlowerMachineIsMarked() throws {
        // The same history from reports older than the probe: the newest
        // commit looks 40% slower, beyond the line's noise.
        let trend = Self.trend(SyntheticHistory.runs(Self.busy))
        let line = try #require(trend.lines.first)
        #expect(line.probe == nil)
        #expect(line.commits.allSatisfy { $0.probe == nil })
        #expect(line.commits[19].samples == Self.busy[19])
        #expect(trend.changes.map(\.measure) == [.time(.cpu)])
        #expect(trend.regressions.map(\.commit) == [SyntheticHistory.commit(19)])
        #expect(try #require(trend.changes.first?.ratio) > 1.3)
    }

    @Test func aLineWithARunWithoutAProbeIsTakenAsMeasured() throws {
        // Commit 0's report is older than the probe: no run of the line is
        // scaled, the others' probes notwithstanding.
        let trend = Self.trend(SyntheticHistory.runs(Self.busy, probes: { $0 == 0 ? nil : Self.probe($0) }))
        let line = try #require(trend.lines.first)
        #expect(line.probe == nil)
        #expect(line.commits.allSatisfy { $0.probe == nil })
        #expect(line.commits[19].samples == Self.busy[19])
        #expect(trend.regressions.map(\.commit) == [SyntheticHistory.commit(19)])
        // A probe with no sample of the time followed is no probe.
        let empty = Self.trend(SyntheticHistory.runs(Self.busy, probes: { $0 == 0 ? [] : Self.probe($0) }))
        #expect(empty.lines.first?.probe == nil)
        #expect(empty.regressions.map(\.commit) == [SyntheticHistory.commit(19)])
    }

    @Test func aRealSlowdownOnASteadyMachineIsStillMarked() throws {
        // 2× slower from commit 19 with the machine's speed unchanged.
        let slower = SyntheticHistory.times(seed: 5) { $0 == 19 ? 0.004 : 0.002 }
        let trend = Self.trend(SyntheticHistory.runs(slower, probes: { _ in [0.000297, 0.000300, 0.000303] }))
        #expect(trend.lines.first?.probe == 0.000300)
        #expect(trend.regressions.map(\.commit) == [SyntheticHistory.commit(19)])
        #expect(trend.changes.count == 1)
    }

    @Test func theTextSaysTheTimesAreOnTheMachinesSpeed() throws {
        let text = try Self.trend(SyntheticHistory.runs(Self.busy, probes: Self.probe)).render(.text)
        #expect(text.contains("  CPU times on the machine's speed: each run's divided by its probe's median, multiplied by the line's (300 µs)\n"), "\(text)")
        let raw = try Self.trend(SyntheticHistory.runs(Self.busy)).render(.text)
        #expect(!raw.contains("on the machine's speed: each run's"))
    }
}
