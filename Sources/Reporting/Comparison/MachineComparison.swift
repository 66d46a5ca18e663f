/// Two reports' machine probes (``MachineProbe``) for one scenario: how
/// the machine's speed differed between base and head while it ran.
public struct MachineComparison: Codable, Equatable, Sendable {
    /// The probe's time in base and head: the lower quartile of its
    /// samples (``NoiseModel``).
    public var baseMedian: Double
    public var headMedian: Double
    /// Whether both probes were steady enough to measure the machine by:
    /// each side's spread at most ``steadySpread``. Only then are timings
    /// divided by ``ratio``; a probe that moved from one iteration to the
    /// next (a machine busy at times) says nothing a whole run can be
    /// divided by (one ran 2.9x slower in head while the scenario beside
    /// it ran at its usual speed).
    public var steady: Bool?
    /// Head over base: above 1, head's machine was slower.
    public var ratio: Double
    /// Whether the machines differ beyond the noise: the ratio beyond the
    /// floor and the probes' own spreads (``NoiseModel``), and the samples
    /// significantly apart (Mann-Whitney U).
    public var differs: Bool
    /// For a scenario that writes: head over base of the disk's sync time
    /// (``MachineProbe/syncSeconds``), when both reports have it.
    public var syncRatio: Double?
    /// Whether the disks differ: the sync times apart beyond the noise
    /// (``syncFloor`` at least). A timing is then not judged at all: how
    /// much of a save's time a slower disk explains cannot be told.
    public var syncDiffers: Bool?

    /// How far apart two machines' probes must be to differ: 10%. Within
    /// it, timings are judged on the machine's speed (divided by the
    /// probes' ratio); beyond it, a change the machine explains is
    /// withheld.
    public static let floor = 0.10

    /// The largest spread of a steady probe: 10%.
    public static let steadySpread = 0.10

    /// How far apart two disks' sync times must be to differ: 50%, since a
    /// sync's latency moves widely even on one quiet machine.
    public static let syncFloor = 0.5

    public init(baseMedian: Double, headMedian: Double, ratio: Double, differs: Bool, syncRatio: Double? = nil, syncDiffers: Bool? = nil) {
        self.baseMedian = baseMedian
        self.headMedian = headMedian
        self.ratio = ratio
        self.differs = differs
        self.syncRatio = syncRatio
        self.syncDiffers = syncDiffers
    }

    /// The two probes compared, or nil when either report has none (one
    /// written before probes were measured) or a median is not positive.
    static func compare(
        _ base: [Double]?, _ head: [Double]?, syncs: (base: [Double]?, head: [Double]?), floor: Double = Self.floor, alpha: Double
    ) -> MachineComparison? {
        guard let (ratio, b, h, differs) = Self.apart(base, head, floor: floor, alpha: alpha), let base, let head else { return nil }
        var comparison = MachineComparison(baseMedian: b, headMedian: h, ratio: ratio, differs: differs)
        comparison.steady = NoiseModel.relativeSpread(base) <= steadySpread && NoiseModel.relativeSpread(head) <= steadySpread
        if let (syncRatio, _, _, syncDiffers) = Self.apart(syncs.base, syncs.head, floor: max(floor, Self.syncFloor), alpha: alpha) {
            comparison.syncRatio = syncRatio
            comparison.syncDiffers = syncDiffers
        }
        return comparison
    }

    /// Head over base of two probes' medians, and whether they are apart:
    /// significantly (Mann-Whitney U) and beyond the floor and their
    /// spreads (``NoiseModel``).
    private static func apart(
        _ base: [Double]?, _ head: [Double]?, floor: Double, alpha: Double
    ) -> (ratio: Double, base: Double, head: Double, differs: Bool)? {
        guard let base, let head, !base.isEmpty, !head.isEmpty else { return nil }
        let (b, h) = (NoiseModel.lowerQuartile(base), NoiseModel.lowerQuartile(head))
        guard b > 0, h > 0, b.isFinite, h.isFinite else { return nil }
        let effect = NoiseModel.minimumDetectableEffect(base: base, head: head, floor: floor)
        let significant = base.count >= 3 && head.count >= 3 ? MannWhitneyU.test(base, head).pValue < alpha : true
        return (h / b, b, h, significant && NoiseModel.exceeds(h / b, effect))
    }

    /// "head's machine ran the speed probe 1.31x slower" (or faster).
    public var summary: String {
        "head's machine ran the speed probe \(Self.factor(ratio))"
    }

    /// "head's disk synced a page 4.20x slower".
    public var syncSummary: String? {
        syncRatio.map { "head's disk synced a page \(Self.factor($0))" }
    }

    /// "1.31x slower" or "1.31x faster" for a ratio of head over base.
    static func factor(_ ratio: Double) -> String {
        String(format: "%.2fx ", ratio >= 1 ? ratio : 1 / ratio) + (ratio >= 1 ? "slower" : "faster")
    }
}
