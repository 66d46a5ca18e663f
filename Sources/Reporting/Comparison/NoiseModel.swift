/// What a timing change must exceed before `compare` calls it one.
///
/// A change is judged only when three things hold, each for its own kind
/// of noise:
/// 1. **Significance after Holm**: Mann-Whitney U over the two reports'
///    samples, corrected for every timing compared at once. This answers
///    "could these samples come from one distribution?" — but two runs of
///    one binary are not one distribution: a run as a whole moves (what
///    else the machine does then, where the kernel put the memory), while
///    its iterations agree closely. On a shared 2-core machine, run
///    medians of the CPU time moved by up to 17% between runs of one
///    binary whose iterations spread by 2–5%, and Mann-Whitney calls such
///    a move significant.
/// 2. **An effect beyond the minimum detectable effect**: the change of
///    the median must exceed ``spreadFactor`` times the larger relative
///    spread of the two sides (``relativeSpread``: the median absolute
///    deviation, scaled to a standard deviation, over the median), and the
///    floor (``NoiseFloor``: 25% by default, or what an A/A comparison of
///    the machine measured). Noisy samples ask for a larger change.
/// 3. **The same machine**: when the two reports' machine probes
///    (``MachineProbe``) differ beyond the floor, a change the machine's
///    difference explains is withheld (``TimingVerdict/withheld``); only
///    a change beyond it is judged.
///
/// A real 2x slowdown passes all three. The A/A test in the suite
/// (ComparisonStabilityTests) holds the model to ≥ 19 of 20 A/A pairs
/// passing on a loaded 2-core machine, and a 2x slowdown failing in each.
public enum NoiseModel {
    /// How many relative spreads a change must exceed: 2, two standard
    /// deviations of the noisier side.
    public static let spreadFactor = 2.0

    /// The spread of samples relative to their median: the median absolute
    /// deviation, times 1.4826 (a standard deviation for normal noise),
    /// over the median; 0 for fewer than 2 samples or a median of 0. The
    /// median absolute deviation ignores up to half the samples: a few
    /// iterations that another process interrupted do not make a whole
    /// side look noisy (the interquartile range gave a 2x slowdown a
    /// minimum detectable effect of 134% on a loaded machine; this, 40%).
    public static func relativeSpread(_ samples: [Double]) -> Double {
        guard samples.count >= 2 else { return 0 }
        let median = Statistics.median(ofSorted: samples.sorted())
        guard median > 0, median.isFinite else { return 0 }
        let deviations = samples.map { abs($0 - median) }.sorted()
        return 1.4826 * Statistics.median(ofSorted: deviations) / median
    }

    /// The smallest relative change of the median that counts:
    /// ``spreadFactor`` times the larger relative spread, at least `floor`.
    public static func minimumDetectableEffect(base: [Double], head: [Double], floor: Double) -> Double {
        max(floor, spreadFactor * max(relativeSpread(base), relativeSpread(head)))
    }

    /// Whether `ratio` (head / base) is a change beyond `effect` (a
    /// relative change): above 1 + effect, or below 1 / (1 + effect).
    public static func exceeds(_ ratio: Double, _ effect: Double) -> Bool {
        ratio > 1 + effect || ratio < 1 / (1 + effect)
    }
}
