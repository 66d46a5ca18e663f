import ToolSupport
/// Text from data (scenario names, errors, insight messages, versions) as
/// Markdown that renders as that text: never as HTML, a link, an image or
/// emphasis, and never breaking a table row.
///
/// `&`, `<` and `>` become entities (no tag, no autolink, no entity of the
/// data's own); the punctuation of inline markup (`\` `` ` `` `*` `_` `[`
/// `]` `~` `|` `#`) is escaped with a backslash; line breaks become spaces;
/// a leading `-`, `+` or `1. ` cannot start a list. A bare URL or address
/// does not become a link (GitHub links `https://…`, `www.…` and `a@b.c`
/// by themselves): the `:` of `://`, the `.` of `www.` and every `@` are
/// escaped, which splits the text the link finder reads. Control characters
/// and bidirectional controls are shown escaped (``TerminalText``).
func escapeMarkdown(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    let scalars = Array(text.unicodeScalars)
    // Digits then "." or ")" then a space (or nothing) at the start: an
    // ordered list's marker.
    var leadingDigits = scalars.prefix { ("0"..."9").contains($0) }.count
    if leadingDigits + 1 < scalars.count, scalars[leadingDigits + 1] != " ", scalars[leadingDigits + 1] != "\t" { leadingDigits = 0 }
    for (index, scalar) in scalars.enumerated() {
        if TerminalText.isControl(scalar), scalar != "\r" {
            result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            continue
        }
        switch scalar {
        case ":" where index + 2 < scalars.count && scalars[index + 1] == "/" && scalars[index + 2] == "/",
            "." where index >= 3 && String(String.UnicodeScalarView(scalars[(index - 3)..<index])).lowercased() == "www",
            "@":
            result += "\\"
            result.unicodeScalars.append(scalar)
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\n", "\r": result += " "
        case "\\", "`", "*", "_", "[", "]", "~", "|", "#":
            result += "\\"
            result.unicodeScalars.append(scalar)
        case "-" where index == 0, "+" where index == 0:
            result += "\\"
            result.unicodeScalars.append(scalar)
        case "." where index == leadingDigits && leadingDigits > 0, ")" where index == leadingDigits && leadingDigits > 0:
            result += "\\"
            result.unicodeScalars.append(scalar)
        default:
            result.unicodeScalars.append(scalar)
        }
    }
    return result
}

/// Text as a Markdown code span: shown literally (HTML in it is text), on
/// one line, fenced with one backtick more than the longest run of
/// backticks inside. In a table cell (`inTable`), `|` is escaped as GitHub
/// tables need even in code.
func markdownCode(_ text: String, inTable: Bool = false) -> String {
    var body = String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
    if inTable { body = body.replacingOccurrences(of: "|", with: "\\|") }
    var longest = 0
    var run = 0
    for character in body {
        run = character == "`" ? run + 1 : 0
        longest = max(longest, run)
    }
    let fence = String(repeating: "`", count: longest + 1)
    let padding = body.hasPrefix("`") || body.hasSuffix("`") ? " " : ""
    return fence + padding + body + padding + fence
}
