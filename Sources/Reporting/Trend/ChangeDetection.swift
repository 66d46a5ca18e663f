import Foundation

/// The settings of the change-point test on a trend's times (CPU or wall,
/// ``Trend/timing``; ``TimingChangePoints``). The defaults and why:
///
/// - ``window`` 5 commits on each side: enough commits that one odd commit
///   (a noisy neighbour on the runner, a cold cache) is outvoted by the
///   median of the others, few enough that two changes a week apart are
///   told apart.
/// - ``minimumCommitsBefore`` 2: a change needs a level before it, and one
///   commit is no level (it may itself be the odd one). A line's third
///   commit is the first that can be marked; `perf-run compare` judges two
///   runs.
/// - ``floor`` 1.10 (10%): the least move that is ever marked, whatever the
///   series' own noise. Whole runs of one binary on a shared CI runner
///   differ by several percent (frequency scaling, neighbours, page cache);
///   below 10% a move is better judged by `compare` on one machine with
///   many iterations.
/// - ``noiseMultiple`` 5: a move must also be five times the series' own
///   commit-to-commit spread (a robust standard deviation of the log ratio
///   of successive medians). At the newest commit the level after is that
///   one commit's median, whose error against the five before is about 1.1
///   spreads, and the spread is itself estimated from the series (within
///   about 25% from 20 commits): five spreads leave room for both.
///   Measured on 1,000 synthetic histories of 20 commits with a shared
///   runner's noise (3% per commit, 5% per sample, one sample in 50 1.5 to
///   3× slower, and in each one sample 4× slower and one commit 30% slower
///   in every sample), 10 iterations a run: no A/A history got a mark; a
///   2× slowdown was marked at its commit, and only there, in 999 (in the
///   middle) and 1,000 (the newest commit). With 3 iterations a run: 1 A/A
///   history in 1,000 got a mark, and the newest commit's slowdown was
///   marked in 985.
/// - ``significance`` 0.05: the two-sided Mann-Whitney p-value of the
///   samples before against those after must be below it, so that a level
///   made of a few scattered samples is not marked on its median alone.
///   It is no guard against the commit-to-commit drift (samples of one
///   commit share their runner's state, so the test takes them for more
///   evidence than they are): the minimum effect is. With 3 iterations a
///   run, the newest commit's 3 samples against 15 can give at best
///   p ≈ 0.009, so a stricter level would miss most slowdowns of a run
///   with few iterations.
public struct ChangeDetection: Codable, Equatable, Sendable {
    /// Commits on each side of a candidate: up to this many before it, and
    /// it with up to this many minus one after it.
    public var window: Int
    /// Commits a candidate needs before it (after the previous change).
    public var minimumCommitsBefore: Int
    /// The least ratio of levels marked (1.10: 10%).
    public var floor: Double
    /// How many times the series' own spread a move must be.
    public var noiseMultiple: Double
    /// The p-value a move's samples must be below.
    public var significance: Double

    public init(window: Int = 5, minimumCommitsBefore: Int = 2, floor: Double = 1.10, noiseMultiple: Double = 5, significance: Double = 0.05) {
        self.window = window
        self.minimumCommitsBefore = minimumCommitsBefore
        self.floor = floor
        self.noiseMultiple = noiseMultiple
        self.significance = significance
    }

    public static let standard = ChangeDetection()
}
