import Foundation
import Probes

/// Texts a log repeats on many lines (a call site's file, a statement's
/// purpose), kept once: reading one again gives the kept `String`, not a
/// new one. Each is the text of its bytes, so a text read through the table
/// equals one read without it. Bounded: at most ``maximumTexts`` texts of
/// at most ``maximumBytes`` bytes; others are made each time.
struct LogTextTable {
    static let maximumTexts = 1_024
    static let maximumBytes = 256

    private var texts: [String] = []
    private var digests = DigestTable(capacity: LogTextTable.maximumTexts)

    /// The text of `bytes[range]`.
    mutating func text(_ bytes: SQLDebugLogBytes, _ range: Range<Int>) -> String {
        entry(bytes, range).text
    }

    /// The text of `bytes[range]`, and its place in the table (nil when
    /// it is not kept there).
    mutating func entry(_ bytes: SQLDebugLogBytes, _ range: Range<Int>) -> (text: String, place: Int?) {
        guard range.count <= Self.maximumBytes else { return (bytes.string(range), nil) }
        let part = bytes.slice(range)
        let key = SQLLogAnalyzer.digest(part)
        if let place = digests.find(key) {
            let text = texts[place]
            let same = text.utf8.withContiguousStorageIfAvailable { stored in
                stored.count == part.count && memcmp(stored.baseAddress!, part.baseAddress!, part.count) == 0
            }
            if same == true { return (text, place) }
            return (bytes.string(range), nil)
        }
        let text = bytes.string(range)
        guard texts.count < Self.maximumTexts else { return (text, nil) }
        digests.add(key, place: texts.count)
        texts.append(text)
        return (text, texts.count - 1)
    }

    /// The text kept at `place` (``entry(_:_:)``).
    subscript(place: Int) -> String { texts[place] }
}
