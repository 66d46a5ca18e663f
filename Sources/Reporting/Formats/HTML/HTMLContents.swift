/// The report page's table of contents: a column beside the page on a wide
/// screen, a bar along the top on a narrow one (its links in a row that
/// scrolls in its own box; the scenarios only in the column), both staying
/// in view as the page scrolls (``HTMLPage/style``). Each entry links to
/// a part of the page by its id; a part is wrapped in an element with that
/// id (``part(_:_:)``), so that every link has its target.
enum HTMLContents {
    struct Entry {
        /// The id of the element it links to.
        var id: String
        var title: String
        /// What it holds, in a few words (`2 failed`), shown after the title.
        var note: String?
        /// A class for the link (a scenario's status).
        var mark: String?
        var children: [Entry] = []
    }

    static func render(_ entries: [Entry]) -> String {
        "<nav class=\"toc\" aria-label=\"contents\"><a class=\"toc-top\" href=\"#top\">↑ Top</a>\(list(entries))</nav>"
    }

    private static func list(_ entries: [Entry]) -> String {
        guard !entries.isEmpty else { return "" }
        var html = "<ul>"
        for entry in entries {
            html += "<li><a href=\"#\(escapeHTML(entry.id))\"\(entry.mark.map { " class=\"\(escapeHTML($0))\"" } ?? "")>"
                + escapeHTML(entry.title) + (entry.note.map { " <span class=\"note\">\(escapeHTML($0))</span>" } ?? "") + "</a>"
                + list(entry.children) + "</li>"
        }
        return html + "</ul>"
    }

    /// `html` inside an element with `id`, the target of an entry ("" stays "").
    static func part(_ id: String, _ html: String) -> String {
        html.isEmpty ? "" : "<div class=\"part\" id=\"\(escapeHTML(id))\">\(html)</div>"
    }
}
