/// Escapes text for HTML content and attribute values: everything that
/// comes from data goes through here.
func escapeHTML(_ text: String) -> String { escapeMarkup(text, forXML: false) }

/// Escapes text for HTML or XML content and attribute values: the five
/// markup characters as entities. For XML (1.0), the characters it cannot
/// hold (controls other than tab, line feed and carriage return, U+FFFE,
/// U+FFFF) become U+FFFD.
func escapeMarkup(_ text: String, forXML: Bool) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text.unicodeScalars {
        switch character {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"": result += "&quot;"
        case "'": result += "&#39;"
        case "\t", "\n", "\r": result.unicodeScalars.append(character)
        case _ where forXML && (character.value < 0x20 || character.value == 0xFFFE || character.value == 0xFFFF): result += "\u{FFFD}"
        default: result.unicodeScalars.append(character)
        }
    }
    return result
}
