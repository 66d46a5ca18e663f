import Foundation

/// A query plan row of a SQL debug log: Faultline's `plan:` lines, Core
/// Data's level 4 rows after `details: SQLite: EXPLAIN QUERY PLAN …`, and
/// the sqlite3 shell's rows (`0|0|0|SCAN TABLE …`, `.mode column`, the
/// tree's `|--SCAN …`).
///
/// A row is read as printed, from the first word of its detail: `EXECUTE
/// LIST SUBQUERY 1` stays `EXECUTE LIST SUBQUERY 1`. White space around it
/// is spaces, tabs and Unicode's space separators.
package struct SQLDebugLogPlanRow: Equatable, Sendable {
    /// The row as printed, white space around it trimmed; Faultline's
    /// `[full scan]` mark included.
    package var detail: Range<Int>
    /// The row without the mark (the reader marks full scans itself).
    package var row: Range<Int>
    /// Whether the row ended with Faultline's `[full scan]` mark.
    package var isMarked: Bool

    /// The row `detail` of `text`, its mark found.
    package init(_ text: SQLDebugLogBytes, detail: Range<Int>) {
        self.detail = detail
        let mark = SQLDebugLogGrammar.fullScanMark
        if text.ends(detail, with: mark) {
            isMarked = true
            row = text.trimmingWhitespace(detail.lowerBound..<(detail.upperBound - mark.utf8CodeUnitCount))
        } else {
            isMarked = false
            row = detail
        }
    }

    /// Faultline's `plan: <row>` text (`range`): the row, trimmed.
    package static func written(_ text: SQLDebugLogBytes, _ range: Range<Int>) -> SQLDebugLogPlanRow {
        SQLDebugLogPlanRow(text, detail: text.trimmingWhitespace(range))
    }

    /// The words a plan row's detail starts with. The first one in a line
    /// is where the detail starts (`EXECUTE LIST SUBQUERY 1`, not
    /// `LIST SUBQUERY 1`).
    package static let keywords: [StaticString] = [
        "SCAN ", "SEARCH ", "USE TEMP B-TREE", "EXECUTE LIST SUBQUERY", "EXECUTE SCALAR SUBQUERY", "EXECUTE CORRELATED ",
        "CORRELATED ", "LIST SUBQUERY", "SCALAR SUBQUERY",
    ]

    /// The length of the shortest of ``keywords``.
    private static let shortestKeyword = 5

    /// The first four bytes of each of ``keywords``, as a machine word.
    private static let keywordHeads: [UInt32] = keywords.map { keyword in
        UnsafeRawPointer(keyword.utf8Start).loadUnaligned(as: UInt32.self)
    }

    /// A query plan row as the sqlite3 shell or Core Data prints it, in
    /// `range` of `text`: its detail, without the numbers, bars and tree
    /// lines before it; nil when `range` is no plan row. The shell's
    /// `0|0|0|detail` (three integers, each trimmed), else the first of
    /// ``keywords`` anywhere in the text.
    package static func printed(_ text: SQLDebugLogBytes, _ range: Range<Int>) -> SQLDebugLogPlanRow? {
        let trimmed = text.trimmingWhitespace(range)
        let (start, end) = (trimmed.lowerBound, trimmed.upperBound)
        guard start < end, let base = text.bytes.baseAddress else { return nil }
        if memchr(base + start, Int32(UInt8(ascii: "|")), end - start) != nil {
            // `0|0|0|SCAN TABLE ZITEM`: three integers before the third bar.
            var partStart = start
            var integers = 0
            var index = start
            while integers < 3, index < end {
                if text[index] == UInt8(ascii: "|") {
                    guard text.int(text.trimmingWhitespace(partStart..<index)) != nil else { break }
                    integers += 1
                    partStart = index + 1
                }
                index += 1
            }
            if integers == 3 { return SQLDebugLogPlanRow(text, detail: text.trimmingWhitespace(partStart..<end)) }
        }
        // The first keyword in the line, where its detail starts. Each
        // keyword starts with two capitals: eight bytes are passed at once
        // while no two capitals stand side by side in them. None is
        // shorter than ``shortestKeyword``: none starts in the last bytes.
        var index = start
        let lastStart = end - shortestKeyword
        while index <= lastStart {
            let stop: Int
            if index + 8 <= end {
                let capitals = capitalsMask(base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                if capitals & (capitals >> 8) == 0 {
                    // A capital last may start a pair with the next byte.
                    index += capitals >> 56 != 0 ? 7 : 8
                    continue
                }
                stop = index + 8
            } else {
                stop = lastStart + 1
            }
            while index < stop {
                switch text[index] {
                case UInt8(ascii: "S"), UInt8(ascii: "U"), UInt8(ascii: "E"), UInt8(ascii: "C"), UInt8(ascii: "L"):
                    // Every keyword is longer than four bytes: its first four pass few others.
                    if index + 4 <= end, !keywordHeads.contains(base.loadUnaligned(fromByteOffset: index, as: UInt32.self)) { break }
                    for keyword in keywords where keyword.utf8CodeUnitCount <= end - index {
                        if memcmp(base + index, keyword.utf8Start, keyword.utf8CodeUnitCount) == 0 {
                            return SQLDebugLogPlanRow(text, detail: index..<end)
                        }
                    }
                default: break
                }
                index += 1
            }
        }
        return nil
    }

    /// The sqlite3 shell's `0|0|0|SCAN TABLE ZMOOD AS t0` row in `range`
    /// of `text`, strictly: a decimal digit first, three integers between
    /// bars, then a detail that starts with one of ``keywords``; nil for
    /// any other line (a query's result row `1|Maui|3`). Such a row may be
    /// pasted after a statement with no `EXPLAIN QUERY PLAN` line before it.
    package static func shell(_ text: SQLDebugLogBytes, _ range: Range<Int>) -> SQLDebugLogPlanRow? {
        let trimmed = text.trimmingWhitespace(range)
        guard trimmed.count > 6, text[trimmed.lowerBound] &- 0x30 < 10, let row = printed(text, trimmed) else { return nil }
        var before = row.detail.lowerBound - 1
        while before > trimmed.lowerBound, text[before] == 0x20 || text[before] == 0x09 { before -= 1 }
        guard before > trimmed.lowerBound, text[before] == UInt8(ascii: "|") else { return nil }
        return keywords.contains { text.starts(row.detail, with: $0) } ? row : nil
    }

    /// 0x80 in each of eight bytes that is a capital letter (`A` to `Z`),
    /// 0 in the others (each byte computed apart: no borrow or carry
    /// crosses bytes; a byte of 0x80 or more is no capital).
    @inline(__always)
    private static func capitalsMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let low = word & (ones &* 127)
        return ((ones &* (127 + 0x5B)) &- low) & ~word & (low &+ ones &* (127 - 0x40)) & (ones &* 128)
    }

    /// The row a reader keeps of a row's text `row` as printed (a row
    /// joined from wrapped lines included): white space around it and the
    /// `[full scan]` mark removed.
    package static func kept(_ row: String) -> String {
        var row = row
        return row.withUTF8 { buffer in
            let text = SQLDebugLogBytes(UnsafeRawBufferPointer(buffer))
            let read = SQLDebugLogPlanRow(text, detail: text.trimmingWhitespace(text.all)).row
            return read == text.all ? nil : text.string(read)
        } ?? row
    }

    /// Words a wrapped plan row's first line may end with: what follows is
    /// still the row (an index name, a condition).
    private static let openEnds: [StaticString] = ["INDEX", "USING", "AS", "KEY", "FOR", "TABLE", "BY", "ON"]

    /// Whether the text of an unmarked line (`line`, its leading spaces
    /// and tabs dropped) continues the plan row `row` that a page or a
    /// terminal wrapped: not a row or a log line itself, and starting as
    /// the rest of a row does (`USING INDEX …`, `(ZDATE>?)`, `~`) or after a
    /// row that stops mid-phrase (`… INDEX` then the index's name, one word).
    package static func continues(_ row: String, with line: SQLDebugLogUnmarkedLine) -> Bool {
        let text = line.text
        let rest = line.start..<text.count
        guard !rest.isEmpty, printed(text, rest) == nil, !line.startsLikeALogLine else { return false }
        if text[rest.lowerBound] == UInt8(ascii: "(") || text.starts(rest, with: "USING ") || text[rest.lowerBound] == UInt8(ascii: "~") {
            return true
        }
        var row = row
        let openEnd = row.withUTF8 { buffer -> Bool in
            let words = SQLDebugLogBytes(UnsafeRawBufferPointer(buffer))
            guard let last = words.split(words.all, separator: 0x20).last else { return false }
            return openEnds.contains { words.equals(last, $0) }
        }
        return openEnd && !line.hasWhitespace(in: rest)
    }
}
