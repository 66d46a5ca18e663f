/// What a change of a trend is about: the time its trend follows (CPU or
/// wall, ``Trend/timing``), or an exact counter by its report name. In
/// JSON, `cpuSeconds`, `wallSeconds` or the counter's name.
public enum TrendMeasure: Hashable, Sendable, Codable, CustomStringConvertible {
    case time(TimingMeasure)
    case counter(String)

    /// The JSON name of a time: `cpuSeconds`, `wallSeconds`.
    static func name(_ timing: TimingMeasure) -> String { "\(timing.rawValue)Seconds" }

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        self = TimingMeasure.allCases.first { Self.name($0) == name }.map(Self.time) ?? .counter(name)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// `cpuSeconds`, `wallSeconds`, or the counter's name.
    public var description: String {
        switch self {
        case .time(let timing): Self.name(timing)
        case .counter(let name): name
        }
    }

    /// Whether it is a time (of either measure).
    public var isTime: Bool {
        if case .time = self { return true }
        return false
    }
}
