import Foundation

/// Query plan rows: Faultline's `plan:` lines, Core Data's level 4 rows
/// after `details: SQLite: EXPLAIN QUERY PLAN …`, and the sqlite3 shell's
/// rows (`0|0|0|SCAN TABLE …`, `.mode column`, the tree's `|--SCAN …`).
///
/// A row is read as printed, from the first word of its detail: `EXECUTE
/// LIST SUBQUERY 1` stays `EXECUTE LIST SUBQUERY 1`. A row that a page or a
/// terminal wrapped (`0|0|0|SEARCH TABLE ZMOOD AS t0` and, on the next
/// line, `USING INDEX ZMOOD_ZDATE (ZDATE>?)`) is joined, and the rows after
/// it are still read.
extension SQLLogAnalyzer {
    /// The words a plan row's detail starts with. The first one in a line
    /// is where the detail starts (`EXECUTE LIST SUBQUERY 1`, not
    /// `LIST SUBQUERY 1`).
    static let planKeywords = [
        "SCAN ", "SEARCH ", "USE TEMP B-TREE", "EXECUTE LIST SUBQUERY", "EXECUTE SCALAR SUBQUERY", "EXECUTE CORRELATED ",
        "CORRELATED ", "LIST SUBQUERY", "SCALAR SUBQUERY",
    ]

    /// A query plan row as the sqlite3 shell or Core Data prints it: its
    /// detail, without the numbers, bars and tree lines before it.
    static func planRow(_ line: String) -> String? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.contains("|") {
            let parts = trimmed.split(separator: "|", omittingEmptySubsequences: false)
            if parts.count >= 4, parts.prefix(3).allSatisfy({ Int($0.trimmingCharacters(in: .whitespaces)) != nil }) {
                return parts[3...].joined(separator: "|").trimmingCharacters(in: .whitespaces)
            }
        }
        let start = planKeywords.compactMap { trimmed.range(of: $0)?.lowerBound }.min()
        return start.map { String(trimmed[$0...]).trimmingCharacters(in: .whitespaces) }
    }

    /// Words a wrapped plan row's first line may end with: what follows is
    /// still the row (an index name, a condition).
    private static let planRowOpenEnds: Set<Substring> = ["INDEX", "USING", "AS", "KEY", "FOR", "TABLE", "BY", "ON"]

    /// Whether `line` continues the plan row `row` (a wrap): not a row or
    /// a log line itself, and starting as the rest of a row does (`USING
    /// INDEX …`, `(ZDATE>?)`) or after a row that stops mid-phrase.
    static func continuesPlanRow(_ row: String, with line: Substring) -> Bool {
        guard let first = line.first, planRow(String(line)) == nil, !startsLikeALogLine(line) else { return false }
        if first == "(" || line.hasPrefix("USING ") || line.hasPrefix("~") { return true }
        guard let last = row.split(separator: " ").last else { return false }
        return planRowOpenEnds.contains(last) && line.allSatisfy { !$0.isWhitespace }
    }

    /// Notes the row held for a possible continuation.
    mutating func flushPlanRow() {
        guard let held = heldPlanRow else { return }
        heldPlanRow = nil
        notePlanRow(held.row, line: held.line)
    }
}
