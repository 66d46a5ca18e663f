/// Text from data (a report, a log, a model) made safe for a terminal:
/// control characters other than line breaks and tabs, and the Unicode
/// controls that reorder text (bidirectional embeddings, overrides and
/// isolates, which can make a line read other than it is), are shown as
/// `\u{1B}`-style escapes instead of acting on the terminal.
public enum TerminalText {
    /// Whether `scalar` acts on a terminal or reorders text.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x08, 0x0B...0x1F, 0x7F...0x9F: true  // C0 but tab and line feed, DEL, C1
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true  // bidirectional marks and controls
        default: false
        }
    }

    /// `text` with every control (``isControl(_:)``) escaped.
    public static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
