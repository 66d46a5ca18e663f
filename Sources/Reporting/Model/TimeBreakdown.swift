/// Where an iteration's wall time went: SQLite (every statement), the row
/// cache (faults fulfilled from it), and the rest (the engine's own work in
/// contexts, and the scenario's code).
///
/// A scenario's breakdown is that of its median iteration (for an even
/// number of iterations, the mean of the two middle ones by wall time), so
/// that its parts add up to the median wall time the report shows: an
/// attribution never exceeds the time it divides. Where the scenario's
/// threads ran statements at once (``summedOverThreads``), the SQLite and
/// row cache times are summed over the threads and can exceed the wall
/// time: they are per-thread time, and there is no rest.
public struct TimeBreakdown: Codable, Equatable, Sendable {
    public var sqliteSeconds: Double
    public var rowCacheSeconds: Double
    public var otherSeconds: Double
    /// The wall time of the iteration divided (the median iteration's);
    /// nil in reports written before it was recorded, whose parts are
    /// each the median over the iterations.
    public var wallSeconds: Double?
    /// True when the scenario ran statements on several threads at once,
    /// so that SQLite and row cache times are summed over threads; nil
    /// (false) otherwise.
    public var summedOverThreads: Bool?

    public init(sqliteSeconds: Double, rowCacheSeconds: Double, otherSeconds: Double, wallSeconds: Double? = nil, summedOverThreads: Bool? = nil) {
        self.sqliteSeconds = sqliteSeconds
        self.rowCacheSeconds = rowCacheSeconds
        self.otherSeconds = otherSeconds
        self.wallSeconds = wallSeconds
        self.summedOverThreads = summedOverThreads
    }

    /// One iteration's breakdown: the rest is what SQLite and the row
    /// cache leave of the wall time (none when they exceed it, as threads
    /// that run at once can).
    public init(iterationWallSeconds wall: Double, sqliteSeconds: Double, rowCacheSeconds: Double) {
        self.init(
            sqliteSeconds: sqliteSeconds, rowCacheSeconds: rowCacheSeconds, otherSeconds: max(0, wall - sqliteSeconds - rowCacheSeconds),
            wallSeconds: wall, summedOverThreads: sqliteSeconds + rowCacheSeconds > wall ? true : nil)
    }

    /// The breakdown of the median iteration of `iterations` (each made by
    /// ``init(iterationWallSeconds:sqliteSeconds:rowCacheSeconds:)``): the
    /// middle one by wall time, or the mean of the two middle ones. Summed
    /// over threads when `concurrent` (the scenario runs work on several
    /// threads) or when any iteration's parts exceeded its wall time. Nil
    /// for no iterations.
    public static func median(of iterations: [TimeBreakdown], concurrent: Bool = false) -> TimeBreakdown? {
        guard !iterations.isEmpty else { return nil }
        let sorted = iterations.sorted { ($0.wallSeconds ?? 0) < ($1.wallSeconds ?? 0) }
        let middle = sorted.count % 2 == 1 ? [sorted[sorted.count / 2]] : [sorted[sorted.count / 2 - 1], sorted[sorted.count / 2]]
        func mean(_ part: (TimeBreakdown) -> Double) -> Double { middle.map(part).reduce(0, +) / Double(middle.count) }
        let overlapped = concurrent || iterations.contains { $0.summedOverThreads == true }
        return TimeBreakdown(
            sqliteSeconds: mean(\.sqliteSeconds), rowCacheSeconds: mean(\.rowCacheSeconds),
            otherSeconds: overlapped ? 0 : mean(\.otherSeconds), wallSeconds: mean { $0.wallSeconds ?? 0 },
            summedOverThreads: overlapped ? true : nil)
    }

    /// The parts as shares of the wall time `wall` (the breakdown's own
    /// when it has one): SQLite, the row cache and the rest, adding up to
    /// the wall time; nil when the times are summed over threads or exceed
    /// the wall time (a report from before the breakdown was of one
    /// iteration), which can then only be shown as per-thread time.
    public func attribution(wallSeconds median: Double) -> (sqlite: Double, rowCache: Double, rest: Double, wall: Double)? {
        let wall = wallSeconds ?? median
        guard summedOverThreads != true, wall.isFinite, sqliteSeconds + rowCacheSeconds <= wall else { return nil }
        return (sqliteSeconds, rowCacheSeconds, wall - sqliteSeconds - rowCacheSeconds, wall)
    }
}
