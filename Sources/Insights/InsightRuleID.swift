/// The identity of an insight rule: typed in code (`.nPlusOne`), its raw
/// value the name in reports, accepted-insights lists and thresholds
/// (`n-plus-one`).
///
/// A struct with a constant per rule rather than an enum, so that a rule's
/// file declares its own identity beside the rule (``InsightRule``): adding
/// a rule is one file. The names reports have always used are kept.
public struct InsightRuleID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    public static func < (lhs: InsightRuleID, rhs: InsightRuleID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Fault storms (many faults of one entity after relationship faults),
    /// in reports before schema version 3: the ``nPlusOne`` rule finds
    /// them now, by pattern.
    public static let faultStorm = InsightRuleID("fault-storm")
}
