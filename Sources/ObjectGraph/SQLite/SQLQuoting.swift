/// `text` between two `quote`s, with each `quote` inside doubled: SQL's
/// quoting of identifiers (`"`) and of string literals (`'`).
///
/// Works on UTF-8 bytes (an ASCII quote never occurs inside a multi-byte
/// character, and a combining mark after a quote must not hide it). It
/// stays in the standard library because statements are built on hot paths
/// (a fault's SELECT, the bound values of an SQL event): Foundation's
/// `replacingOccurrences` costs thousands of instructions a call.
func sqlQuoted(_ text: String, quote: Unicode.Scalar) -> String {
    precondition(quote.isASCII, "SQL quotes are ASCII")
    let byte = UInt8(quote.value)
    let mark = String(quote)
    guard text.utf8.contains(byte) else { return mark + text + mark }
    var bytes: [UInt8] = [byte]
    bytes.reserveCapacity(text.utf8.count + 8)
    for unit in text.utf8 {
        bytes.append(unit)
        if unit == byte { bytes.append(byte) }
    }
    bytes.append(byte)
    return String(decoding: bytes, as: UTF8.self)
}

/// A SQL identifier in double quotes. Model names are checked to be plain
/// identifiers, so this never needs escaping; it is done anyway.
func quoted(_ identifier: String) -> String {
    sqlQuoted(identifier, quote: "\"")
}
