/// What a change of a trend is about: the wall time, or an exact counter
/// by its report name. In JSON, `wallSeconds` or the counter's name.
public enum TrendMeasure: Hashable, Sendable, Codable, CustomStringConvertible {
    case wallTime
    case counter(String)

    static let wallTimeName = "wallSeconds"

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        self = name == Self.wallTimeName ? .wallTime : .counter(name)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// `wallSeconds`, or the counter's name.
    public var description: String {
        switch self {
        case .wallTime: Self.wallTimeName
        case .counter(let name): name
        }
    }
}
