import Foundation

/// A time in a trend's JSON: ISO 8601 in UTC, to the millisecond
/// (`2025-03-01T12:00:00.000Z`), as people and other tools read it.
struct TrendTime: Codable, Equatable, Sendable {
    var date: Date

    init(_ date: Date) { self.date = date }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = Self.parse(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 time: \(text)")
        }
        self.date = date
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Self.text(date, fraction: true))
    }

    /// `date` in UTC: to the second, or to the millisecond with `fraction`.
    static func text(_ date: Date, fraction: Bool = false) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        if fraction { formatter.formatOptions.insert(.withFractionalSeconds) }
        return formatter.string(from: date)
    }

    /// An ISO 8601 time with or without fractional seconds.
    static func parse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions.insert(.withFractionalSeconds)
        return formatter.date(from: text)
    }
}
