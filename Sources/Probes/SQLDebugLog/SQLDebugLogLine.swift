import Foundation

/// One line of a SQL debug log, tokenized: its kind and fields as byte
/// ranges of its text (``text``), read by the one tokenizer of the log's
/// grammar (``SQLDebugLogGrammar``), Faultline's lines and Core Data's alike.
/// An annotation's larger fields (a fault's, a fetch's, a statement's
/// figures) are read by its kind's type (``SQLDebugLogAnnotation``).
///
/// A line is bytes, ASCII or not: a carriage return at its end is dropped
/// (CRLF line ends), and a line that is not plain ASCII is decoded first
/// (invalid UTF-8 read as U+FFFD, ANSI colour codes removed). The phrases
/// are ASCII, so the same rules read every line, byte by byte.
///
/// ```swift
/// if let found = SQLDebugLogLine.marker(in: bytes) {
///     SQLDebugLogLine.read(bytes, marker: found) { line in
///         if case .statement(let sql) = line.kind { print(line.text.string(sql)) }
///     }
/// }
/// ```
package struct SQLDebugLogLine {
    /// The marker a log line's text follows.
    package enum Marker: Equatable, Sendable {
        /// `faultline: `.
        case faultline
        /// `CoreData: ` (or its end, `oreData: `, when a paste cut it), or
        /// the unified log's `(CoreData) [subsystem:category] `.
        case coreData
    }

    /// A marker found in a line, and where the log text after it starts.
    package struct FoundMarker: Equatable, Sendable {
        package var marker: Marker
        package var textStart: Int

        package init(marker: Marker, textStart: Int) {
            self.marker = marker
            self.textStart = textStart
        }
    }

    /// What a line is, its fields as ranges of ``text``.
    package enum Kind: Equatable, Sendable {
        /// `sql: <statement>`: the statement, spaces, tabs and carriage
        /// returns around it trimmed.
        case statement(sql: Range<Int>)
        /// `details: [SQLite ]bind[<i>] = <value>`.
        case bind(index: Int?, value: Range<Int>)
        /// `details: … bound intarray <name> values: …`: Core Data's bound
        /// key list (`values` follows `bound intarray `).
        case boundIntarray(values: Range<Int>)
        /// `details: SQLite: EXPLAIN QUERY PLAN <statement>`: plan rows follow.
        case explainQueryPlan
        /// `plan: <row>` (Faultline), or a `details:` line that is a plan
        /// row as Core Data prints them.
        case planRow(SQLDebugLogPlanRow)
        /// `details: fetched <object> {<values>}` (Faultline's level 3).
        case fetchedObject(object: Range<Int>, values: Range<Int>?)
        /// `details: values of <object>: {<values>}` (Faultline's level 3).
        case objectValues(object: Range<Int>, values: Range<Int>)
        /// Another `details:` line.
        case detail
        /// `annotation: …`.
        case annotation(SQLDebugLogAnnotation)
        /// `error: <message>`, `warning: <message>`: Core Data's own error
        /// and warning lines (a store that failed, CloudKit's setup), the
        /// message trimmed.
        case message(SQLDebugLogMessageLevel, text: Range<Int>)
        /// A marked line of no kind above (Core Data's `debug:`,
        /// `CloudKit:`, os_log's `fault:` level): counts nothing.
        case other
    }

    /// The line's marker; nil for a line read without one (a paste
    /// without the prefix).
    package let marker: Marker?
    /// The text after the marker, as read: what the ranges index.
    package let text: SQLDebugLogBytes
    package let kind: Kind

    /// The line's text `text` after `marker`, tokenized.
    package init(_ text: SQLDebugLogBytes, marker: Marker?) {
        self.marker = marker
        self.text = text
        kind = Self.kind(of: text)
    }

    // MARK: Markers

    /// Faultline's marker, or Core Data's, wherever it stands in `bytes` (a
    /// line's raw bytes: after a timestamp, an NSLog or `log stream`
    /// header, a Markdown indentation or a table cell); nil for a line with
    /// none. Faultline's lines start with their marker; otherwise its first
    /// occurrence, then Core Data's end `reData: `, then the unified log's
    /// sender and bracket.
    @inline(__always)
    package static func marker(in bytes: UnsafeRawBufferPointer) -> FoundMarker? {
        let text = SQLDebugLogBytes(bytes)
        let faultline = SQLDebugLogGrammar.faultlineMarker
        if text.starts(text.all, with: faultline) { return FoundMarker(marker: .faultline, textStart: faultline.utf8CodeUnitCount) }
        guard mayHoldMarker(bytes) else { return nil }
        if let found = text.find(faultline, in: text.all) { return FoundMarker(marker: .faultline, textStart: found.upperBound) }
        if let found = text.find(SQLDebugLogGrammar.coreDataMarkerEnd, in: text.all) {
            return FoundMarker(marker: .coreData, textStart: found.upperBound)
        }
        if let found = text.find(SQLDebugLogGrammar.unifiedLogSender, in: text.all) {
            // Past `[com.apple.coredata:sql] ` when the line has it.
            var start = found.upperBound
            if start < text.count, text[start] == UInt8(ascii: "["),
               let end = text.find(SQLDebugLogGrammar.subsystemEnd, in: start..<text.count)
            {
                start = end.upperBound
            }
            return FoundMarker(marker: .coreData, textStart: start)
        }
        return nil
    }

    /// Whether `bytes` may hold a marker: every marker ends with a colon
    /// or a closing parenthesis, then a space (`faultline: `, `reData: `,
    /// `(CoreData) `), and is 8 bytes long at least. Most lines of other
    /// output are passed by one look at their bytes, eight at a time.
    @inline(__always)
    private static func mayHoldMarker(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        guard count >= SQLDebugLogGrammar.coreDataMarkerEnd.utf8CodeUnitCount, let base = bytes.baseAddress else { return false }
        guard count >= 9 else {
            for index in 0..<(count - 1) where bytes[index + 1] == 0x20 && (bytes[index] == UInt8(ascii: ":") || bytes[index] == UInt8(ascii: ")")) {
                return true
            }
            return false
        }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let low: UInt64 = ones &* 0x7F
        /// 0x80 in each byte of `word` that is `byte`.
        func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
            let x = word ^ (ones &* UInt64(byte))
            return ~(((x & low) &+ low) | x | low)
        }
        var index = 0
        while true {
            // The last block moved back to end with the line.
            let block = min(index, count - 9)
            let word = base.loadUnaligned(fromByteOffset: block, as: UInt64.self)
            let next = base.loadUnaligned(fromByteOffset: block + 1, as: UInt64.self)
            if (equal(word, UInt8(ascii: ":")) | equal(word, UInt8(ascii: ")"))) & equal(next, 0x20) != 0 { return true }
            if block == count - 9 { return false }
            index = block + 8
        }
    }

    /// Calls `body` with the typed line of `bytes` (a line's raw bytes,
    /// without its newline), whose marker is `found`.
    @inline(__always)
    package static func read(_ bytes: UnsafeRawBufferPointer, marker found: FoundMarker, _ body: (SQLDebugLogLine) -> Void) {
        let text = SQLDebugLogBytes.droppingReturn(UnsafeRawBufferPointer(rebasing: bytes[found.textStart...]))
        // Most lines are plain ASCII: read in place.
        if SQLDebugLogBytes.isPlainASCII(text) { return body(SQLDebugLogLine(SQLDebugLogBytes(text), marker: found.marker)) }
        SQLDebugLogBytes.withText(text) { body(SQLDebugLogLine($0, marker: found.marker)) }
    }

    /// Calls `body` with the typed line of `bytes` (a line's raw bytes,
    /// without its newline) when the line has a marker; false, without
    /// calling it, when it has none.
    package static func read(_ bytes: UnsafeRawBufferPointer, _ body: (SQLDebugLogLine) -> Void) -> Bool {
        guard let found = marker(in: bytes) else { return false }
        read(bytes, marker: found, body)
        return true
    }

    /// ``read(_:marker:_:)`` for a `body` that gives a value or throws.
    package static func read<R>(_ bytes: UnsafeRawBufferPointer, marker found: FoundMarker, _ body: (SQLDebugLogLine) throws -> R) rethrows -> R {
        try SQLDebugLogBytes.withText(UnsafeRawBufferPointer(rebasing: bytes[found.textStart...])) { try body(SQLDebugLogLine($0, marker: found.marker)) }
    }

    /// Whether `text` starts with one of the kinds' words (`sql: `,
    /// `details: `, `plan: `, `annotation: `) at `start`.
    package static func startsWithKind(_ text: SQLDebugLogBytes, at start: Int) -> Bool {
        // The words start `s`, `d`, `p`, `a`, each with its own letter:
        // the first byte picks the one word to compare.
        guard start < text.count else { return false }
        let kind: SQLDebugLogGrammar.Kind
        switch text[start] {
        case UInt8(ascii: "s"): kind = .sql
        case UInt8(ascii: "d"): kind = .details
        case UInt8(ascii: "p"): kind = .plan
        case UInt8(ascii: "a"): kind = .annotation
        default: return false
        }
        return text.starts(start..<text.count, with: kind.word)
    }

    // MARK: Kinds

    @inline(__always)
    private static func kind(of text: SQLDebugLogBytes) -> Kind {
        let all = text.all
        if text.starts(all, with: SQLDebugLogGrammar.Kind.sql.word) {
            return .statement(sql: text.trimmingTableResidue(SQLDebugLogGrammar.Kind.sql.word.utf8CodeUnitCount..<text.count))
        }
        if text.starts(all, with: SQLDebugLogGrammar.Kind.details.word) {
            return detail(text, SQLDebugLogGrammar.Kind.details.word.utf8CodeUnitCount..<text.count)
        }
        if text.starts(all, with: SQLDebugLogGrammar.Kind.plan.word) {
            return .planRow(.written(text, SQLDebugLogGrammar.Kind.plan.word.utf8CodeUnitCount..<text.count))
        }
        if text.starts(all, with: SQLDebugLogGrammar.Kind.annotation.word) {
            return .annotation(SQLDebugLogAnnotation(text, SQLDebugLogGrammar.Kind.annotation.word.utf8CodeUnitCount..<text.count))
        }
        if text.starts(all, with: SQLDebugLogGrammar.errorWord) {
            return .message(.error, text: text.trimmingTableResidue(SQLDebugLogGrammar.errorWord.utf8CodeUnitCount..<text.count))
        }
        if text.starts(all, with: SQLDebugLogGrammar.warningWord) {
            return .message(.warning, text: text.trimmingTableResidue(SQLDebugLogGrammar.warningWord.utf8CodeUnitCount..<text.count))
        }
        return .other
    }

    @inline(__always)
    private static func detail(_ text: SQLDebugLogBytes, _ detail: Range<Int>) -> Kind {
        typealias G = SQLDebugLogGrammar
        // Faultline's level 3 values first: a value may hold any phrase.
        if text.starts(detail, with: G.fetched) {
            let rest = (detail.lowerBound + G.fetched.utf8CodeUnitCount)..<detail.upperBound
            let space = text.firstIndex(of: 0x20, in: rest)
            return .fetchedObject(object: rest.lowerBound..<space, values: space < rest.upperBound ? (space + 1)..<rest.upperBound : nil)
        }
        if text.starts(detail, with: G.valuesOf), let colon = text.find(G.colon, in: detail) {
            return .objectValues(object: (detail.lowerBound + G.valuesOf.utf8CodeUnitCount)..<colon.lowerBound, values: colon.upperBound..<detail.upperBound)
        }
        if let bind = text.find(G.bind, in: detail), let equals = text.find(G.bindValue, in: bind.upperBound..<detail.upperBound) {
            return .bind(index: text.int(bind.upperBound..<equals.lowerBound), value: text.trimmingTableResidue(equals.upperBound..<detail.upperBound))
        }
        if let found = text.find(G.boundIntarray, in: detail) { return .boundIntarray(values: found.upperBound..<detail.upperBound) }
        if text.find(G.explainQueryPlan, in: detail) != nil { return .explainQueryPlan }
        if let row = SQLDebugLogPlanRow.printed(text, detail) { return .planRow(row) }
        return .detail
    }
}

/// A line with no marker, as the tokenizer reads it: what it may be
/// depends on the lines before it (a plan row after an `EXPLAIN QUERY
/// PLAN`, the rest of a wrapped statement or annotation, a first line
/// whose prefix the paste cut, a log line pasted without its prefix), so
/// the reader asks for the reading it can use.
package struct SQLDebugLogUnmarkedLine {
    /// The line as read (decoded, without a carriage return at its end).
    package let text: SQLDebugLogBytes
    /// Where the line starts past its leading spaces and tabs.
    package let start: Int

    package init(_ text: SQLDebugLogBytes) {
        self.text = text
        var start = 0
        while start < text.count, text[start] == 0x20 || text[start] == 0x09 { start += 1 }
        self.start = start
    }

    /// Calls `body` with the unmarked line of `bytes` (a line's raw bytes).
    package static func read(_ bytes: UnsafeRawBufferPointer, _ body: (SQLDebugLogUnmarkedLine) -> Void) {
        SQLDebugLogBytes.withText(bytes) { body(SQLDebugLogUnmarkedLine($0)) }
    }

    /// ``read(_:_:)`` for a `body` that gives a value or throws.
    package static func read<R>(_ bytes: UnsafeRawBufferPointer, _ body: (SQLDebugLogUnmarkedLine) throws -> R) rethrows -> R {
        try SQLDebugLogBytes.withText(bytes) { try body(SQLDebugLogUnmarkedLine($0)) }
    }

    /// Whether a line's raw bytes mention `QUERY PLAN` (a prompt, a fenced
    /// block), in upper or lower case: plan rows may follow.
    package static func mentionsQueryPlan(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let upper = SQLDebugLogGrammar.queryPlan
        let lower = SQLDebugLogGrammar.queryPlanLower
        let length = upper.utf8CodeUnitCount
        guard bytes.count >= length, let base = bytes.baseAddress else { return false }
        if bytes.count >= 64 {
            // A long line: memchr for each phrase's first letter passes its bytes faster.
            let text = SQLDebugLogBytes(bytes)
            return text.find(upper, in: text.all) != nil || text.find(lower, in: text.all) != nil
        }
        /// Whether a phrase starts at `index`.
        func phrase(at index: Int) -> Bool {
            index + length <= bytes.count
                && (memcmp(base + index, upper.utf8Start, length) == 0 || memcmp(base + index, lower.utf8Start, length) == 0)
        }
        // A short line: one pass for `Q` and `q` (the bytes that are `q`
        // with 0x20 set), eight bytes at a time.
        let ones: UInt64 = 0x0101_0101_0101_0101
        var index = 0
        while index + 8 <= bytes.count {
            let word = (base.loadUnaligned(fromByteOffset: index, as: UInt64.self) | (ones &* 0x20)) ^ (ones &* 0x71)
            if (word &- ones) & ~word & (ones &* 0x80) != 0 {
                for offset in index..<(index + 8) where bytes[offset] | 0x20 == 0x71 && phrase(at: offset) { return true }
            }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] | 0x20 == 0x71, phrase(at: index) { return true }
            index += 1
        }
        return false
    }

    /// Whether the line is empty past its leading spaces and tabs.
    package var isBlank: Bool { start == text.count }

    /// The line past its leading spaces and tabs.
    package var rest: Range<Int> { start..<text.count }

    /// The line as a plan row, as the sqlite3 shell prints them.
    package var planRow: SQLDebugLogPlanRow? { SQLDebugLogPlanRow.printed(text, text.all) }

    /// A first line that begins inside the prefix (`ata: sql: …`,
    /// `Data: annotation: …`): the end of a `CoreData: ` or `faultline: `
    /// prefix, then a kind's word: the log line after it, with the marker
    /// whose end it is.
    package var withCutPrefix: SQLDebugLogLine? {
        guard let colon = text.find(":", in: rest) else { return nil }
        var after = colon.upperBound
        while after < text.count, text[after] == 0x20 { after += 1 }
        guard colon.lowerBound > start, SQLDebugLogLine.startsWithKind(text, at: after) else { return nil }
        let head = text.slice(start..<colon.lowerBound)
        let marker: SQLDebugLogLine.Marker
        if Self.isEnd(head, ofWordOf: SQLDebugLogGrammar.coreDataMarker) {
            marker = .coreData
        } else if Self.isEnd(head, ofWordOf: SQLDebugLogGrammar.faultlineMarker) {
            marker = .faultline
        } else {
            return nil
        }
        return SQLDebugLogLine(SQLDebugLogBytes(text.slice(after..<text.count)), marker: marker)
    }

    /// Whether `bytes` end the word of `marker` (`ata` of `CoreData: `).
    private static func isEnd(_ bytes: UnsafeRawBufferPointer, ofWordOf marker: StaticString) -> Bool {
        let length = marker.utf8CodeUnitCount - SQLDebugLogGrammar.markerEnd.utf8CodeUnitCount
        return bytes.count <= length && memcmp(marker.utf8Start + (length - bytes.count), bytes.baseAddress!, bytes.count) == 0
    }

    /// Whether `range` starts with the word of `marker` (`CoreData`).
    private static func starts(_ text: SQLDebugLogBytes, _ range: Range<Int>, withWordOf marker: StaticString) -> Bool {
        let length = marker.utf8CodeUnitCount - SQLDebugLogGrammar.markerEnd.utf8CodeUnitCount
        return range.count >= length && memcmp(text.bytes.baseAddress! + range.lowerBound, marker.utf8Start, length) == 0
    }

    /// A log line pasted without its prefix (`sql: …`, `annotation: …`,
    /// indented or not): nil when the line does not start with a kind's word.
    package var withoutPrefix: SQLDebugLogLine? {
        guard SQLDebugLogLine.startsWithKind(text, at: start) else { return nil }
        return SQLDebugLogLine(SQLDebugLogBytes(text.slice(rest)), marker: nil)
    }

    /// Whether the line looks like the start of a log line of its own (a
    /// timestamp, an NSLog or `log stream` header, a prompt, a keyword),
    /// which a wrapped statement's continuation does not.
    package var startsLikeALogLine: Bool {
        guard start < text.count else { return false }
        if Self.startsWithDecimalDigit(text, at: start) { return true }
        let rest = self.rest
        if Self.logLineStarts.contains(where: { text.starts(rest, with: $0) }) { return true }
        if Self.starts(text, rest, withWordOf: SQLDebugLogGrammar.coreDataMarker) || Self.starts(text, rest, withWordOf: SQLDebugLogGrammar.faultlineMarker) {
            return true
        }
        // A marker's end then `sql: ` or `annotation: `, anywhere.
        for kind in Self.kindsAfterMarkers {
            let end = SQLDebugLogGrammar.markerEnd.utf8CodeUnitCount
            var from = rest.lowerBound + end
            while from < text.count, let found = text.find(kind.word, in: from..<text.count) {
                if text.starts((found.lowerBound - end)..<found.lowerBound, with: SQLDebugLogGrammar.markerEnd) { return true }
                from = found.lowerBound + 1
            }
        }
        return false
    }

    /// How a log line of its own may start (a prompt, a year, a fence, a
    /// heading or a comment, a shell's prompt).
    private static let logLineStarts: [StaticString] = ["sqlite>", "...>", "20", "```", "#", "//", "$ "]
    /// The kinds whose word after a marker's end makes a line a log line.
    private static let kindsAfterMarkers: [SQLDebugLogGrammar.Kind] = [.sql, .annotation]

    /// Whether the character at `index` is a decimal digit (Unicode's
    /// `Nd`, ASCII's and others').
    private static func startsWithDecimalDigit(_ text: SQLDebugLogBytes, at index: Int) -> Bool {
        let byte = text[index]
        if byte < 0x80 { return byte &- 0x30 < 10 }
        var decoder = UTF8()
        var iterator = text.slice(index..<min(text.count, index + 4)).makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return false }
        return scalar.properties.generalCategory == .decimalNumber
    }

    /// The SQL words a statement's next line starts with when the
    /// statement goes on there (upper case, as Core Data and Faultline
    /// print SQL; prose starts otherwise).
    private static let continuationKeywords: [StaticString] = [
        "FROM", "WHERE", "AND", "OR", "ORDER", "GROUP", "HAVING", "LIMIT", "OFFSET", "JOIN", "LEFT", "INNER", "CROSS", "OUTER", "ON",
        "UNION", "EXCEPT", "INTERSECT", "VALUES", "SET", "IN", "NOT", "WHEN", "THEN", "ELSE", "END", "AS", "USING", "COLLATE", "ESCAPE",
        "LIKE", "GLOB", "BETWEEN", "IS", "ASC", "DESC", "RETURNING",
    ]

    /// Whether the line starts as the rest of a statement does: an SQL
    /// keyword (`FROM …`, `VALUES(?,?)`) or a closing parenthesis or comma.
    package var continuesStatement: Bool {
        guard start < text.count else { return false }
        let first = text[start]
        if first == UInt8(ascii: ")") || first == UInt8(ascii: ",") { return true }
        for keyword in Self.continuationKeywords where text.starts(rest, with: keyword) {
            let after = start + keyword.utf8CodeUnitCount
            if after == text.count || text[after] == 0x20 || text[after] == UInt8(ascii: "(") || text[after] == 0x09 { return true }
        }
        return false
    }

    /// Whether the line is an object's URI (`<x-coredata://…/Country/p4>`):
    /// the object of a fault printed on the line before.
    package var isObjectURI: Bool {
        text.starts(rest, with: SQLDebugLogGrammar.objectURIInBrackets) || text.starts(rest, with: SQLDebugLogGrammar.objectURI)
    }

    /// Whether `range` holds white space (`Character.isWhitespace`: ASCII's
    /// spaces and line breaks, Unicode's space separators and line breaks).
    package func hasWhitespace(in range: Range<Int>) -> Bool {
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = text[index]
            if byte == 0x20 || (0x09...0x0D).contains(byte) { return true }
            if byte >= 0xC2 {
                if text.whitespaceLength(at: index, before: range.upperBound) != nil { return true }
                // U+0085, U+2028, U+2029.
                if byte == 0xC2, index + 1 < range.upperBound, text[index + 1] == 0x85 { return true }
                if byte == 0xE2, index + 2 < range.upperBound, text[index + 1] == 0x80, text[index + 2] == 0xA8 || text[index + 2] == 0xA9 {
                    return true
                }
            }
            index += 1
        }
        return false
    }
}

/// How statements and annotations printed over several lines end, for
/// the reader that joins them.
package enum SQLDebugLogContinuation {
    /// Whether an annotation's text ends as Core Data's and Faultline's end
    /// (a full stop, a time in seconds, a row count, a closing
    /// parenthesis): one that does not was cut by a wrap.
    package static func isComplete(_ text: SQLDebugLogBytes, _ range: Range<Int>) -> Bool {
        var end = range.upperBound
        while end > range.lowerBound, text[end - 1] == 0x20 || text[end - 1] == 0x0D || text[end - 1] == 0x09 { end -= 1 }
        guard end > range.lowerBound else { return true }
        let before = { (offset: Int) -> UInt8? in end - offset >= range.lowerBound ? text[end - offset] : nil }
        let isDigit = { (byte: UInt8) in (0x30...0x39).contains(byte) }
        switch text[end - 1] {
        case UInt8(ascii: "."), UInt8(ascii: ")"), UInt8(ascii: "]"): return true
        case UInt8(ascii: "s"):
            // `0.0012s` (a time) or `rows`.
            guard let previous = before(2) else { return false }
            return isDigit(previous) || (previous == UInt8(ascii: "w") && before(3) == UInt8(ascii: "o") && before(4) == UInt8(ascii: "r"))
        case UInt8(ascii: "w"): return before(2) == UInt8(ascii: "o") && before(3) == UInt8(ascii: "r")
        default: return isDigit(text[end - 1])
        }
    }

    /// Whether an annotation's text is a fault whose object it does not
    /// name (an object is named `Entity/p42` or by a URI ending so): its
    /// URI may be on the next line.
    package static func needsObject(_ text: SQLDebugLogBytes) -> Bool {
        let fault = SQLDebugLogGrammar.faultFulfilledFrom
        guard text.starts(text.all, with: fault) else { return false }
        return text.find(SQLDebugLogGrammar.primaryKey, in: fault.utf8CodeUnitCount..<text.count) == nil
    }

    /// Whether a statement's text cannot end where it stops: a parenthesis
    /// left open, or a last character or word that needs more (`,`, `=`,
    /// `FROM`, `AND`).
    package static func isUnfinished(_ sql: SQLDebugLogBytes) -> Bool {
        var depth = 0
        var quoted = false
        for index in sql.all {
            let byte = sql[index]
            if byte == UInt8(ascii: "'") { quoted.toggle() }
            if quoted { continue }
            if byte == UInt8(ascii: "(") { depth += 1 } else if byte == UInt8(ascii: ")") { depth -= 1 }
        }
        if depth > 0 { return true }
        let trimmed = sql.trimmingSpacesAndReturns(0..<sql.count)
        guard !trimmed.isEmpty else { return false }
        switch sql[trimmed.upperBound - 1] {
        case UInt8(ascii: ","), UInt8(ascii: "="), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "("): return true
        default: break
        }
        let wordStart = (sql.lastIndex(of: 0x20, in: 0..<trimmed.upperBound) ?? -1) + 1
        let word = wordStart..<trimmed.upperBound
        return wordsNeedingMore.contains { sql.equals(word, $0) }
    }

    /// The last words after which a statement needs more.
    private static let wordsNeedingMore: [StaticString] = [
        "SELECT", "FROM", "WHERE", "AND", "OR", "BY", "JOIN", "ON", "SET", "VALUES", "IN", "NOT", "INTO",
    ]

    /// Level 3 values, read up to the parenthesis that closes them: the
    /// parentheses outside quoted strings are followed from line to line.
    package struct Values: Sendable {
        /// Parentheses open (0 or less: the values are closed).
        package private(set) var depth = 0
        private var inQuote = false
        private var escaped = false

        package init() {}

        /// Follows the parentheses of the next bytes of the values.
        package mutating func scan(_ bytes: UnsafeRawBufferPointer) {
            var (escaped, inQuote, depth) = (self.escaped, self.inQuote, self.depth)
            guard let base = bytes.baseAddress else { return }
            let ones: UInt64 = 0x0101_0101_0101_0101
            /// Whether `word` has a zero byte.
            func hasZero(_ word: UInt64) -> Bool { (word &- ones) & ~word & (ones &* 0x80) != 0 }
            var index = 0
            while index < bytes.count {
                // Eight bytes without a backslash, quote or parenthesis change nothing.
                if !escaped, index + 8 <= bytes.count {
                    let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    if !hasZero(word ^ (ones &* 0x5C)), !hasZero(word ^ (ones &* 0x22)), !hasZero(word ^ (ones &* 0x28)),
                       !hasZero(word ^ (ones &* 0x29))
                    {
                        index += 8
                        continue
                    }
                }
                let byte = bytes[index]
                index += 1
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = inQuote
                } else if byte == UInt8(ascii: "\"") {
                    inQuote.toggle()
                } else if !inQuote {
                    if byte == UInt8(ascii: "(") { depth += 1 } else if byte == UInt8(ascii: ")") { depth -= 1 }
                }
            }
            (self.escaped, self.inQuote, self.depth) = (escaped, inQuote, depth)
        }
    }
}
