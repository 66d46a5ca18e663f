import Probes

/// Table cells and headings of numbers, in the reports' one unit language
/// (``TimeText``, ``CountText``): each number cell carries its raw value in
/// `data-value`, so that sorting orders `2.10 ms` after `900 µs` and
/// `1,024` after `999`; a counter's heading carries its definition
/// (``CounterGlossary``) as a tooltip.
enum HTMLCell {
    /// A cell of a time in seconds.
    static func time(_ seconds: Double) -> String {
        "<td data-value=\"\(seconds.isFinite ? String(seconds) : "")\">\(escapeHTML(TimeText.seconds(seconds)))</td>"
    }

    /// A cell of a count; `none` when there is none.
    static func count(_ value: Int?, none: String = "") -> String {
        guard let value else { return "<td>\(escapeHTML(none))</td>" }
        return "<td data-value=\"\(value)\">\(CountText.count(value))</td>"
    }

    /// A heading (`th`) for `counter`, labelled `label` (its name when nil),
    /// its definition as a tooltip.
    static func counterHeading(_ counter: CounterName, label: String? = nil) -> String {
        "<th title=\"\(escapeHTML(CounterGlossary.definition(counter)))\">\(escapeHTML(label ?? counter.rawValue))</th>"
    }

    /// A heading for a counter by name: with its definition as a tooltip
    /// when the name is a counter's.
    static func counterHeading(named name: String) -> String {
        CounterName(rawValue: name).map { counterHeading($0) } ?? "<th>\(escapeHTML(name))</th>"
    }
}
