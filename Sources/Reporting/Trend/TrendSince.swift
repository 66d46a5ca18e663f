import Foundation
import ToolSupport

/// `trend --since`: the start of the window, as a date or a time (ISO
/// 8601: `2025-03-01`, `2025-03-01T12:00:00Z`; a date is midnight UTC) or
/// as a duration back from now, whole numbers each with one of `w`
/// (weeks), `d`, `h`, `m` (minutes), `s`, largest first (`30d`, `12h`,
/// `1w2d`, `90m`).
public enum TrendSince {
    public static func parse(_ text: String, option: String = "--since", now: Date = Date()) throws(UsageError) -> Date {
        if let date = date(text) { return date }
        if let seconds = duration(text) {
            guard seconds > 0 else { throw UsageError(option: "\(option) \(text)", "a duration longer than zero (such as 30d)") }
            return now.addingTimeInterval(-seconds)
        }
        throw UsageError(option: "\(option) \(text)", "not a date (2025-03-01, 2025-03-01T12:00:00Z) or a duration (30d, 12h, 1w2d, 90m)")
    }

    /// An ISO 8601 date (midnight UTC) or time.
    static func date(_ text: String) -> Date? {
        if let time = TrendTime.parse(text) { return time }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.date(from: text)
    }

    /// A duration in seconds; nil when `text` is none.
    static func duration(_ text: String) -> TimeInterval? {
        let units: [(String, TimeInterval)] = [("w", 604_800), ("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)]
        var rest = Substring(text)
        var next = 0
        var total: TimeInterval = 0
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(digits.count)
            guard !digits.isEmpty, digits.count <= 9, let unit = rest.first,
                let index = units.firstIndex(where: { $0.0 == String(unit) }), index >= next
            else { return nil }
            rest = rest.dropFirst()
            next = index + 1
            total += TimeInterval(Int(digits)!) * units[index].1
        }
        return total
    }
}
