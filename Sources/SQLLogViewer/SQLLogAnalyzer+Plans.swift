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
        planRow(line[...])
    }

    /// The same, over the line's UTF-8 bytes: most lines that reach it (a
    /// level 3 `details:` line of values) are no plan row, and an ASCII
    /// line is read without Foundation. A line with other bytes is read by
    /// characters (``planRowByCharacters(_:)``): the same rules, Unicode's
    /// spaces trimmed.
    static func planRow(_ line: Substring) -> String? {
        var line = line
        let scan = line.withUTF8 { scanPlanRow(UnsafeRawBufferPointer($0)) }
        switch scan {
        case .none: return nil
        case .row(let range):
            let utf8 = line.utf8
            let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
            let end = utf8.index(start, offsetBy: range.count)
            return String(line[start..<end])
        case .notASCII: return planRowByCharacters(String(line))
        }
    }

    /// What a byte scan of a line says of it as a plan row.
    enum PlanRowScan: Equatable {
        /// No plan row.
        case none
        /// A plan row: the byte offsets of its detail in the line.
        case row(Range<Int>)
        /// A byte of 0x80 or more: read by characters.
        case notASCII
    }

    /// ``planRowByCharacters(_:)`` over an ASCII line's bytes: spaces and
    /// tabs trimmed (the ASCII members of `CharacterSet.whitespaces`), the
    /// sqlite3 shell's `0|0|0|detail` (three integers, each trimmed), else
    /// the first of ``planKeywords`` anywhere in the line.
    static func scanPlanRow(_ bytes: UnsafeRawBufferPointer) -> PlanRowScan {
        guard isASCII(bytes) else { return .notASCII }
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        var start = 0, end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        guard start < end else { return .none }
        let base = bytes.baseAddress!
        if memchr(base + start, Int32(UInt8(ascii: "|")), end - start) != nil {
            // `0|0|0|SCAN TABLE ZITEM`: three integers before the third bar.
            var partStart = start
            var integers = 0
            var index = start
            while integers < 3, index < end {
                if bytes[index] == UInt8(ascii: "|") {
                    guard isInteger(UnsafeRawBufferPointer(rebasing: bytes[partStart..<index])) else { break }
                    integers += 1
                    partStart = index + 1
                }
                index += 1
            }
            if integers == 3 {
                var detail = partStart
                while detail < end, isSpace(bytes[detail]) { detail += 1 }
                return .row(detail..<end)
            }
        }
        // The first keyword in the line, where its detail starts. Each
        // keyword starts with two capitals: eight bytes are passed at once
        // while no two capitals stand side by side in them.
        var index = start
        while index < end {
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
                stop = end
            }
            while index < stop {
                switch bytes[index] {
                case UInt8(ascii: "S"), UInt8(ascii: "U"), UInt8(ascii: "E"), UInt8(ascii: "C"), UInt8(ascii: "L"):
                    for keyword in planKeywordBytes where keyword.count <= end - index {
                        let matches = keyword.withUnsafeBytes { memcmp(base + index, $0.baseAddress!, keyword.count) == 0 }
                        if matches { return .row(index..<end) }
                    }
                default: break
                }
                index += 1
            }
        }
        return .none
    }

    private static let planKeywordBytes = planKeywords.map { Array($0.utf8) }

    /// 0x80 in each of eight ASCII bytes that is a capital letter (`A` to
    /// `Z`), 0 in the others (each byte computed apart: no borrow or carry
    /// crosses bytes below 0x80).
    @inline(__always)
    private static func capitalsMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let low = word & (ones &* 127)
        return ((ones &* (127 + 0x5B)) &- low) & ~word & (low &+ ones &* (127 - 0x40)) & (ones &* 128)
    }

    /// Whether `bytes` (spaces and tabs around it aside) is what `Int(_:)`
    /// reads: an optional sign and decimal digits that fit in an `Int`.
    private static func isInteger(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var start = 0, end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        guard start < end else { return false }
        return Int(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)) != nil
    }

    /// Whether every byte is below 0x80 and none is an escape (0x1B, which
    /// starts a colour code): text read over its bytes as it is. Eight at a time.
    static func isPlainASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        guard count >= 8 else { return !bytes.contains { $0 >= 0x80 || $0 == 0x1B } }
        let ones: UInt64 = 0x0101_0101_0101_0101
        /// A byte of 0x80 or more, or a zero byte of `word ^ 0x1B…` (an escape), as its high bit.
        func flags(_ word: UInt64) -> UInt64 {
            let escapes = word ^ (ones &* 0x1B)
            return word | ((escapes &- ones) & ~escapes)
        }
        var index = 0
        var found: UInt64 = 0
        while index + 16 <= count {
            found |= flags(base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                | flags(base.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self))
            index += 16
        }
        if index + 8 <= count {
            found |= flags(base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        }
        // The last eight bytes, read again where they overlap.
        found |= flags(base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
        return found & (ones &* 0x80) == 0
    }

    /// Whether every byte is below 0x80, eight at a time.
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var index = 0
        var high: UInt64 = 0
        while index + 8 <= bytes.count {
            high |= base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < bytes.count {
            high |= UInt64(bytes[index])
            index += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// ``planRow(_:)`` by characters, with Foundation: a line with bytes
    /// beyond ASCII.
    static func planRowByCharacters(_ line: String) -> String? {
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
        guard let first = line.first, planRow(line) == nil, !startsLikeALogLine(line) else { return false }
        if first == "(" || line.hasPrefix("USING ") || line.hasPrefix("~") { return true }
        guard let last = row.split(separator: " ").last else { return false }
        return planRowOpenEnds.contains(last) && line.allSatisfy { !$0.isWhitespace }
    }

    /// Notes the row held for a possible continuation.
    mutating func flushPlanRow() {
        guard let held = heldPlanRow else { return }
        heldPlanRow = nil
        if let index = held.known { return noteKnownPlanRow(index) }
        notePlanRow(held.row, line: held.line)
    }
}
