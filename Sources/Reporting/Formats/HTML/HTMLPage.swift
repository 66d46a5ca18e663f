/// The frame every page shares: the document head with the common style
/// (plus a page's own), and the closing script that sorts and filters
/// tables and marks the body ready.
enum HTMLPage {
    /// Up to and including `<body>`; `title` is escaped here.
    static func opening(title: String, style extra: String = "") -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escapeHTML(title))</title>
        <style>\(HTMLReport.style)\(extra)</style></head><body>

        """
    }

    static let closing = "<script>\(HTMLReport.script)</script></body></html>\n"
}
