/// The SQL debug log's grammar, defined once: the markers a line's log
/// text follows, its kinds (`sql:`, `details:`, `plan:`, `annotation:`) and
/// the phrases of each kind, Faultline's and Core Data's
/// (docs/sql-debug-log.md). The writer (``SQLDebugLogFormat``) writes these
/// phrases and the tokenizer (``SQLDebugLogLine``) reads them; the reader
/// (`perf-run log`) reads typed lines only.
///
/// Every phrase is ASCII, so a phrase found in a line's bytes is where it
/// stands in its text.
package enum SQLDebugLogGrammar {
    // MARK: Markers

    /// Faultline's marker, the start of each of its lines.
    package static let faultlineMarker: StaticString = "faultline: "
    /// Core Data's marker (Xcode's console).
    package static let coreDataMarker: StaticString = "CoreData: "
    /// A marker's end: the colon and space after its word.
    package static let markerEnd: StaticString = ": "
    /// The end of Core Data's marker: found also when a paste cut its start
    /// (`oreData: `).
    package static let coreDataMarkerEnd: StaticString = "reData: "
    /// The unified log's sender, where Xcode's console prints `CoreData: `
    /// (`log stream`, `log show`, Console.app: `MyApp: (CoreData)
    /// [com.apple.coredata:sql] sql: SELECT …`), with the subsystem and
    /// category in brackets when the line shows them.
    package static let unifiedLogSender: StaticString = "(CoreData) "
    /// The end of the unified log's `[subsystem:category] `.
    package static let subsystemEnd: StaticString = "] "

    // MARK: Kinds

    /// The kinds of log line: the word after the marker.
    package enum Kind: CaseIterable, Sendable {
        /// `sql: <statement>`.
        case sql
        /// `details: …`: a bound value, a level 3 value, Core Data's EXPLAIN.
        case details
        /// `plan: <row>`: Faultline's query plan rows.
        case plan
        /// `annotation: …`: a statement's time and rows, an operation.
        case annotation

        /// The kind's word, with its colon and space (`sql: `).
        package var word: StaticString {
            switch self {
            case .sql: "sql: "
            case .details: "details: "
            case .plan: "plan: "
            case .annotation: "annotation: "
            }
        }
    }

    // MARK: Core Data's own messages

    /// Core Data's error and warning lines (`CoreData: error: …`,
    /// `CoreData: warning: …`; the unified log's `[com.apple.coredata:error]
    /// error: …`): the word after the marker.
    package static let errorWord: StaticString = "error: "
    package static let warningWord: StaticString = "warning: "
    /// An annotation that is an error of the store: Core Data closes its
    /// connection after SQLite failed.
    package static let disconnecting: StaticString = "Disconnecting from sqlite database"

    // MARK: details:

    /// `bind[<i>] = <value>` (Faultline), `SQLite bind[<i>] = <value>` (Core Data).
    package static let bind: StaticString = "bind["
    package static let bindValue: StaticString = "] = "
    /// Core Data's bound key lists: `bound intarray <name> values: …` (a
    /// detail) or `Bound intarray <name>` (an annotation).
    package static let boundIntarray: StaticString = "bound intarray "
    package static let boundIntarrayAnnotation: StaticString = "Bound intarray "
    /// Core Data's level 4: `SQLite: EXPLAIN QUERY PLAN <statement>`.
    package static let explainQueryPlan: StaticString = "EXPLAIN QUERY PLAN"
    /// Faultline's level 3: `fetched <Entity>/p<key> {<values>}`.
    package static let fetched: StaticString = "fetched "
    /// Faultline's level 3: `values of <Entity>/p<key>: {<values>}`.
    package static let valuesOf: StaticString = "values of "

    // MARK: plan:

    /// Ends a plan row that scans a whole table (after two spaces).
    package static let fullScanMark: StaticString = "[full scan]"
    /// What the writer puts between a full scan's row and its mark.
    package static let fullScanMarkSeparator: StaticString = "  "

    // MARK: annotation: a statement's figures

    /// `sql execution time: <t>s, rows: <n>, changed: <n>[, scanned: <n>][, sorts: <n>][, values: <digest>], purpose: <purpose>`
    /// (Faultline); Core Data prints the time alone (a pragma's).
    package static let sqlExecutionTime: StaticString = "sql execution time: "
    /// Before each of a statement's figures.
    package static let figureSeparator: StaticString = ", "
    package static let rows: StaticString = "rows: "
    package static let changed: StaticString = "changed: "
    package static let scanned: StaticString = "scanned: "
    package static let sorts: StaticString = "sorts: "
    /// Level 1's digest of a statement's bound values (``SQLDebugLogValuesDigest``),
    /// which level 2 shows instead: executions with the same values show
    /// the same digest, so the reader tells repeats at every level.
    package static let values: StaticString = "values: "
    /// The purpose ends the line (it may hold any text).
    package static let purpose: StaticString = ", purpose: "

    // MARK: annotation: faults

    /// `fault fulfilled from <source> for <object> in <t>s[ <lazy load>]`
    /// (Faultline); `fault fulfilled from database for : <id> <uri>` (Core Data).
    package static let faultFulfilledFrom: StaticString = "fault fulfilled from "
    /// `to-many relationship fault "<name>" for <object> fulfilled from
    /// <source>: <n> <Destination> in <t>s[ <lazy load>]` (Faultline), `…
    /// for objectID … fulfilled from database.  Got <n> rows` (Core Data).
    package static let toManyRelationshipFault: StaticString = "to-many relationship fault \""
    package static let relationshipFault: StaticString = "relationship fault \""
    package static let relationshipName: StaticString = "\" for "
    package static let fulfilled: StaticString = " fulfilled "
    package static let fulfilledFrom: StaticString = "fulfilled from "
    package static let fromDatabase: StaticString = "from database"
    package static let fromRowCache: StaticString = "from row cache"
    package static let got: StaticString = "Got "
    /// Where a lazy load's object came from: ` (<absent|stale>[; engine
    /// <work>]; from fetch <run> of <Entity> at <site>[ through
    /// <key.path>]; read at <site>)`.
    package static let lazyLoadOpen: StaticString = " ("
    package static let lazyLoadSeparator: StaticString = "; "
    package static let lazyLoadClose: StaticString = ")"
    package static let fromFetch: StaticString = "from fetch "
    package static let through: StaticString = " through "
    package static let readAt: StaticString = "read at "
    /// A load the engine made for its own bookkeeping: `engine <work>`
    /// (``EngineWork``'s raw values: `engine inverse`, `engine delete rule`).
    package static let engine: StaticString = "engine "
    /// The words of a fault's source (``FaultSource``'s raw values); any
    /// other is the row cache.
    package static let database: StaticString = "database"
    package static let context: StaticString = "context"
    /// Core Data names an object by its URI.
    package static let objectURI: StaticString = "x-coredata:"
    package static let objectURIInBrackets: StaticString = "<x-coredata:"
    /// An object's key: `Entity/p42`.
    package static let primaryKey: StaticString = "/p"

    // MARK: annotation: operations (Faultline)

    /// `fetch of <Entity>[ where <predicate>][ sorted by <keys>][ prefetching
    /// <paths>][ intending <paths>]: <n> <objects[ with values]|ids|dictionaries> in <t>s at <site>`.
    package static let fetchOf: StaticString = "fetch of "
    package static let whereClause: StaticString = " where "
    package static let sortedBy: StaticString = " sorted by "
    package static let prefetching: StaticString = " prefetching "
    /// ` intending <key paths>`: lazy loads the fetch intends (last before the colon).
    package static let intending: StaticString = " intending "
    package static let withValues: StaticString = " with values"
    /// `count of <Entity>[ where <predicate>]: <n> in <t>s at <site>`.
    package static let countOf: StaticString = "count of "
    /// `save of context <name>: <i> inserted, <u> updated, <d> deleted in <t>s at <site>`,
    /// `save of context <name> failed in <t>s at <site>: <error>`.
    package static let saveOfContext: StaticString = "save of context "
    package static let inserted: StaticString = " inserted, "
    package static let updated: StaticString = " updated, "
    package static let deleted: StaticString = " deleted"
    package static let failedIn: StaticString = " failed in "
    /// `batch <update|insert|delete> of <Entity>: <n> rows in <t>s at <site>`.
    package static let batch: StaticString = "batch "
    package static let rowsWord: StaticString = " rows"
    /// `prefetch of <Entity>.<relationship> in context <name>: prefetched for <n> objects, read for <n>, at <site>`.
    package static let prefetchOf: StaticString = "prefetch of "
    package static let inContext: StaticString = " in context "
    package static let prefetchedFor: StaticString = "prefetched for "
    package static let objectsReadFor: StaticString = " objects, "
    package static let readFor: StaticString = "read for "
    /// Ends the list before the call site: `read for <n>, at <site>`.
    package static let listEnd: StaticString = ","
    /// `fetch use of <Entity> in context <name>: <n> runs, <n> objects, <n>
    /// read; <n> runs read none, up to <n> objects; up to <n> of <n> unread
    /// without batch size, at <site>` (``FetchUsage``): seven numbers, in
    /// this order.
    package static let fetchUseOf: StaticString = "fetch use of "
    package static let runsComma: StaticString = " runs, "
    package static let objectsComma: StaticString = " objects, "
    package static let readSemicolon: StaticString = " read; "
    package static let runsReadNoneUpTo: StaticString = " runs read none, up to "
    package static let objectsSemicolonUpTo: StaticString = " objects; up to "
    package static let unreadWithoutBatchSize: StaticString = " unread without batch size"
    /// Between a fault's source and its object, a total's time and its rows.
    package static let forWord: StaticString = " for "
    /// Between a batch's kind and its entity, a fetch's run and its entity.
    package static let of: StaticString = " of "
    /// Between an operation's head and its result: `<head>: <result>`.
    package static let colon: StaticString = ": "
    /// Before a time: ` in 0.000123s`.
    package static let inTime: StaticString = " in "
    /// Before a call site, last on the line: ` at File.swift:12`.
    package static let at: StaticString = " at "
    /// Seconds end with `s`: `0.000123s`.
    package static let secondsUnit: StaticString = "s"

    // MARK: annotation: a run's iterations (Faultline)

    /// `iteration <n> begins: <scenario>` and `iteration <n> ends:
    /// <scenario>`: the iterations of a run's scenarios (warm-up ones are
    /// numbered 0 and below), the scenario's name last (it may hold any
    /// text). The reader judges each iteration's work apart, as a run does.
    package static let iteration: StaticString = "iteration "
    package static let begins: StaticString = " begins: "
    package static let ends: StaticString = " ends: "

    // MARK: annotation: Core Data's fetches

    /// `sql connection fetch time: <t>s`: the statement before is a fetch under way.
    package static let sqlConnectionFetchTime: StaticString = "sql connection fetch time: "
    /// `total count request execution time: <t>s for count of <n>.`
    package static let totalCountRequestExecutionTime: StaticString = "total count request execution time: "
    /// `total fetch execution time: <t>s for <n> rows.`
    package static let totalFetchExecutionTime: StaticString = "total fetch execution time: "
    /// `fetch using NSSQLiteStatement <0x…> on entity '<E>' with sql text
    /// '<sql>' returned <n> rows[ with values: (…]`.
    package static let fetchUsing: StaticString = "fetch using "
    package static let onEntity: StaticString = " on entity '"
    package static let withSQLText: StaticString = " with sql text '"
    package static let returned: StaticString = " returned "
    package static let rowsWithValues: StaticString = " rows with values: "
    package static let withValuesColon: StaticString = " with values: "
    /// `Prefetching with key '<key>'.  Got <n> rows.`
    package static let prefetchingWithKey: StaticString = "Prefetching with key '"

    // MARK: Other lines

    /// A line that mentions a query plan (a sqlite3 prompt, a fenced
    /// block): plan rows may follow.
    package static let queryPlan: StaticString = "QUERY PLAN"
    package static let queryPlanLower: StaticString = "query plan"
}
