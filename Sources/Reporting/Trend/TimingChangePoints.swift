import Foundation

/// Where a series of times (CPU or wall) moved beyond its own noise:
/// change points found by a robust window test on the commits' medians.
///
/// The method, for a series of commits oldest first, each with its time
/// samples, on the logarithm of each commit's median (so that a move is a
/// ratio, the same at 1 ms as at 1 s):
///
/// 1. The series' *noise* is the robust standard deviation of the
///    difference between successive medians: the median of
///    |m₍ᵢ₎ − m₍ᵢ₋₁₎| ÷ (0.6745 × √2). One odd commit or one real step adds
///    one or two large differences, which a median ignores.
/// 2. Each commit *k* is a candidate. Its window *before* is up to
///    ``ChangeDetection/window`` commits before it, its window *after* is
///    *k* and up to `window − 1` commits after it; neither window reaches
///    across a change already marked. The *shift* is the median of the
///    medians after less the median of the medians before.
/// 3. A candidate qualifies when |shift| is at least the *minimum effect*
///    (the larger of log ``ChangeDetection/floor`` and
///    ``ChangeDetection/noiseMultiple`` × noise), and the Mann-Whitney test
///    of every sample before against every sample after gives a p-value
///    below ``ChangeDetection/significance``.
/// 4. Of the qualifying candidates, the one where the series splits best
///    is marked: the largest difference of the windows' mean levels,
///    weighted by √(nₐ·n_b / (nₐ + n_b)) (the two-sample statistic of
///    binary segmentation; the older commit on a tie). For a step at commit
///    *k* it is largest at *k*: at *k − 1* the window after holds an old
///    commit, at *k + 1* the window before a new one, and either takes a
///    fifth of the step off the difference. (The medians that qualify a
///    candidate cannot place it: one commit of the other level in a window
///    of five leaves its median where it was.) A split with fewer than
///    ``ChangeDetection/minimumCommitsBefore`` commits before it is not
///    marked (one commit is no level: it may be the odd one), but it still
///    splits the series, so that the commit after it is not marked in its
///    place. Then 2 to 4 again, with the windows now stopping at the
///    splits, until no candidate qualifies.
///
/// Why this and not e-divisive means (MongoDB's performance CI): e-divisive
/// needs a few points on each side of a change and a permutation test, so
/// it cannot mark the newest commit, which is the one a CI gate asks about;
/// and run on samples rather than medians, it takes the commit-to-commit
/// drift of a shared runner for changes. The window test marks the newest
/// commit on its own samples, while the median of a window and the noise
/// taken from the series itself keep one odd commit (every sample 30% slower
/// once) and one slow sample from marking anything. A one-off odd commit
/// that is the newest cannot be told from a step until the next commit
/// comes: it is marked if it is beyond the minimum effect, and unmarked
/// once later commits are back at the old level.
public enum TimingChangePoints {
    /// A change point: the index of the first commit at the new level, the
    /// two levels (medians, in seconds) and the p-value.
    public struct Point: Equatable, Sendable {
        public let index: Int
        public let before: Double
        public let after: Double
        public let pValue: Double
    }

    /// The noise and the minimum effect of a series (as natural logarithms
    /// of ratios), and its change points, oldest first. `samples` holds
    /// each commit's samples in seconds; a commit without a positive finite
    /// sample is left out of the series and can carry no change.
    public static func find(_ samples: [[Double]], settings: ChangeDetection = .standard) -> (noise: Double?, minimumEffect: Double, points: [Point]) {
        let series: [(index: Int, samples: [Double], level: Double)] = samples.enumerated().compactMap { index, values in
            let usable = values.filter { $0.isFinite && $0 > 0 }.sorted()
            guard !usable.isEmpty else { return nil }
            return (index, usable, log(Statistics.median(ofSorted: usable)))
        }
        let noise = Self.noise(series.map(\.level))
        let minimumEffect = max(log(max(settings.floor, 1)), settings.noiseMultiple * (noise ?? 0))
        let window = max(1, settings.window)
        // Positions in `series` where the series splits, sorted: the
        // marks, and the splits too near the start to be judged.
        var boundaries: [Int] = []
        var points: [Point] = []
        while true {
            var best: (position: Int, split: Double, judged: Bool, p: Double, before: Double, after: Double)?
            for position in series.indices where !boundaries.contains(position) {
                let previous = boundaries.last { $0 < position } ?? 0
                let next = boundaries.first { $0 > position } ?? series.count
                let before = series[max(previous, position - window)..<position]
                let after = series[position..<min(next, position + window)]
                guard !before.isEmpty, !after.isEmpty else { continue }
                let levelBefore = median(before.map(\.level))
                let levelAfter = median(after.map(\.level))
                let shift = levelAfter - levelBefore
                guard abs(shift) >= minimumEffect, shift != 0 else { continue }
                let p = MannWhitneyU.test(before.flatMap(\.samples), after.flatMap(\.samples)).pValue
                guard p < settings.significance else { continue }
                let split = Self.split(before.map(\.level), after.map(\.level))
                if let current = best, current.split >= split { continue }
                best = (position, split, before.count >= settings.minimumCommitsBefore, p, exp(levelBefore), exp(levelAfter))
            }
            guard let found = best else { break }
            boundaries.append(found.position)
            boundaries.sort()
            if found.judged {
                points.append(Point(index: series[found.position].index, before: found.before, after: found.after, pValue: found.p))
            }
        }
        return (noise, minimumEffect, points.sorted { $0.index < $1.index })
    }

    /// The robust standard deviation of the commit-to-commit step of
    /// `levels`; nil with fewer than three levels (two steps).
    static func noise(_ levels: [Double]) -> Double? {
        guard levels.count >= 3 else { return nil }
        let steps = zip(levels.dropFirst(), levels).map { abs($0 - $1) }
        return median(steps) / (0.674_489_75 * 2.0.squareRoot())
    }

    static func median(_ values: [Double]) -> Double { Statistics.median(ofSorted: values.sorted()) }

    /// How well a series splits between `before` and `after`: the
    /// difference of their means, weighted by √(nₐ·n_b / (nₐ + n_b)).
    static func split(_ before: [Double], _ after: [Double]) -> Double {
        let (nb, na) = (Double(before.count), Double(after.count))
        let difference = after.reduce(0, +) / na - before.reduce(0, +) / nb
        return abs(difference) * (na * nb / (na + nb)).squareRoot()
    }
}
