import Foundation

/// The history store's tables, in SQLite's and PostgreSQL's SQL: one
/// schema, two dialects, and the statements both stores run. Values are
/// always bound parameters; only these fixed fragments are SQL text.
///
/// - `faultline_history_schema`: one row, (`history`, version).
/// - `faultline_history_runs`: one row per run, keyed by its identity;
///   `report` holds the report's whole JSON; project, branch, runner,
///   commit and time are columns for queries, with indexes for the
///   questions `trend` asks (a project's branch and runner over time).
struct HistorySchema {
    enum Dialect {
        case sqlite, postgreSQL
    }

    /// Bumped when the tables change; a store of a newer version is
    /// refused, not misread.
    static let version = 1
    static let schemaTable = "faultline_history_schema"
    static let runsTable = "faultline_history_runs"
    /// The prefix of every table of the history.
    static let tablePrefix = "faultline_history_"

    let dialect: Dialect

    /// The `index`th parameter (from 1): `?` or `$1`.
    func parameter(_ index: Int) -> String {
        switch dialect {
        case .sqlite: "?"
        case .postgreSQL: "$\(index)"
        }
    }

    /// Creates what is missing; harmless when everything is there.
    var creation: [String] {
        let time: String
        let json: String
        switch dialect {
        case .sqlite:
            (time, json) = ("TEXT", "TEXT")
        case .postgreSQL:
            // json (not jsonb) keeps the report's text as it was written.
            (time, json) = ("TIMESTAMPTZ", "JSON")
        }
        return [
            "CREATE TABLE IF NOT EXISTS \(Self.schemaTable) (name TEXT PRIMARY KEY, version INTEGER NOT NULL)",
            """
            CREATE TABLE IF NOT EXISTS \(Self.runsTable) (
                identity TEXT PRIMARY KEY,
                project TEXT NOT NULL,
                branch TEXT NOT NULL,
                runner TEXT NOT NULL,
                git_commit TEXT NOT NULL,
                run_time \(time) NOT NULL,
                added_time \(time) NOT NULL,
                report \(json) NOT NULL
            )
            """,
            "CREATE INDEX IF NOT EXISTS \(Self.runsTable)_by_branch ON \(Self.runsTable) (project, branch, runner, run_time)",
            "CREATE INDEX IF NOT EXISTS \(Self.runsTable)_by_runner ON \(Self.runsTable) (project, runner, run_time)",
            "CREATE INDEX IF NOT EXISTS \(Self.runsTable)_by_time ON \(Self.runsTable) (run_time)",
            "INSERT INTO \(Self.schemaTable) (name, version) VALUES (\(parameter(1)), \(parameter(2))) ON CONFLICT (name) DO NOTHING",
        ]
    }

    /// The values `creation`'s last statement binds.
    static var versionRow: [String?] { ["history", String(version)] }

    /// The schema's version, as kept.
    var versionQuery: String { "SELECT version FROM \(Self.schemaTable) WHERE name = \(parameter(1))" }

    /// Adds one run unless its identity is kept already.
    var insert: String {
        let values = (1...8).map { index in
            let placeholder = parameter(index)
            // The two times are ISO 8601 text; PostgreSQL reads them into timestamptz.
            return dialect == .postgreSQL && (index == 6 || index == 7) ? "\(placeholder)::timestamptz" : placeholder
        }
        return """
            INSERT INTO \(Self.runsTable) (identity, project, branch, runner, git_commit, run_time, added_time, report)
            VALUES (\(values.joined(separator: ", "))) ON CONFLICT (identity) DO NOTHING
            """
    }

    /// The values `insert` binds for `run`, with its report's JSON.
    static func insertValues(_ run: HistoryRun, reportJSON: String, added: String) -> [String?] {
        [run.identity.rawValue, run.project, run.branch, run.runner, run.commit, HistoryTime.text(run.time), added, reportJSON]
    }

    /// The runs `query` matches, oldest first: identity, project, branch,
    /// runner, commit, time (ISO 8601 text), report. Only the filters
    /// given appear, each a bound parameter.
    func select(_ query: HistoryQuery) -> (sql: String, values: [String?]) {
        var conditions: [String] = []
        var values: [String?] = []
        for (column, value) in [("project", query.project), ("branch", query.branch), ("runner", query.runner)] {
            guard let value else { continue }
            values.append(value)
            conditions.append("\(column) = \(parameter(values.count))")
        }
        if let since = query.since {
            values.append(HistoryTime.text(since))
            conditions.append("run_time >= \(parameter(values.count))\(dialect == .postgreSQL ? "::timestamptz" : "")")
        }
        let time: String
        let order: String
        switch dialect {
        case .sqlite:
            time = "run_time"
            order = "run_time, identity"
        case .postgreSQL:
            time = #"to_char(run_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')"#
            order = #"run_time, identity COLLATE "C""#
        }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return ("SELECT identity, project, branch, runner, git_commit, \(time), report FROM \(Self.runsTable)\(filter) ORDER BY \(order)", values)
    }
}

extension HistorySchema {
    /// The JSON a run's report is kept as: perf-run's own (keys sorted), on one line.
    static func reportJSON(_ run: HistoryRun, store: String) throws(HistoryError) -> String {
        do {
            return String(decoding: try ReportFile.json(run.report, pretty: false), as: UTF8.self)
        } catch {
            throw HistoryError("\(store): run \(run.identity): the report cannot be written as JSON: \(error)")
        }
    }

    /// A run from a row of ``select(_:)``.
    static func run(_ row: [String?], store: String) throws(HistoryError) -> HistoryRun {
        guard row.count == 7, let identity = row[0], let project = row[1], let branch = row[2], let runner = row[3],
            let commit = row[4], let timeText = row[5], let json = row[6]
        else { throw HistoryError("\(store): a run with a missing column") }
        guard let time = HistoryTime.date(timeText) else {
            throw HistoryError("\(store): run \(identity): the time \(timeText) is not ISO 8601")
        }
        let report: Report
        do {
            report = try JSONDecoder().decode(Report.self, from: Data(json.utf8))
        } catch let error as DecodingError {
            throw HistoryError("\(store): run \(identity): the kept report cannot be read: \(ReportDecodingFailure.describe(error))")
        } catch {
            throw HistoryError("\(store): run \(identity): the kept report cannot be read: \(error)")
        }
        return HistoryRun(
            identity: RunIdentity(rawValue: identity), project: project, branch: branch, runner: runner, commit: commit, time: time,
            report: report)
    }
}
