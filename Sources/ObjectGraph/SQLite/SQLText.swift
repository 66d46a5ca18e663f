/// A statement's text as SQLite reads it: its UTF-8 bytes. The key of a
/// connection's statement cache.
///
/// Why not the `String` itself: two strings are equal when their
/// characters are canonically equivalent (`é` as one scalar, or `e` and a
/// combining accent), but SQLite compares identifiers and literals by
/// their bytes, so such texts are different statements and must not share
/// one prepared for the other.
struct SQLText: Hashable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (lhs: SQLText, rhs: SQLText) -> Bool {
        lhs.text.utf8.elementsEqual(rhs.text.utf8)
    }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
