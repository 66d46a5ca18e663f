import Foundation

/// A time for people, the one way every report, page, summary and
/// comparison prints one: three significant digits in the unit that fits,
/// `ns`, `µs`, `ms` or `s` (`312 µs`, `4.25 ms`, `1.20 s`, `45.0 ns`), so
/// that a median, a gain and a statement's cost read alike wherever they
/// are shown. Seconds stay seconds from a thousand on, grouped by
/// thousands (`1,234 s`). "n/a" for a value that is not a finite time.
enum TimeText {
    /// The units from the largest, each with its size in seconds.
    static let units: [(seconds: Double, name: String)] = [(1, "s"), (1e-3, "ms"), (1e-6, "µs"), (1e-9, "ns")]

    static func seconds(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        if value == 0 { return "0 s" }
        let magnitude = abs(value)
        if magnitude >= 1000 {
            return magnitude < 1e15 ? CountText.count(Int(value.rounded())) + " s" : String(format: "%.3g s", value)
        }
        // The largest unit the value reaches, then one up when rounding to
        // three digits reaches a thousand (999.7 µs is 1.00 ms).
        var index = units.firstIndex { magnitude >= $0.seconds } ?? units.count - 1
        if index > 0, magnitude / units[index].seconds >= 999.5 { index -= 1 }
        let scaled = value / units[index].seconds
        let digits = abs(scaled) >= 99.95 ? 0 : abs(scaled) >= 9.995 ? 1 : 2
        return String(format: "%.\(digits)f \(units[index].name)", scaled)
    }

    /// A time as its source gives it: the figure's own digits in seconds,
    /// no more (`30 s`, `0.6 s`, `0.007 s`): a published figure keeps its
    /// precision, and its unit.
    static func asGiven(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        return String(format: "%g s", value)
    }
}
