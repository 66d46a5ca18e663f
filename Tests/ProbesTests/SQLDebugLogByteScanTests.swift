import Foundation
import Probes
import Testing

/// The tokenizer's scans that look at eight bytes at a time (a line's
/// marker, its ASCII check, a query plan mention, a plan row's bar and
/// keyword, a phrase found by the letter after its space), each against a
/// plain reading of the same bytes: every length around the blocks of
/// eight, the looked-for bytes at every place.
@Suite struct SQLDebugLogByteScanTests {
    /// The offsets of `needle` in `haystack`, first to last, read byte by byte.
    static func offsets(of needle: [UInt8], in haystack: [UInt8]) -> [Int] {
        guard needle.count <= haystack.count else { return [] }
        return (0...(haystack.count - needle.count)).filter { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    /// Filler of `count` bytes that holds none of the bytes the scans look for.
    static func filler(_ count: Int) -> [UInt8] {
        Array(repeating: UInt8(ascii: "x"), count: count)
    }

    @Test func plainASCIIIsEveryByteBelow0x80AndNoEscape() {
        for count in 0...40 {
            let plain = Self.filler(count)
            #expect(plain.withUnsafeBytes { SQLDebugLogBytes.isPlainASCII($0) })
            for place in 0..<count {
                for byte: UInt8 in [0x80, 0xC3, 0xFF, 0x1B] {
                    var line = plain
                    line[place] = byte
                    #expect(!line.withUnsafeBytes { SQLDebugLogBytes.isPlainASCII($0) }, "byte \(byte) at \(place) of \(count)")
                }
            }
        }
    }

    @Test func aQueryPlanMentionIsFoundAtEveryPlaceOfShortAndLongLines() {
        for phrase in ["QUERY PLAN", "query plan"] {
            for count in [10, 17, 31, 63, 64, 65, 100] {
                for place in 0...(count - phrase.utf8.count) {
                    var line = Self.filler(count)
                    line.replaceSubrange(place..<(place + phrase.utf8.count), with: Array(phrase.utf8))
                    #expect(line.withUnsafeBytes { SQLDebugLogUnmarkedLine.mentionsQueryPlan($0) }, "\(phrase) at \(place) of \(count)")
                }
            }
        }
        for line in ["Query Plan", "QUERY plan", "QUERY PLA", "queryplan", "qqqqqqqqqqqq", String(repeating: "q ", count: 40)] {
            #expect(!Array(line.utf8).withUnsafeBytes { SQLDebugLogUnmarkedLine.mentionsQueryPlan($0) }, "\(line)")
        }
    }

    @Test func aMarkerIsFoundAtEveryPlaceAndALineWithoutOneIsPassed() {
        let markers: [(String, SQLDebugLogLine.Marker, Int)] = [
            ("faultline: ", .faultline, 11), ("CoreData: ", .coreData, 10), ("(CoreData) ", .coreData, 11),
        ]
        for (marker, kind, length) in markers {
            for count in [length, length + 1, 16, 23, 24, 40] {
                for place in 0...(count - length) {
                    var line = Self.filler(count)
                    line.replaceSubrange(place..<(place + length), with: Array(marker.utf8))
                    let found = line.withUnsafeBytes { SQLDebugLogLine.marker(in: $0) }
                    #expect(found == SQLDebugLogLine.FoundMarker(marker: kind, textStart: place + length), "\(marker) at \(place) of \(count)")
                }
            }
        }
        // A colon or a parenthesis then a space, and no marker: none found.
        for line in ["note: a line", "(see this) and that", "x:y)z", "reData:x", String(repeating: "ab: ", count: 12)] {
            #expect(Array(line.utf8).withUnsafeBytes { SQLDebugLogLine.marker(in: $0) } == nil, "\(line)")
        }
    }

    @Test func aPlanRowKeywordIsFoundFirstWhereverItStands() {
        for keyword in SQLDebugLogPlanRow.keywords.map({ "\($0)" }) {
            let word = Array(keyword.utf8)
            for count in [word.count + 1, 9, 15, 16, 17, 30, 64] where count > word.count {
                for place in 0...(count - word.count - 1) {
                    // Capitals that start no keyword around it, and a last byte that is no white space.
                    var line = Array(String(repeating: "ZA", count: count).utf8.prefix(count))
                    line.replaceSubrange(place..<(place + word.count), with: word)
                    line[count - 1] = UInt8(ascii: "t")
                    let expected = SQLDebugLogPlanRow.keywords.flatMap { Self.offsets(of: Array("\($0)".utf8), in: Array(line.prefix(count))) }.min()
                    let found = line.withUnsafeBytes { raw in
                        SQLDebugLogPlanRow.printed(SQLDebugLogBytes(raw), 0..<raw.count).map { $0.detail.lowerBound }
                    }
                    #expect(found == expected, "\(keyword) at \(place) of \(count)")
                }
            }
        }
        for line in ["ZA ZA ZA SCA", "SCANS", "SELECT * FROM ZITEM", "use temp b-tree", "0|1|2"] {
            let found = Array(line.utf8).withUnsafeBytes { SQLDebugLogPlanRow.printed(SQLDebugLogBytes($0), 0..<$0.count) }
            #expect(found == nil, "\(line)")
        }
    }

    @Test func theShellsRowIsReadWhereverItsBarsStandAndAKeywordAfterThemIsNotNeeded() {
        for prefix in ["0|0|0|", " 0 | 1 | 2 |", "12|3|4|"] {
            for detail in ["x", "a table", "SCAN TABLE ZITEM", String(repeating: "y", count: 40)] {
                let line = Array((prefix + detail).utf8)
                let found = line.withUnsafeBytes { raw in
                    SQLDebugLogPlanRow.printed(SQLDebugLogBytes(raw), 0..<raw.count).map { SQLDebugLogBytes(raw).string($0.detail) }
                }
                #expect(found == detail, "\(prefix + detail)")
            }
        }
        // A bar late in a long line, and a keyword before it: the keyword's row.
        let line = Array("xxxxxxxx SCAN TABLE ZITEM xxxxxxxxxxxx | 1".utf8)
        let found = line.withUnsafeBytes { SQLDebugLogPlanRow.printed(SQLDebugLogBytes($0), 0..<$0.count).map(\.detail.lowerBound) }
        #expect(found == 9)
    }

    @Test func aPhraseStartingWithASpaceIsFoundAtItsFirstPlace() {
        let phrase: StaticString = " returned "
        for count in [10, 11, 20, 40, 80] {
            for place in 0...(count - phrase.utf8CodeUnitCount) {
                // Spaces and r's everywhere else: every near miss is passed.
                var line = Array(String(repeating: "r ", count: count).utf8.prefix(count))
                line.replaceSubrange(place..<(place + phrase.utf8CodeUnitCount), with: Array("\(phrase)".utf8))
                let expected = Self.offsets(of: Array("\(phrase)".utf8), in: line).first
                let found = line.withUnsafeBytes { raw in SQLDebugLogBytes(raw).find(phrase, in: 0..<raw.count)?.lowerBound }
                #expect(found == expected, "at \(place) of \(count)")
            }
        }
    }
}
