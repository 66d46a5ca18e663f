/// A kind of SQL debug log line the viewer reads: the format a log (or
/// part of it) is written in. ``SQLLogAnalysis/formats`` lists the raw
/// values of the ones a log has.
public enum SQLLogFormat: String, Codable, Sendable, CaseIterable, Comparable {
    /// Faultline's own log (`faultline: sql: …`, docs/sql-debug-log.md).
    case faultline
    /// Core Data's `-com.apple.CoreData.SQLDebug` lines (`CoreData: sql: …`,
    /// the unified log's `(CoreData) [com.apple.coredata:sql] sql: …`), a
    /// prefix cut short (`oreData: sql: …`) included.
    case coredata
    /// `sql: …`, `annotation: …` lines pasted without any prefix.
    case unprefixed
    /// Query plan rows as the sqlite3 shell prints them, in a paste that
    /// has no log line of another format before them.
    case sqlite3

    public static func < (a: SQLLogFormat, b: SQLLogFormat) -> Bool { a.rawValue < b.rawValue }
}
