import Foundation
import Insights
import Probes

/// What a SQL debug log (Faultline's or Core Data's) shows: statements by
/// shape, faults by entity and source, transactions, query plans, and the
/// insights they add up to. Codable for `perf-run log --json`.
public struct SQLLogAnalysis: Codable, Equatable, Sendable {
    /// Lines read, lines that were part of a log, lines skipped (other output).
    public var lines = 0
    public var logLines = 0
    public var skippedLines = 0
    /// Lines cut because they were longer than the limit.
    public var truncatedLines = 0
    /// The analyzer's bounds this log reached, one line each: the bound
    /// and what reaching it cost (`10,000 distinct statement shapes: 12
    /// statements of later shapes not counted apart (not in the statements
    /// table)`). Empty when the analysis is complete.
    public var limitsReached: [String] = []
    /// Statements whose time was given but is not a finite number of
    /// seconds (`inf`, `nan`, a number too large for a `Double`): counted
    /// as statements, their time as unknown (as a masked `#.######s` is);
    /// and the line of the first.
    public var timesNotFinite = 0
    public var firstTimeNotFiniteLine: Int?
    /// First lines whose `CoreData: ` prefix the paste cut (`ata: sql: …`),
    /// read as log lines.
    public var recoveredLines = 0
    /// Lines that continue a wrapped statement, joined to it.
    public var joinedLines = 0
    /// The formats seen, sorted: the raw values of ``SQLLogFormat``
    /// (`faultline`, `coredata` (a cut prefix recovered as one of them),
    /// `unprefixed` (log lines pasted without the prefix), `sqlite3` (shell
    /// plan rows with no other log line before them)).
    public var formats: [String] = []
    /// `UTF-16` when the file was UTF-16 (read as UTF-8), `binary` when it
    /// did not look like text; nil for UTF-8.
    public var encoding: String?
    public var statements: [ShapeSummary] = []
    public var faults: [FaultSummary] = []
    public var relationshipFaults: [FaultSummary] = []
    public var prefetches: [FaultSummary] = []
    public var transactions = 0
    /// Core Data's count requests (`total count request execution time`).
    public var countRequests = 0
    /// Core Data's annotations that report a fetch's rows (`total fetch
    /// execution time: … for N rows`, `fetch using … returned N rows`),
    /// every one read: at levels 2 and above one fetch prints both.
    public var rowCountAnnotations = 0
    /// Core Data's fetches whose rows an annotation reports, each counted
    /// once whether it printed one row count or two.
    public var fetchesWithRows = 0
    /// The rows of those fetches, each fetch's once.
    public var rowsReported = 0
    /// Of those fetches, the ones with no statement in the log to attribute
    /// the rows to (a paste that starts after the SELECT).
    public var annotationsWithoutStatement = 0
    /// Statements read from Core Data's level 3 `fetch using … with sql
    /// text '…'` annotations, whose `sql:` line the log does not have
    /// (a statement with its `sql:` line is counted once, from that line).
    public var statementsFromFetchAnnotations = 0
    /// The values Core Data's level 3 prints with a fetch (`returned N rows
    /// with values: (…)`), at most 1,000 fetches, each text kept cut at
    /// 4,096 bytes.
    public var fetchValues: [FetchValues] = []
    /// Core Data's bound intarrays (`bound intarray _Z_intarray0 values: …`):
    /// key lists bound for a prefetch or a batch fault.
    public var boundIntarrays = 0
    /// Statements between a BEGIN and its COMMIT, ROLLBACK or END (those
    /// themselves not counted).
    public var statementsInTransactions = 0
    /// The ten transactions with the most statements, largest first.
    public var largestTransactions: [TransactionSummary] = []
    /// Every distinct query plan row (at most 1,000), full scans marked.
    public var planRows: [PlanRow] = []
    /// The plan rows that are full scans.
    public var fullScans: [String] = []
    /// What the insight rules found in the log: the same rules, words and
    /// thresholds as a run's (``InsightEngine``), as far as the log shows
    /// the evidence. For a log that marks a run's iterations, the insights
    /// of ``scenarios``, one after another.
    public var insights: [Insight] = []
    /// The scenarios of a run whose log marks its iterations, each with the
    /// insights of one iteration, as the run's report judges them (nil for
    /// a log without such marks, which is judged whole).
    public var scenarios: [JudgedScenario]?
    /// Lazy loads a fetch line said it intends (` intending author`) that
    /// no insight matched, `Entity.keyPath at File.swift:line` (for a log
    /// that marks iterations, those of the iterations judged); nil for none.
    public var unmatchedIntentions: [String]?
    /// Activity along the log: statements, faults and statement time per
    /// stretch of `linesPerBucket` lines (at most 128 stretches; they widen,
    /// doubling, as the log grows, so memory stays bounded).
    public var timeline: [TimelineBucket] = []
    public var linesPerBucket = 0
    /// Every statement read, those of shapes beyond the statements table
    /// (``statements``, at most 10,000 shapes) included; nil in an
    /// analysis written before it was counted.
    public var totalStatements: Int?
    /// The distinct statement shapes read, those beyond the statements
    /// table included: exact up to 110,000 shapes, a lower bound beyond
    /// (the limit said in ``limitsReached``); nil in an analysis written
    /// before it was counted.
    public var totalShapes: Int?
    /// Core Data's own error and warning lines (`CoreData: error: …`,
    /// `CoreData: warning: …`, `Disconnecting from sqlite database due to
    /// an error`), each with its line, in the order read: at most 1,000,
    /// each message kept cut at 4,096 bytes; nil when the log has none.
    public var findings: [Finding]?
    /// The error and warning lines read, every one (listed or not); nil for none.
    public var errorLines: Int?
    public var warningLines: Int?

    /// One of Core Data's error or warning lines.
    public struct Finding: Codable, Equatable, Sendable {
        public enum Level: String, Codable, Sendable {
            case error, warning
        }

        /// The line it was read at.
        public var line: Int
        public var level: Level
        /// Its message: the text after `error: ` or `warning: `.
        public var message: String
    }

    /// A distinct set of bound values of a statement shape, and how many
    /// of its executions bound it.
    public struct BoundValues: Codable, Equatable, Sendable {
        /// The first 8 values, as the log printed them, each cut at 64
        /// bytes (a cut one ends with `…`).
        public var values: [String]
        /// Values of the set beyond those shown.
        public var valuesNotShown: Int
        /// Executions that bound exactly these values (more than one: duplicates).
        public var executions: Int
        /// The line of the first.
        public var firstLine: Int
    }

    /// The statements counted in the headline: ``totalStatements`` when
    /// known, else the statements table's.
    public var statementsInHeadline: Int { totalStatements ?? statements.map(\.count).saturatedSum() }
    /// The shapes counted in the headline: ``totalShapes`` when known,
    /// else the statements table's.
    public var shapesInHeadline: Int { totalShapes ?? statements.count }

    /// One transaction: where it began, its statements, how it ended
    /// (`commit`, `rollback`, `open` at the end of the log, `unfinished` when
    /// 64 were open at once and it was the innermost).
    public struct TransactionSummary: Codable, Equatable, Sendable {
        public var firstLine: Int
        public var statements: Int
        public var outcome: String
    }

    /// A query plan row, how often it was printed, and whether it scans a
    /// whole table.
    public struct PlanRow: Codable, Equatable, Sendable {
        public var row: String
        public var count: Int
        public var fullScan: Bool
        public var firstLine: Int
    }

    /// One stretch of lines of the timeline.
    public struct TimelineBucket: Codable, Equatable, Sendable {
        public var statements = 0
        public var faults = 0
        public var seconds = 0.0
    }

    /// One statement shape.
    public struct ShapeSummary: Codable, Equatable, Sendable {
        public var shape: String
        public var count: Int
        /// Executions with bound values (or literals) already seen for this
        /// shape: duplicates; the others are similar statements.
        public var duplicates: Int
        public var totalSeconds: Double
        public var maxSeconds: Double
        public var rows: Int
        /// The line of its first execution.
        public var firstLine: Int
        /// Its bound values (Core Data's level 2 `bind[i]` lines,
        /// Faultline's from level 2): the first 4 distinct sets, each with
        /// its executions; nil when its statements bound none.
        public var values: [BoundValues]?
    }

    /// Faults (or relationship faults, prefetches) of one entity from one source.
    public struct FaultSummary: Codable, Equatable, Sendable {
        public var entity: String
        public var source: String
        public var count: Int
        public var firstLine: Int

        /// The entity in words: ``SQLLogAnalysis/unknownEntity`` (a fault
        /// line without the object's URI) said as `unknown entity`.
        public var entityInWords: String {
            if entity == SQLLogAnalysis.unknownEntity { return "unknown entity" }
            if entity.hasPrefix(SQLLogAnalysis.unknownEntity + ".") { return "unknown entity" + entity.dropFirst() }
            return entity
        }
    }

    /// The entity of a fault whose line names no object (Core Data's URI
    /// cut from the paste): `?` in the tables and the JSON.
    public static let unknownEntity = "?"

    /// The values Core Data's level 3 prints after a fetch's row count.
    public struct FetchValues: Codable, Equatable, Sendable {
        /// The line of the `fetch using … returned N rows with values:` annotation.
        public var line: Int
        /// The entity the annotation names (`on entity 'Person'`).
        public var entity: String
        /// The shape of the fetch's statement, as the statements table has it.
        public var shape: String
        public var rows: Int
        /// The values as printed, each line trimmed and joined with a
        /// space; a text longer than 4,096 bytes is kept cut and says how
        /// long it was.
        public var values: String
        /// The lines the values took in the log.
        public var lines: Int
    }

    /// ``formats`` as ``SQLLogFormat`` values.
    public var logFormats: [SQLLogFormat] { formats.compactMap(SQLLogFormat.init(rawValue:)) }

}
