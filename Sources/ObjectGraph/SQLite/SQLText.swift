import Foundation

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

    /// The bytes compared at once (`memcmp`): byte by byte through the
    /// UTF-8 view, a statement of a few hundred bytes cost thousands of
    /// instructions at each lookup.
    static func == (lhs: SQLText, rhs: SQLText) -> Bool {
        let left = lhs.text.utf8
        let right = rhs.text.utf8
        guard left.count == right.count else { return false }
        let compared = left.withContiguousStorageIfAvailable { a in
            right.withContiguousStorageIfAvailable { b in a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
        return (compared ?? nil) ?? left.elementsEqual(right)
    }

    func hash(into hasher: inout Hasher) {
        let hashed: Void? = text.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil { for byte in text.utf8 { hasher.combine(byte) } }
    }
}
