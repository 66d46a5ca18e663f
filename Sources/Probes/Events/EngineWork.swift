/// Why the engine loaded something for its own bookkeeping rather than
/// because the application read it: a fault, a relationship fault or a
/// statement the engine ran to keep both sides of a relationship in step,
/// or to apply a delete rule.
///
/// Such loads are real work (every counter counts them), but they are no
/// reads of the application's: the insight rules never take them for lazy
/// loads (an N+1, a to-many loaded for its count) or for a repeated
/// statement. The events say so (``FaultEvent/engineWork``,
/// ``RelationshipFaultEvent/engineWork``), and so does their statements'
/// purpose, which starts with ``purposePrefix`` (`engine inverse
/// Category.recipes`), in every sink: a SQL debug log read back keeps them
/// apart as a run does.
///
/// What the application changes or deletes is loaded as its own read (a
/// fault of the object it sets a value on, as reading it would fire);
/// everything else a change loads is the engine's. Validation reads only
/// what is loaded and loads nothing.
public enum EngineWork: String, Sendable, Codable, CaseIterable {
    /// Keeping both sides of a relationship in step when the application
    /// sets or changes one side (`recipe.category = c` loads `c.recipes`
    /// to add the recipe to it, and the old category's to remove it).
    case inverse
    /// Applying a relationship's delete rule when the application deletes
    /// an object (nullify, cascade, deny: its destinations are loaded).
    case deleteRule = "delete rule"

    /// What every purpose of the engine's own statements starts with.
    public static let purposePrefix = "engine "

    /// The purpose of a statement run for this work, on `subject` (a
    /// relationship, `Category.recipes`, or an entity whose row is read,
    /// `Category`): `engine inverse Category.recipes`.
    public func purpose(_ subject: String) -> String {
        "\(Self.purposePrefix)\(rawValue) \(subject)"
    }

    /// The work a statement's purpose names; nil for any other purpose (an
    /// application's read, a save, a transaction).
    public init?(purpose: String) {
        guard Self.isEngineWork(purpose: purpose) else { return nil }
        let rest = purpose.utf8.dropFirst(Self.purposePrefix.utf8.count)
        guard let work = Self.allCases.first(where: { rest.starts(with: $0.rawValue.utf8) }) else { return nil }
        self = work
    }

    /// Whether a statement's purpose is the engine's own work: its first
    /// bytes, compared without making a string.
    @inline(__always)
    public static func isEngineWork(purpose: String) -> Bool {
        purpose.utf8.starts(with: purposePrefix.utf8)
    }
}

extension SQLEvent {
    /// Whether the engine ran it for its own bookkeeping (``EngineWork``),
    /// as its purpose says: no read of the application's.
    public var isEngineWork: Bool { EngineWork.isEngineWork(purpose: purpose) }
}
