import Foundation
import Probes
import SQLLogViewer
import ToolSupport

/// The plain-text view of an `SQLLogAnalysis`: what `perf-run log` prints.
public enum SQLLogText {
    /// Renders the analysis; `limit` caps each table's rows.
    public static func render(_ analysis: SQLLogAnalysis, limit: Int = 20) -> String {
        var out = "\(CountText.count(analysis.logLines)) log lines\(formatsNote(analysis)) of \(CountText.count(analysis.lines)) read"
        if analysis.skippedLines > 0 { out += ", \(CountText.count(analysis.skippedLines)) skipped" }
        if analysis.truncatedLines > 0 {
            out += ", \(CountText.count(analysis.truncatedLines)) cut at \(CountText.count(SQLLogAnalyzer.maximumLineBytes)) bytes"
        }
        out += "\n"
        out += "\(statementsNote(analysis)); \(CountText.count(analysis.transactions)) transactions"
        out += " holding \(CountText.count(analysis.statementsInTransactions)) statements"
        if analysis.countRequests > 0 { out += "; \(CountText.count(analysis.countRequests)) count requests" }
        if analysis.boundIntarrays > 0 { out += "; \(CountText.count(analysis.boundIntarrays)) bound intarrays" }
        out += "\n"
        if let note = fetchesNote(analysis) { out += note + "\n" }
        if let note = timesNote(analysis) { out += note + "\n" }
        if !analysis.limitsReached.isEmpty {
            out += "\nLimits reached (the analysis is incomplete)\n"
            for limit in analysis.limitsReached { out += "  \(limit)\n" }
        }
        if let findings = analysis.findings, !findings.isEmpty {
            out += "\n\(findingsNote(analysis))\n"
            for finding in findings.prefix(limit) {
                out += "  line \(finding.line) \(finding.level.rawValue): \(TerminalText.escape(String(finding.message.prefix(240))))\n"
            }
        }
        if !analysis.insights.isEmpty {
            out += "\nInsights\n"
            for insight in analysis.insights {
                out += "  [\(insight.rule)] \(insight.callSite): \(insight.message)\n      \(insight.evidence)\n"
            }
        }
        if !analysis.statements.isEmpty {
            out += "\nStatements by total time\n"
            out += "  " + ["count", "dups", "total", "mean", "max", "rows", "line"].enumerated().map { column, title in
                pad(title, statementColumns[column])
            }.joined(separator: " ") + "  shape\n"
            for shape in analysis.statements.prefix(limit) {
                let cells = [
                    CountText.count(shape.count), CountText.count(shape.duplicates), TimeText.seconds(shape.totalSeconds),
                    TimeText.seconds(shape.totalSeconds / Double(max(shape.count, 1))), TimeText.seconds(shape.maxSeconds),
                    CountText.count(shape.rows), String(shape.firstLine),
                ]
                out += "  " + cells.enumerated().map { column, cell in pad(cell, statementColumns[column]) }.joined(separator: " ")
                out += "  " + String(shape.shape.prefix(160)) + "\n"
            }
        }
        let withValues = analysis.statements.prefix(limit).filter { $0.values != nil }
        if !withValues.isEmpty {
            out += "\nBound values (the first \(SQLLogAnalyzer.maximumBoundValueSetsShown) distinct sets of each shape; ×N: executions that bound them)\n"
            for shape in withValues {
                out += "  " + TerminalText.escape(String(shape.shape.prefix(160))) + "\n"
                for set in shape.values ?? [] {
                    out += "    " + pad(CountText.count(set.executions), 5) + "× line \(set.firstLine): " + valuesText(set, escape: TerminalText.escape) + "\n"
                }
            }
        }
        for (title, table) in [("Faults", analysis.faults), ("Relationship faults", analysis.relationshipFaults),
                               ("Prefetches", analysis.prefetches)] where !table.isEmpty {
            out += "\n\(title)\n"
            for row in table.prefix(limit) {
                out += "  " + pad(CountText.count(row.count), 6) + "  \(row.entityInWords) from \(row.source) (first at line \(row.firstLine))\n"
            }
        }
        if !analysis.largestTransactions.isEmpty {
            out += "\nLargest transactions\n"
            for transaction in analysis.largestTransactions.prefix(limit) {
                out += "  " + pad(CountText.count(transaction.statements), 6) + " statements from line \(transaction.firstLine), \(transaction.outcome)\n"
            }
        }
        if !analysis.fetchValues.isEmpty {
            out += "\nFetched values (level 3)\n"
            for fetch in analysis.fetchValues.prefix(limit) {
                out += "  line \(fetch.line): \(fetch.entity), \(fetch.rows.groupedDigits) rows: \(String(fetch.values.prefix(160)))\n"
            }
        }
        if !analysis.planRows.isEmpty {
            out += "\nQuery plans (\(CountText.count(analysis.fullScans.count)) full scans)\n"
            for row in analysis.planRows.prefix(limit) {
                out += "  " + pad(CountText.count(row.count), 6) + "  \(row.fullScan ? "FULL SCAN  " : "")\(row.row) (line \(row.firstLine))\n"
            }
        }
        return out
    }

    /// `20000 statements in 20000 shapes`: every statement and shape read;
    /// when the statements table could not list every shape, how many it
    /// lists and the statements of later shapes not counted apart.
    public static func statementsNote(_ analysis: SQLLogAnalysis) -> String {
        let statements = analysis.statementsInHeadline, shapes = analysis.shapesInHeadline
        let lowerBound = shapes >= SQLLogAnalyzer.maximumShapes + SQLLogAnalyzer.maximumShapesCountedApart
        var note = "\(CountText.count(statements)) statements in \(lowerBound ? "at least " : "")\(CountText.count(shapes)) shapes"
        if shapes > analysis.statements.count {
            let listed = analysis.statements.map(\.count).saturatedSum()
            note += " (\(CountText.count(analysis.statements.count)) shapes listed; \(CountText.count(statements - listed)) statements "
                + "of later shapes not counted apart)"
        }
        return note
    }

    /// `2 Core Data errors and 1 warning (line: message)`: the error and
    /// warning lines read.
    static func findingsNote(_ analysis: SQLLogAnalysis) -> String {
        let errors = analysis.errorLines ?? 0, warnings = analysis.warningLines ?? 0
        var note = "Core Data's errors and warnings: \(errors) error line\(errors == 1 ? "" : "s"), \(warnings) warning line\(warnings == 1 ? "" : "s")"
        let listed = analysis.findings?.count ?? 0
        if listed < errors + warnings { note += " (\(listed) listed)" }
        return note
    }

    /// A set of bound values in one line, each value escaped by `escape`,
    /// and how many more the set had.
    static func valuesText(_ set: SQLLogAnalysis.BoundValues, escape: (String) -> String) -> String {
        var text = set.values.map(escape).joined(separator: ", ")
        if set.valuesNotShown > 0 { text += ", … (\(set.valuesNotShown) more)" }
        return text
    }

    /// ` (coredata)`: the formats read, in parentheses; nothing when the
    /// log had none.
    static func formatsNote(_ analysis: SQLLogAnalysis) -> String {
        analysis.formats.isEmpty ? "" : " (\(analysis.formats.joined(separator: ", ")))"
    }

    /// Core Data's fetches that reported rows, in one line: how many, their
    /// rows, those whose statement the log does not have, and the
    /// statements read from level 3 annotations; nil when there were none.
    static func fetchesNote(_ analysis: SQLLogAnalysis) -> String? {
        guard analysis.fetchesWithRows > 0 || analysis.statementsFromFetchAnnotations > 0 else { return nil }
        let fetches = analysis.fetchesWithRows
        var note = "\(fetches.groupedDigits) fetch\(fetches == 1 ? "" : "es") reported \(analysis.rowsReported.groupedDigits) "
            + "row\(analysis.rowsReported == 1 ? "" : "s")"
        if analysis.annotationsWithoutStatement > 0 {
            let count = analysis.annotationsWithoutStatement
            note += count == 1 && fetches == 1
                ? ", with no statement line in the log (the paste starts after its SELECT)"
                : "; \(count.groupedDigits) of them with no statement line in the log (the paste starts after their SELECT)"
        }
        if analysis.statementsFromFetchAnnotations > 0 {
            let count = analysis.statementsFromFetchAnnotations
            note += "; \(count.groupedDigits) statement\(count == 1 ? "" : "s") read from level 3 `fetch using … with sql text` lines"
        }
        return note
    }

    /// The statements whose time was no finite number, in one line; nil
    /// when there were none.
    static func timesNote(_ analysis: SQLLogAnalysis) -> String? {
        guard analysis.timesNotFinite > 0 else { return nil }
        let first = analysis.firstTimeNotFiniteLine.map { analysis.timesNotFinite == 1 ? " at line \($0)" : ", the first at line \($0)" } ?? ""
        return "\(analysis.timesNotFinite) statement time\(analysis.timesNotFinite == 1 ? " was" : "s were") not a finite number of seconds "
            + "(inf, nan, too large)\(first): taken as unknown"
    }

    /// The widths of the statements table's columns (count, duplicates,
    /// total, mean, max, rows, first line), right-aligned.
    static let statementColumns = [7, 6, 9, 9, 9, 9, 6]

    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
