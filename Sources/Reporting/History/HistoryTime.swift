import Foundation

/// The one text form of a time in the history and in a report's
/// ``Report/RunStamp``: ISO 8601 in UTC to the microsecond,
/// `2025-06-01T12:00:00.123456Z`. Fixed width, so that text order is time
/// order (the SQLite store sorts by it); PostgreSQL reads it as a
/// `timestamptz`, which keeps microseconds too.
public enum HistoryTime {
    /// `date` to the nearest microsecond, as text.
    public static func text(_ date: Date) -> String {
        let microseconds = (date.timeIntervalSince1970 * 1_000_000).rounded()
        let total = Int64(microseconds)
        var seconds = total / 1_000_000
        var fraction = total % 1_000_000
        if fraction < 0 {
            fraction += 1_000_000
            seconds -= 1
        }
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(fraction))
    }

    /// The time `text` gives (`2025-06-01T12:00:00Z`, with up to nine
    /// digits of a second's fraction, kept to the microsecond), or nil.
    public static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func byte(_ index: Int, is character: Character) -> Bool { index < bytes.count && bytes[index] == character.asciiValue }
        guard bytes.count >= 20, let year = number(0..<4), byte(4, is: "-"), let month = number(5..<7), byte(7, is: "-"),
            let day = number(8..<10), byte(10, is: "T"), let hour = number(11..<13), byte(13, is: ":"), let minute = number(14..<16),
            byte(16, is: ":"), let second = number(17..<19), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            second < 60
        else { return nil }
        var index = 19
        var microseconds = 0
        if byte(index, is: ".") {
            index += 1
            var digits = 0
            while index < bytes.count, let digit = number(index..<(index + 1)) {
                if digits < 6 { microseconds = microseconds * 10 + digit }
                digits += 1
                index += 1
            }
            guard (1...9).contains(digits) else { return nil }
            if digits < 6 { for _ in digits..<6 { microseconds *= 10 } }
        }
        guard byte(index, is: "Z"), index == bytes.count - 1 else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = Int64(timegm(&parts))
        // A day past the month's end (February 30) comes back as another date.
        var back = time_t(seconds)
        var check = tm()
        gmtime_r(&back, &check)
        guard Int(check.tm_mday) == day, Int(check.tm_mon) == month - 1 else { return nil }
        return Date(timeIntervalSince1970: Double(seconds * 1_000_000 + Int64(microseconds)) / 1_000_000)
    }

    /// `date` as the history keeps it: to the microsecond.
    public static func truncated(_ date: Date) -> Date {
        Self.date(text(date)) ?? date
    }
}
