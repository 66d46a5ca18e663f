/// A duration as Prometheus writes one (`30d`, `12h`, `1w2d`, `90m`):
/// whole numbers, each with one of y, w, d, h, m, s, ms, largest first,
/// longer than zero in all. A year is 365 days, as Prometheus counts it.
public struct PrometheusDuration: Equatable, Sendable, CustomStringConvertible {
    public let text: String
    public let seconds: Double

    private static let units: [(name: String, seconds: Double)] = [
        ("y", 365 * 86_400), ("w", 7 * 86_400), ("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1), ("ms", 0.001),
    ]

    /// Parses `text`; the error names `option` and the text.
    public init(_ text: String, option: String) throws(PublishError) {
        var rest = Substring(text)
        var next = 0
        var total = 0.0
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(digits.count)
            let unit = rest.hasPrefix("ms") ? "ms" : String(rest.prefix(1))
            guard !digits.isEmpty, digits.count <= 9, let index = Self.units.firstIndex(where: { $0.name == unit }), index >= next else {
                throw PublishError("\(option) \(text)", "not a Prometheus duration (such as 30d, 12h, 1w2d)")
            }
            rest = rest.dropFirst(unit.count)
            next = index + 1
            total += Double(Int(digits)!) * Self.units[index].seconds
        }
        guard total > 0 else { throw PublishError("\(option) \(text)", "a duration longer than zero (such as 30d)") }
        self.text = text
        seconds = total
    }

    public var description: String { text }
}
