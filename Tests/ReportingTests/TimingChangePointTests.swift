import Foundation
import Reporting
import Testing

/// The change-point test on times (TimingChangePoints) on synthetic
/// histories of 20 commits drawn with seeded random numbers: a shared
/// runner's noise, a single slow sample, a commit whose every sample is
/// 30% slower once.
@Suite struct TimingChangePointTests {
    static let seeds: [UInt64] = Array(1...20)

    @Test(arguments: seeds) func anAAHistoryGetsNoMark(seed: UInt64) {
        let found = TimingChangePoints.find(SyntheticHistory.times(seed: seed))
        #expect(found.points.isEmpty, "seed \(seed): \(found.points)")
        #expect(found.noise != nil)
    }

    @Test func theOutliersAreThere() throws {
        // The A/A history holds what it says: one sample 4× slower, one commit 30% slower.
        let history = SyntheticHistory.times(seed: 1)
        let medians = history.map { Statistics($0).median }
        let others = medians.enumerated().filter { $0.offset != 12 }.map(\.element)
        #expect(medians[12] > 1.2 * Statistics(others).median)
        #expect(try #require(history[3].max()) > 3 * Statistics(history[3]).median)
    }

    @Test(arguments: seeds) func aSlowdownInTheMiddleIsMarkedAtItsCommit(seed: UInt64) throws {
        let history = SyntheticHistory.times(seed: seed, oddCommit: 5) { $0 >= 10 ? 0.004 : 0.002 }
        let found = TimingChangePoints.find(history)
        #expect(found.points.map(\.index) == [10], "seed \(seed): \(found.points)")
        let point = try #require(found.points.first)
        #expect(point.after / point.before > 1.7 && point.after / point.before < 2.3)
        #expect(point.pValue < 0.001)
    }

    @Test(arguments: seeds) func aSlowdownInTheNewestCommitIsMarkedThere(seed: UInt64) {
        let history = SyntheticHistory.times(seed: seed) { $0 == 19 ? 0.004 : 0.002 }
        let found = TimingChangePoints.find(history)
        #expect(found.points.map(\.index) == [19], "seed \(seed): \(found.points)")
        #expect(found.points.allSatisfy { $0.after > $0.before })
    }

    @Test(arguments: seeds) func anImprovementIsMarkedFaster(seed: UInt64) {
        let found = TimingChangePoints.find(SyntheticHistory.times(seed: seed) { $0 >= 10 ? 0.001 : 0.002 })
        #expect(found.points.map(\.index) == [10], "seed \(seed): \(found.points)")
        #expect(found.points.allSatisfy { $0.after < $0.before })
    }

    @Test func aSlowdownAndItsFixAreTwoMarks() {
        // Slower from 6, back from 13.
        let found = TimingChangePoints.find(SyntheticHistory.times(seed: 7, oddCommit: nil) { (6..<13).contains($0) ? 0.004 : 0.002 })
        #expect(found.points.map(\.index) == [6, 13])
        #expect(found.points.map { $0.after > $0.before } == [true, false])
    }

    @Test func aMoveBelowTheFloorIsNoMark() {
        // 8% slower from commit 10, on a quiet series: beyond the noise,
        // significant, but under the 10% floor.
        var random = SeededRandom(seed: 3)
        let history = (0..<20).map { index in
            (0..<10).map { _ in (index >= 10 ? 0.00216 : 0.002) * exp(0.002 * random.normal()) }
        }
        #expect(TimingChangePoints.find(history).points.isEmpty)
        // At a floor of 5% it is marked, at its commit.
        #expect(TimingChangePoints.find(history, settings: ChangeDetection(floor: 1.05)).points.map(\.index) == [10])
    }

    @Test func aMoveWithinTheSeriesOwnNoiseIsNoMark() throws {
        // Commits that wander ±25% from one to the next: a 40% step is
        // within five spreads.
        var random = SeededRandom(seed: 11)
        let history = (0..<20).map { index in
            let level = (index >= 10 ? 0.0028 : 0.002) * exp(0.25 * random.normal())
            return (0..<10).map { _ in level * exp(0.01 * random.normal()) }
        }
        let found = TimingChangePoints.find(history)
        #expect(found.points.isEmpty, "\(found.points)")
        #expect(try #require(found.noise) > 0.1)
        #expect(found.minimumEffect > log(1.5))
    }

    @Test func aChangeNeedsTwoCommitsBeforeIt() {
        // Commit 1 is twice as slow as commit 0 and stays so: one commit is no level.
        let slowFromOne = (0..<6).map { index in Array(repeating: index >= 1 ? 0.004 : 0.002, count: 5) }
        #expect(TimingChangePoints.find(slowFromOne).points.isEmpty)
        let slowFromTwo = (0..<6).map { index in Array(repeating: index >= 2 ? 0.004 : 0.002, count: 5) }
        #expect(TimingChangePoints.find(slowFromTwo).points.map(\.index) == [2])
    }

    @Test func commitsWithoutSamplesAreLeftOut() {
        // Commit 10 has no sample (its scenario failed); the slowdown from 11 is marked at 11.
        var history = SyntheticHistory.times(seed: 4, oddCommit: nil) { $0 >= 11 ? 0.004 : 0.002 }
        history[10] = []
        #expect(TimingChangePoints.find(history).points.map(\.index) == [11])
        #expect(TimingChangePoints.find([]).points.isEmpty)
        #expect(TimingChangePoints.find([[.nan, -1], [0]]).points.isEmpty)
    }
}

extension TimingChangePointTests {
    /// Runs of 3 iterations (this project's own `make test`): 15 samples
    /// before against 3.
    @Test(arguments: seeds) func threeIterationsARunStillMarkTheNewestSlowdown(seed: UInt64) {
        #expect(TimingChangePoints.find(SyntheticHistory.times(samples: 3, seed: seed)).points.isEmpty, "seed \(seed)")
        let found = TimingChangePoints.find(SyntheticHistory.times(samples: 3, seed: seed) { $0 == 19 ? 0.004 : 0.002 })
        #expect(found.points.map(\.index) == [19], "seed \(seed): \(found.points)")
    }
}
