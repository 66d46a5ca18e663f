import Probes

/// Query plan rows: Faultline's `plan:` lines, Core Data's level 4 rows
/// after `details: SQLite: EXPLAIN QUERY PLAN …`, and the sqlite3 shell's
/// rows (`0|0|0|SCAN TABLE …`, `.mode column`, the tree's `|--SCAN …`), as
/// the tokenizer reads them (Probes' `SQLDebugLogPlanRow`).
///
/// A row that a page or a terminal wrapped (`0|0|0|SEARCH TABLE ZMOOD AS
/// t0` and, on the next line, `USING INDEX ZMOOD_ZDATE (ZDATE>?)`) is held
/// for a line and joined, and the rows after it are still read.
extension SQLLogAnalyzer {
    /// Notes the row held for a possible continuation.
    mutating func flushPlanRow() {
        guard let held = heldPlanRow else { return }
        heldPlanRow = nil
        if let index = held.known { return noteKnownPlanRow(index) }
        notePlanRow(kept: SQLDebugLogPlanRow.kept(held.row), line: held.line)
    }
}
