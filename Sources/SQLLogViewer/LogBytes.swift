import Foundation

/// A log line's text as UTF-8 bytes, for the readers of its hot lines
/// (faults, call sites, times): searches, splits and numbers over bytes,
/// no `Character` walked. Callers use it for ASCII text only, where a byte
/// is a character (a line holds no newline, so no `\r\n` pair), and read
/// other text by characters; so each reader gives what its reading by
/// characters gives.
struct LogBytes {
    let bytes: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var count: Int { bytes.count }

    subscript(_ index: Int) -> UInt8 { bytes[index] }

    /// The first offset of `needle` in `range`.
    func find(_ needle: StaticString, in range: Range<Int>) -> Range<Int>? {
        let length = needle.utf8CodeUnitCount
        guard range.count >= length, let base = bytes.baseAddress else { return nil }
        let first = Int32(needle.utf8Start.pointee)
        var offset = range.lowerBound
        let last = range.upperBound - length
        let second = length > 1 ? needle.utf8Start[1] : 0
        while offset <= last, let hit = memchr(base + offset, first, last - offset + 1) {
            let at = base.distance(to: UnsafeRawPointer(hit))
            // The second byte first: most hits of the first are no match.
            if length == 1 || (bytes[at + 1] == second && memcmp(base + at, needle.utf8Start, length) == 0) { return at..<(at + length) }
            offset = at + 1
        }
        return nil
    }

    /// The last occurrence of `needle` in `range` that a search from its
    /// start, match after match, finds (``SQLLogAnalyzer/findLast(_:in:)``).
    /// Matches of a needle that no proper prefix of it ends (` (`, `/p`)
    /// cannot overlap: the last is the last occurrence, found by `memchr`
    /// for the needle's last byte (rarer than a space).
    func findLast(_ needle: StaticString, in range: Range<Int>) -> Range<Int>? {
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
    func lastIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
        var index = range.upperBound
        while index > range.lowerBound {
            index -= 1
            if bytes[index] == byte { return index }
        }
        return nil
    }

    /// The first offset of `byte` in `range`, or its end.
    func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int {
        guard !range.isEmpty, let base = bytes.baseAddress, let hit = memchr(base + range.lowerBound, Int32(byte), range.count) else {
            return range.upperBound
        }
        return base.distance(to: UnsafeRawPointer(hit))
    }

    func starts(_ range: Range<Int>, with prefix: StaticString) -> Bool {
        let length = prefix.utf8CodeUnitCount
        return range.count >= length && memcmp(bytes.baseAddress! + range.lowerBound, prefix.utf8Start, length) == 0
    }

    func equals(_ range: Range<Int>, _ text: StaticString) -> Bool {
        range.count == text.utf8CodeUnitCount && starts(range, with: text)
    }

    /// `range` split at `separator` as `split(separator:maxSplits:)` splits
    /// (empty parts omitted; after `maxSplits` splits, the rest is one part,
    /// from just after the last separator).
    func split(_ range: Range<Int>, separator: UInt8, maxSplits: Int = Int.max) -> [Range<Int>] {
        var parts: [Range<Int>] = []
        parts.reserveCapacity(min(maxSplits, 7) + 1)
        forEachPart(range, separator: separator, maxSplits: maxSplits) { parts.append($0) }
        return parts
    }

    /// Calls `body` with each part of ``split(_:separator:maxSplits:)``, in order.
    func forEachPart(_ range: Range<Int>, separator: UInt8, maxSplits: Int = Int.max, _ body: (Range<Int>) -> Void) {
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

    /// The offsets after the ASCII digits that start at `start`.
    func digitsEnd(from start: Int, to end: Int) -> Int {
        var index = start
        while index < end, bytes[index] &- 0x30 < 10 { index += 1 }
        return index
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// What `Int(_:)` reads from the text of `range`: a sign (`+`, `-`) or
    /// none, then decimal digits, at least one, the value within `Int`'s
    /// range; nil otherwise.
    func int(_ range: Range<Int>) -> Int? {
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
}
