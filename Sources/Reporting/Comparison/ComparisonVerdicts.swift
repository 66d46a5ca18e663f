/// What a comparison says of one counter; raw values are the names in the
/// comparison's JSON.
public enum CounterVerdict: String, Codable, Sendable, Hashable {
    case same
    /// A cost counter went up (or, with `--exact-counters`, any counter changed).
    case regression
    /// A cost counter went down.
    case improvement
    /// A counter whose change is neither a cost nor a benefit by itself
    /// (``Probes/CounterName/Direction/neutral``) changed: reported, not judged.
    case changed
    /// An increase the thresholds file allows, or a missing counter with `--allow-missing`.
    case allowed
    /// Depends on timing or memory management: shown, never gating.
    case advisory
    /// In base, not in head: a regression.
    case missing

    /// Whether the verdict makes the scenario a regression.
    public var isRegression: Bool { self == .regression || self == .missing }
}

/// What a comparison says of a timing; raw values are the names in JSON.
public enum TimingVerdict: String, Codable, Sendable, Hashable {
    case slower, faster, unchanged, inconclusive
    case notComparable = "not comparable"
    /// The machines differed (``MachineComparison``) by as much as the
    /// timing did: not judged.
    case withheld
}

/// A scenario's comparison in one word, as the headline counts them.
public enum ScenarioOutcome: String, Codable, Sendable, Hashable, CaseIterable, Comparable {
    /// It makes the comparison fail.
    case regression
    /// Something improved (a cost counter fell, a timing got faster) and nothing regressed.
    case improvement
    case unchanged
    /// Neither counters nor timing could be judged (only in one report, another scale).
    case notComparable = "not comparable"

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// How a scenario of head stands against base. Encoded as before this was
/// typed: `compared`, `only in base`, `only in head`, or `head failed: …` /
/// `head skipped: …` with head's reason.
public enum ComparisonStatus: Codable, Sendable, Hashable, CustomStringConvertible {
    case compared
    case onlyInBase
    case onlyInHead
    case headFailed(String)
    case headSkipped(String)

    public var description: String {
        switch self {
        case .compared: "compared"
        case .onlyInBase: "only in base"
        case .onlyInHead: "only in head"
        case .headFailed(let reason): "head failed: \(reason)"
        case .headSkipped(let reason): "head skipped: \(reason)"
        }
    }

    /// Whether head lacks the scenario (missing, or skipped where base ran it).
    public var isMissingInHead: Bool {
        switch self {
        case .onlyInBase, .headSkipped: true
        default: false
        }
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        switch text {
        case "compared": self = .compared
        case "only in base": self = .onlyInBase
        case "only in head": self = .onlyInHead
        default:
            if text.hasPrefix("head failed: ") {
                self = .headFailed(String(text.dropFirst("head failed: ".count)))
            } else if text.hasPrefix("head skipped: ") {
                self = .headSkipped(String(text.dropFirst("head skipped: ".count)))
            } else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown comparison status \(text)"))
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
