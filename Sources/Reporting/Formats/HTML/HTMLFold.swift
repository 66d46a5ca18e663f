/// A folded part of the report page: a `<details>` whose summary says what
/// is inside and how many (`SQL statements: 4 shapes, 42 executions`). A
/// link to something inside opens it (``HTMLPage/script``).
enum HTMLFold {
    /// The opening of a fold titled `title` (a third-level heading), with `inside` beside it.
    static func open(_ title: String, _ inside: String, class name: String = "", isOpen: Bool = false) -> String {
        "<details class=\"fold\(name.isEmpty ? "" : " " + name)\"\(isOpen ? " open" : "")><summary><h3>\(escapeHTML(title))</h3> "
            + "<span class=\"inside\">\(escapeHTML(inside))</span></summary>"
    }

    static let close = "</details>"

    /// `count` and a noun, plural unless one: `1 shape`, `4 shapes`.
    static func count(_ count: Int, _ noun: String, _ plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }
}
