import Foundation
import Probes

/// A count for people, the one way reports print one: digits grouped by
/// thousands (`501,501`), so that a count reads the same in the page, the
/// Markdown, the terminal and a comparison. A figure that is not whole
/// (a share, a ratio a scenario records) keeps four significant digits.
enum CountText {
    static func count(_ value: Int) -> String { value.groupedDigits }

    /// A count a report may lack: "-" for none.
    static func count(_ value: Int?, none: String = "-") -> String { value.map(count) ?? none }

    /// A figure: whole numbers as counts, others with four significant
    /// digits; "n/a" when it is not finite.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        if value == value.rounded(), abs(value) < 9e15 { return count(Int(value)) }
        return String(format: "%.4g", value)
    }

    /// A figure a scenario records, by its name: a name ending in
    /// `Seconds` is a time (``TimeText``), any other a number.
    static func figure(_ name: String, _ value: Double) -> String {
        name.hasSuffix("Seconds") ? TimeText.seconds(value) : number(value)
    }
}
