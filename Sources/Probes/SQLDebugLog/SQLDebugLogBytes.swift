import Foundation

/// A SQL debug log line's text as UTF-8 bytes, as the tokenizer reads it
/// (``SQLDebugLogLine``): searches, splits and numbers over bytes, no
/// `Character` walked. The grammar's phrases are ASCII, so a phrase found
/// in the bytes is where it stands in the text whatever else the line
/// holds; the text between phrases is returned as byte ranges, and made a
/// `String` only when asked.
package struct SQLDebugLogBytes {
    /// The bytes; valid while the line is read.
    package let bytes: UnsafeRawBufferPointer

    @inlinable @inline(__always)
    package init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    package var count: Int { bytes.count }

    package var all: Range<Int> { 0..<bytes.count }

    package subscript(_ index: Int) -> UInt8 { bytes[index] }

    /// The bytes of `range`.
    package func slice(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[range])
    }

    /// The text of `range` (invalid UTF-8 read as U+FFFD).
    package func string(_ range: Range<Int>) -> String {
        String(decoding: slice(range), as: UTF8.self)
    }

    /// The first offset of `needle` in `range`. Its places are found by
    /// `memchr` for its first byte, or for its second when the first is a
    /// space (` returned `, ` at `: spaces are common, the letters after
    /// them less so).
    package func find(_ needle: StaticString, in range: Range<Int>) -> Range<Int>? {
        let length = needle.utf8CodeUnitCount
        guard range.count >= length, let base = bytes.baseAddress else { return nil }
        let anchor = length > 1 && needle.utf8Start[0] == 0x20 && needle.utf8Start[1] != 0x20 ? 1 : 0
        let anchorByte = Int32(needle.utf8Start[anchor])
        let check = anchor == 0 ? 1 : 0
        let checkByte = length > 1 ? needle.utf8Start[check] : 0
        var offset = range.lowerBound
        let last = range.upperBound - length
        while offset <= last, let hit = memchr(base + offset + anchor, anchorByte, last - offset + 1) {
            let at = base.distance(to: UnsafeRawPointer(hit)) - anchor
            // The other of the first two bytes first: most hits are no match.
            if length == 1 || (bytes[at + check] == checkByte && memcmp(base + at, needle.utf8Start, length) == 0) { return at..<(at + length) }
            offset = at + 1
        }
        return nil
    }

    /// The last occurrence of `needle` in `range` that a search from its
    /// start, match after match, finds. Matches of a needle that no proper
    /// prefix of it ends (` (`, `/p`) cannot overlap: the last is the last
    /// occurrence, found by `memchr` for the needle's last byte (rarer than
    /// a space).
    package func findLast(_ needle: StaticString, in range: Range<Int>) -> Range<Int>? {
        let length = needle.utf8CodeUnitCount
        if length > 0, !Self.hasBorder(needle) {
            guard range.count >= length, let base = bytes.baseAddress else { return nil }
            let last = Int32(needle.utf8Start[length - 1])
            var found: Range<Int>?
            var offset = range.lowerBound + length - 1
            while offset < range.upperBound, let hit = memchr(base + offset, last, range.upperBound - offset) {
                let end = base.distance(to: UnsafeRawPointer(hit)) + 1
                if memcmp(base + (end - length), needle.utf8Start, length) == 0 { found = (end - length)..<end }
                offset = end
            }
            return found
        }
        var found: Range<Int>?
        var rest = range
        while let match = find(needle, in: rest) {
            found = match
            rest = match.upperBound..<range.upperBound
        }
        return found
    }

    /// Whether a proper prefix of `needle` is also its suffix (` at `):
    /// two of its matches can overlap.
    static func hasBorder(_ needle: StaticString) -> Bool {
        let length = needle.utf8CodeUnitCount
        guard length > 1 else { return false }
        for border in 1..<length where memcmp(needle.utf8Start, needle.utf8Start + (length - border), border) == 0 { return true }
        return false
    }

    /// The last offset of `byte` in `range`.
    package func lastIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
        var index = range.upperBound
        while index > range.lowerBound {
            index -= 1
            if bytes[index] == byte { return index }
        }
        return nil
    }

    /// The first offset of `byte` in `range`, or its end.
    package func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int {
        guard !range.isEmpty, let base = bytes.baseAddress, let hit = memchr(base + range.lowerBound, Int32(byte), range.count) else {
            return range.upperBound
        }
        return base.distance(to: UnsafeRawPointer(hit))
    }

    /// Whether `range` starts with `prefix` (its first byte compared
    /// first: most prefixes tried do not start so).
    package func starts(_ range: Range<Int>, with prefix: StaticString) -> Bool {
        let length = prefix.utf8CodeUnitCount
        guard range.count >= length else { return false }
        guard length > 0 else { return true }
        return bytes[range.lowerBound] == prefix.utf8Start.pointee && memcmp(bytes.baseAddress! + range.lowerBound, prefix.utf8Start, length) == 0
    }

    /// Whether `range` ends with `suffix`.
    package func ends(_ range: Range<Int>, with suffix: StaticString) -> Bool {
        let length = suffix.utf8CodeUnitCount
        return range.count >= length && memcmp(bytes.baseAddress! + (range.upperBound - length), suffix.utf8Start, length) == 0
    }

    /// Whether `range` is `text`.
    package func equals(_ range: Range<Int>, _ text: StaticString) -> Bool {
        range.count == text.utf8CodeUnitCount && starts(range, with: text)
    }

    /// Whether `range` is the word of `phrase`, a word between two spaces
    /// (` of ` → `of`).
    package func equals(_ range: Range<Int>, word phrase: StaticString) -> Bool {
        let length = phrase.utf8CodeUnitCount - 2
        return range.count == length && memcmp(bytes.baseAddress! + range.lowerBound, phrase.utf8Start + 1, length) == 0
    }

    /// `range` split at `separator` as `split(separator:maxSplits:)` splits
    /// (empty parts omitted; after `maxSplits` splits, the rest is one part,
    /// from just after the last separator).
    package func split(_ range: Range<Int>, separator: UInt8, maxSplits: Int = Int.max) -> [Range<Int>] {
        var parts: [Range<Int>] = []
        parts.reserveCapacity(min(maxSplits, 7) + 1)
        forEachPart(range, separator: separator, maxSplits: maxSplits) { parts.append($0) }
        return parts
    }

    /// Calls `body` with each part of ``split(_:separator:maxSplits:)``, in order.
    package func forEachPart(_ range: Range<Int>, separator: UInt8, maxSplits: Int = Int.max, _ body: (Range<Int>) -> Void) {
        var parts = 0
        var start = range.lowerBound
        var end = range.lowerBound
        while end < range.upperBound {
            if bytes[end] == separator {
                let appended = start != end
                if appended {
                    body(start..<end)
                    parts += 1
                }
                end += 1
                start = end
                if appended, parts == maxSplits { break }
                continue
            }
            end += 1
        }
        if start != range.upperBound { body(start..<range.upperBound) }
    }

    /// The offset after the ASCII digits that start at `start`.
    package func digitsEnd(from start: Int, to end: Int) -> Int {
        var index = start
        while index < end, bytes[index] &- 0x30 < 10 { index += 1 }
        return index
    }

    /// `range` without the spaces and tabs at its ends.
    package func trimmingSpaces(_ range: Range<Int>) -> Range<Int> {
        var (start, end) = (range.lowerBound, range.upperBound)
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return start..<end
    }

    /// `range` without the spaces, tabs and carriage returns at its ends.
    package func trimmingSpacesAndReturns(_ range: Range<Int>) -> Range<Int> {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0D }
        var (start, end) = (range.lowerBound, range.upperBound)
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return start..<end
    }

    /// `range` without the residue of a pasted table at its end: the
    /// cell bars (` |`, ` | |`) that a page's or a terminal's table puts
    /// after a cell's text, with the spaces and carriage returns around
    /// them. A bar is residue only after a space (SQL's `||` and a value's
    /// own `|` stay).
    package func trimmingTableResidue(_ range: Range<Int>) -> Range<Int> {
        var trimmed = trimmingSpacesAndReturns(range)
        while trimmed.count >= 2, bytes[trimmed.upperBound - 1] == UInt8(ascii: "|"),
              bytes[trimmed.upperBound - 2] == 0x20 || bytes[trimmed.upperBound - 2] == 0x09
        {
            trimmed = trimmingSpacesAndReturns(trimmed.lowerBound..<(trimmed.upperBound - 1))
        }
        return trimmed
    }

    /// `range` without the white space at its ends that
    /// `CharacterSet.whitespaces` holds: spaces, tabs, and Unicode's
    /// space separators (no-break space, em space, ideographic space…).
    @inline(__always)
    package func trimmingWhitespace(_ range: Range<Int>) -> Range<Int> {
        // Most ranges start and end with a byte that is no space, tab nor
        // part of a character beyond ASCII: nothing to trim.
        let isPlain = { (byte: UInt8) in byte != 0x20 && byte != 0x09 && byte < 0x80 }
        if !range.isEmpty, isPlain(bytes[range.lowerBound]), isPlain(bytes[range.upperBound - 1]) { return range }
        return trimmingWhitespaceAtEnds(range)
    }

    private func trimmingWhitespaceAtEnds(_ range: Range<Int>) -> Range<Int> {
        var (start, end) = (range.lowerBound, range.upperBound)
        while start < end, let length = whitespaceLength(at: start, before: end) { start += length }
        while end > start, let length = whitespaceLength(endingAt: end, after: start) { end -= length }
        return start..<end
    }

    /// The length of the white space character (``trimmingWhitespace(_:)``)
    /// at `index`, nil when there is none.
    package func whitespaceLength(at index: Int, before end: Int) -> Int? {
        let byte = bytes[index]
        if byte == 0x20 || byte == 0x09 { return 1 }
        guard byte >= 0xC2 else { return nil }
        for length in 2...3 where index + length <= end && Self.isUnicodeSpace(bytes, index, length) { return length }
        return nil
    }

    private func whitespaceLength(endingAt end: Int, after start: Int) -> Int? {
        let byte = bytes[end - 1]
        if byte == 0x20 || byte == 0x09 { return 1 }
        guard byte >= 0x80 else { return nil }
        for length in 2...3 where end - length >= start && Self.isUnicodeSpace(bytes, end - length, length) { return length }
        return nil
    }

    /// Whether the `length` bytes at `index` are the UTF-8 of a space
    /// separator beyond ASCII (general category Zs): U+00A0, U+1680,
    /// U+2000 to U+200A, U+202F, U+205F, U+3000.
    private static func isUnicodeSpace(_ bytes: UnsafeRawBufferPointer, _ index: Int, _ length: Int) -> Bool {
        let (a, b) = (bytes[index], bytes[index + 1])
        if length == 2 { return a == 0xC2 && b == 0xA0 }
        let c = bytes[index + 2]
        switch (a, b) {
        case (0xE1, 0x9A): return c == 0x80
        case (0xE2, 0x80): return (0x80...0x8A).contains(c) || c == 0xAF
        case (0xE2, 0x81): return c == 0x9F
        case (0xE3, 0x80): return c == 0x80
        default: return false
        }
    }

    /// What `Int(_:)` reads from the text of `range`: a sign (`+`, `-`) or
    /// none, then decimal digits, at least one, the value within `Int`'s
    /// range; nil otherwise.
    package func int(_ range: Range<Int>) -> Int? {
        var index = range.lowerBound
        var negative = false
        if index < range.upperBound, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < range.upperBound else { return nil }
        var value = 0
        while index < range.upperBound {
            let digit = bytes[index] &- 0x30
            guard digit < 10 else { return nil }
            let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) = negative ? times.subtractingReportingOverflow(Int(digit)) : times.addingReportingOverflow(Int(digit))
            guard !overflowA, !overflowB else { return nil }
            value = next
            index += 1
        }
        return value
    }

    /// The number of the ASCII digits right after the first `marker` in
    /// `range`; nil without the marker or digits (or beyond `Int`).
    package func number(after marker: StaticString, in range: Range<Int>) -> Int? {
        guard let found = find(marker, in: range) else { return nil }
        return int(found.upperBound..<digitsEnd(from: found.upperBound, to: range.upperBound))
    }

    /// What `Double(_:)` reads from `range`: `digits[.digits]` with at most
    /// 15 significant digits and 22 decimals is read exactly as `strtod`
    /// rounds it (an integer below 2^53 divided by a power of ten that is
    /// exact, one rounding); other forms by `Double(_:)`.
    package func double(_ range: Range<Int>) -> Double? {
        var significand: UInt64 = 0
        var digits = 0
        var decimals = 0
        var sawPoint = false
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            if byte &- 0x30 < 10 {
                if significand > 0 || byte != 0x30 { digits += 1 }
                significand = significand &* 10 &+ UInt64(byte &- 0x30)
                if sawPoint { decimals += 1 }
            } else if byte == UInt8(ascii: "."), !sawPoint, index > range.lowerBound {
                sawPoint = true
            } else {
                return Double(string(range))
            }
            index += 1
        }
        // `5.` and forms with too many digits: the general reader.
        guard !range.isEmpty, bytes[range.upperBound - 1] != UInt8(ascii: "."), digits <= 15, decimals <= 22 else {
            return Double(string(range))
        }
        return Double(significand) / Self.powersOfTen[decimals]
    }

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    // MARK: Whole lines

    /// Whether every byte is below 0x80 and none is an escape (0x1B, which
    /// starts a colour code): text read as it is. Eight bytes at a time.
    package static func isPlainASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        let ones: UInt64 = 0x0101_0101_0101_0101
        /// A byte of 0x80 or more, or a zero byte of `word ^ 0x1B…` (an escape), as its high bit.
        func flags(_ word: UInt64) -> UInt64 {
            let escapes = word ^ (ones &* 0x1B)
            return word | ((escapes &- ones) & ~escapes)
        }
        guard count >= 8 else {
            // Four bytes at each end (overlapping), as one word with no zero byte.
            guard count >= 4 else { return !bytes.contains { $0 >= 0x80 || $0 == 0x1B } }
            let head = UInt64(base.loadUnaligned(as: UInt32.self))
            let tail = UInt64(base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            return flags(head | tail << 32) & (ones &* 0x80) == 0
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
    package static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
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

    /// The text of bytes that are not plain ASCII: invalid UTF-8 read as
    /// U+FFFD, ANSI escape sequences (colour codes) removed.
    package static func decode(_ bytes: UnsafeRawBufferPointer) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let base = bytes.baseAddress, memchr(base, 0x1B, bytes.count) != nil else { return text }
        var result = ""
        var skipping = false
        for scalar in text.unicodeScalars {
            if scalar == "\u{1B}" {
                skipping = true
                continue
            }
            if skipping {
                if (0x40...0x7E).contains(scalar.value), scalar != "[" { skipping = false }
                continue
            }
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    /// `bytes` without one carriage return at its end: a line of a file
    /// written with CRLF line ends reads as the same line written with LF.
    @inlinable @inline(__always)
    package static func droppingReturn(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard let last = bytes.last, last == 0x0D else { return bytes }
        return UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.count - 1)])
    }

    /// Calls `body` with the text of a line's bytes as the tokenizer reads
    /// it: without a carriage return at its end; plain ASCII as it is,
    /// other bytes decoded (``decode(_:)``).
    package static func withText<R>(_ bytes: UnsafeRawBufferPointer, _ body: (SQLDebugLogBytes) throws -> R) rethrows -> R {
        let bytes = droppingReturn(bytes)
        if isPlainASCII(bytes) { return try body(SQLDebugLogBytes(bytes)) }
        var text = decode(bytes)
        return try text.withUTF8 { try body(SQLDebugLogBytes(UnsafeRawBufferPointer($0))) }
    }
}
