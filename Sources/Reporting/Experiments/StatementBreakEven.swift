/// From which cost per statement the way a source recommends wins, worked
/// out from an experiment's counters and times: the lesson of a fault or
/// prefetch experiment, whose effect is round trips saved.
///
/// Each side's time is taken as what it took here plus a cost `δ` added to
/// every statement it ran (a store slower per statement: a phone's flash in
/// 2014, a database across a network): `T(δ) = T + n·δ`. The side that runs
/// fewer statements gains `δ` for each one it saves, so it wins once
/// `δ > (Tᵣ − Tᵥ) / (nᵥ − nᵣ)` (ᵥ the way warned against, ᵣ the way
/// recommended). A statement's cost here is the SQLite time of the side
/// warned against over its statements; the break-even is that cost plus
/// the `δ` at which both sides take the same time.
public struct StatementBreakEven: Codable, Equatable, Sendable {
    /// What a statement costs here: the SQLite time of the way warned
    /// against over its statements.
    public var statementSeconds: Double
    /// How many fewer statements the recommended way runs.
    public var fewerStatements: Int
    /// The cost per statement from which the recommended way is faster;
    /// 0 when it is faster at any cost.
    public var breakEvenSeconds: Double
    /// The cost per statement at which the source's ratio would be
    /// measured here; nil when no cost gives it (the recommended way runs
    /// too many statements of its own for that ratio).
    public var sourceRatioSeconds: Double?

    public init(statementSeconds: Double, fewerStatements: Int, breakEvenSeconds: Double, sourceRatioSeconds: Double?) {
        self.statementSeconds = statementSeconds
        self.fewerStatements = fewerStatements
        self.breakEvenSeconds = breakEvenSeconds
        self.sourceRatioSeconds = sourceRatioSeconds
    }

    /// Whether the recommended way is faster at what a statement costs here.
    public var winsHere: Bool { breakEvenSeconds < statementSeconds }

    /// The break-even of the way warned against (`baseline`) and the way
    /// recommended (`treatment`), where the source's ratio says the
    /// recommended way is faster (`sourceRatio` above 1) and it runs fewer
    /// statements; nil otherwise, or when the baseline's statements or
    /// SQLite time were not measured.
    public init?(baseline: ExperimentReport.Side, treatment: ExperimentReport.Side, sourceRatio: Double) {
        let (nb, nt) = (baseline.counters[.sqlStatements] ?? 0, treatment.counters[.sqlStatements] ?? 0)
        let (tb, tt) = (baseline.medianSeconds, treatment.medianSeconds)
        guard sourceRatio > 1, sourceRatio.isFinite, nb > nt, baseline.sqliteSeconds > 0, tb.isFinite, tt.isFinite else { return nil }
        let cost = baseline.sqliteSeconds / Double(nb)
        // The added cost per statement at which both take the same time.
        let delta = (tt - tb) / Double(nb - nt)
        // The added cost at which the baseline takes `sourceRatio` times the treatment's time.
        let denominator = Double(nb) - sourceRatio * Double(nt)
        let ratioCost = denominator > 0 ? cost + (sourceRatio * tt - tb) / denominator : nil
        self.init(
            statementSeconds: cost, fewerStatements: nb - nt, breakEvenSeconds: max(0, cost + delta),
            sourceRatioSeconds: ratioCost.flatMap { $0 > 0 && $0.isFinite ? $0 : nil })
    }
}
