import Foundation

/// A time for people: three significant digits in the unit that fits
/// (`312 µs`, `4.25 ms`, `1.20 s`), for gains and costs that are often far
/// below a millisecond. "n/a" for a value that is not a finite time.
enum TimeText {
    static func seconds(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        let magnitude = abs(value)
        let (scaled, unit) = magnitude >= 1 ? (value, "s") : magnitude >= 1e-3 ? (value * 1e3, "ms") : (value * 1e6, "µs")
        let digits = abs(scaled) >= 100 ? 0 : abs(scaled) >= 10 ? 1 : 2
        return String(format: "%.\(digits)f \(unit)", scaled)
    }
}
