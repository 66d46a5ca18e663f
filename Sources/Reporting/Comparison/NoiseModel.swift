/// What a timing change must exceed before `compare` calls it one.
///
/// Noise on a shared machine is added, never taken away: an iteration that
/// another process interrupted takes longer, none takes less than its
/// work. So a side's time is the **lower quartile** of its iterations
/// (``lowerQuartile(_:)``), the time they take when little interferes,
/// and its spread is that of its faster half. On a loaded 2-core machine a
/// 2x slowdown's medians came out at 1.38x with p = 0.10 (base and head
/// both interrupted); their lower quartiles at 2x.
///
/// A change is judged only when three things hold, each for its own kind
/// of noise:
/// 1. **Significance after Holm**: the bootstrap distribution of the
///    lower quartiles' ratio (``BootstrapRatio``) gives a two-sided
///    p-value, corrected for every scenario's timing at once (phases, which
///    never gate, in a family of their own). This answers "could the ratio
///    be 1?" — but two runs of
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

    /// The spread of the faster half of the samples relative to its
    /// median: the median absolute deviation, times 1.4826 (a standard
    /// deviation for normal noise), over the median; 0 for fewer than 4
    /// samples or a median of 0. Iterations that another process
    /// interrupted are in the slower half and do not make a side look
    /// noisy (the interquartile range of every sample gave a 2x slowdown a
    /// minimum detectable effect of 134% on a loaded machine).
    public static func relativeSpread(_ samples: [Double]) -> Double {
        guard samples.count >= 4 else { return 0 }
        let faster = Array(samples.sorted().prefix((samples.count + 1) / 2))
        let median = Statistics.median(ofSorted: faster)
        guard median > 0, median.isFinite else { return 0 }
        let deviations = faster.map { abs($0 - median) }.sorted()
        return 1.4826 * Statistics.median(ofSorted: deviations) / median
    }

    /// The lower quartile (linear interpolation between order statistics):
    /// the time the iterations take when little interferes.
    public static func lowerQuartile(_ samples: [Double]) -> Double {
        quantile(samples.sorted(), 0.25)
    }

    /// The `q` quantile of sorted values, interpolated linearly; 0 for none.
    static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let position = q * Double(sorted.count - 1)
        let low = Int(position.rounded(.down))
        let high = min(low + 1, sorted.count - 1)
        let value = sorted[low] + (sorted[high] - sorted[low]) * (position - Double(low))
        return value.isFinite ? value : sorted[low]
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
