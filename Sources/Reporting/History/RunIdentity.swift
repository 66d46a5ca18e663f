/// What tells one run from every other: kept with the run, so that adding
/// a run twice keeps it once.
public struct RunIdentity: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}
