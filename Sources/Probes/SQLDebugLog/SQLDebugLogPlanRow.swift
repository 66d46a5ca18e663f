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

    /// A query plan row as the sqlite3 shell or Core Data prints it, in
    /// `range` of `text`: its detail, without the numbers, bars and tree
    /// lines before it; nil when `range` is no plan row. The shell's
    /// `0|0|0|detail` (three integers, each trimmed), else the first of
    /// ``keywords`` anywhere in the text.
    package static func printed(_ text: SQLDebugLogBytes, _ range: Range<Int>) -> SQLDebugLogPlanRow? {
        let trimmed = text.trimmingWhitespace(range)
        let (start, end) = (trimmed.lowerBound, trimmed.upperBound)
        guard start < end, let base = text.bytes.baseAddress else { return nil }
        let found = scan(base, from: start, to: end)
        if found.hasBar {
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
        // The first keyword in the line, where its detail starts.
        guard let index = found.keyword else { return nil }
        return SQLDebugLogPlanRow(text, detail: index..<end)
    }

    /// Whether the bytes `start..<end` of `base` hold a bar, and where the
    /// first of ``keywords`` starts in them, in one pass: eight places at
    /// a time, each looked for until both are found.
    @inline(__always)
    private static func scan(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> (hasBar: Bool, keyword: Int?) {
        let bar = UInt8(ascii: "|")
        guard end - start >= 9 else {
            // A short line, place by place.
            let lastStart = end - shortestKeyword
            var (hasBar, keyword): (Bool, Int?) = (false, nil)
            for index in start..<end {
                if !hasBar, base.load(fromByteOffset: index, as: UInt8.self) == bar { hasBar = true }
                if keyword == nil, index <= lastStart, keywordStarts(base, at: index, end: end) { keyword = index }
            }
            return (hasBar, keyword)
        }
        var hasBar = false
        var keyword: Int?
        var index = start
        while index < end {
            // The last block moved back to end with the line (places looked at again changed nothing).
            let block = min(index, end - 9)
            let word = base.loadUnaligned(fromByteOffset: block, as: UInt64.self)
            if !hasBar {
                let next = block + 9 == end ? base.load(fromByteOffset: end - 1, as: UInt8.self) : 0
                hasBar = bytesEqual(word, bar) != 0 || next == bar
            }
            if keyword == nil, block <= end - shortestKeyword {
                keyword = firstKeyword(base, block: block, word: word, end: end)
            }
            if hasBar && keyword != nil || block == end - 9 { break }
            index = block + 8
        }
        return (hasBar, keyword)
    }

    /// The first place in the block of eight at `block` (its bytes `word`)
    /// where one of ``keywords`` starts, if any (at most at
    /// `end - shortestKeyword`). Each keyword starts with two capitals,
    /// `SC`, `SE`, `US`, `EX`, `CO` or `LI`: a block where no two capitals
    /// stand side by side (prose), or no such pair does (SQL), has none.
    @inline(__always)
    private static func firstKeyword(_ base: UnsafeRawPointer, block: Int, word: UInt64, end: Int) -> Int? {
        let next = base.loadUnaligned(fromByteOffset: block + 1, as: UInt64.self)
        guard capitalsMask(word) & capitalsMask(next) != 0 else { return nil }
        // The places where a keyword's first two letters stand, in order.
        var pairs = keywordPairs(word, next)
        while pairs != 0 {
            let place = block + pairs.trailingZeroBitCount / 8
            if place > end - shortestKeyword { return nil }
            if keywordStarts(base, at: place, end: end) { return place }
            pairs &= pairs - 1
        }
        return nil
    }

    /// Whether one of ``keywords`` starts at `index` (at most
    /// `end - shortestKeyword`): its first four bytes (`SCAN`, `SEAR`,
    /// `USE `, `EXEC`, `CORR`, `LIST`, `SCAL`, as little-endian words)
    /// pass few others.
    @inline(__always)
    private static func keywordStarts(_ base: UnsafeRawPointer, at index: Int, end: Int) -> Bool {
        switch base.load(fromByteOffset: index, as: UInt8.self) {
        case UInt8(ascii: "S"), UInt8(ascii: "U"), UInt8(ascii: "E"), UInt8(ascii: "C"), UInt8(ascii: "L"): break
        default: return false
        }
        switch base.loadUnaligned(fromByteOffset: index, as: UInt32.self) {
        case 0x4E41_4353, 0x5241_4553, 0x2045_5355, 0x4345_5845, 0x5252_4F43, 0x5453_494C, 0x4C41_4353: break
        default: return false
        }
        for keyword in keywords where keyword.utf8CodeUnitCount <= end - index {
            if memcmp(base + index, keyword.utf8Start, keyword.utf8CodeUnitCount) == 0 { return true }
        }
        return false
    }

    /// 0x80 in each byte of `word` whose byte and the next (the same byte
    /// of `next`, loaded one byte on) are a keyword's first two letters.
    @inline(__always)
    private static func keywordPairs(_ word: UInt64, _ next: UInt64) -> UInt64 {
        func byte(_ word: UInt64, _ byte: UInt8) -> UInt64 { bytesEqual(word, byte) }
        return byte(word, 0x53) & (byte(next, 0x43) | byte(next, 0x45))  // SC, SE
            | byte(word, 0x55) & byte(next, 0x53)  // US
            | byte(word, 0x45) & byte(next, 0x58)  // EX
            | byte(word, 0x43) & byte(next, 0x4F)  // CO
            | byte(word, 0x4C) & byte(next, 0x49)  // LI
    }

    /// 0x80 in each of eight bytes that is `byte`, 0 in the others (no
    /// carry crosses bytes).
    @inline(__always)
    private static func bytesEqual(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let x = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return ~(((x & low) &+ low) | x | low)
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
    /// `readAsNoRow`: the line was read as no row already (``SQLDebugLogUnmarkedLine/planRow`` nil).
    package static func continues(_ row: String, with line: SQLDebugLogUnmarkedLine, readAsNoRow: Bool = false) -> Bool {
        let text = line.text
        let rest = line.start..<text.count
        guard !rest.isEmpty, readAsNoRow || printed(text, rest) == nil, !line.startsLikeALogLine else { return false }
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
