/// A string's representation, its two words as stored, for comparing a
/// typed property's key with an entity's attribute names in a few
/// instructions.
///
/// Equal bits are the same string. A string of at most 15 UTF-8 bytes (an
/// attribute name, almost always) is stored in the words themselves, so two
/// such names are equal exactly when their bits are; longer strings have
/// equal bits only when they share their storage. So a match is always
/// right, and a miss only means "look it up properly": the caller then
/// takes the out-of-line path, which compares with `==` (a call into the
/// standard library for two different strings, about 30 instructions,
/// once per attribute before the one read).
@usableFromInline
struct StringBits: Equatable {
    @usableFromInline let words: (UInt64, UInt64)

    @inlinable @inline(__always)
    init(_ string: String) {
        #if _pointerBitWidth(_64)
        words = unsafeBitCast(string, to: (UInt64, UInt64).self)
        #else
        // Not a 64-bit platform: no match, so every key is looked up properly.
        words = (0, 0)
        #endif
    }

    @inlinable @inline(__always)
    static func == (a: StringBits, b: StringBits) -> Bool {
        #if _pointerBitWidth(_64)
        return a.words.0 == b.words.0 && a.words.1 == b.words.1
        #else
        return false
        #endif
    }
}
