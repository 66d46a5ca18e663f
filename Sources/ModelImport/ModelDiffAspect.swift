extension ModelDiff {
    /// What can change in an entity, attribute or relationship that keeps
    /// its name.
    public enum Aspect: String, Codable, CaseIterable, Sendable {
        // Entities.
        case parentEntity
        case abstract
        // Attributes.
        case type
        case defaultValue = "default"
        case derivation
        // Attributes and relationships.
        case optional
        case transient
        // Relationships.
        case destination
        case inverse
        case toMany
        case ordered
        case deleteRule

        /// The aspect in words, as the text output writes it.
        public var words: String {
            switch self {
            case .parentEntity: "parent entity"
            case .abstract: "abstract"
            case .type: "type"
            case .defaultValue: "default"
            case .derivation: "derivation"
            case .optional: "optional"
            case .transient: "transient"
            case .destination: "destination"
            case .inverse: "inverse"
            case .toMany: "to-many"
            case .ordered: "ordered"
            case .deleteRule: "delete rule"
            }
        }
    }

    /// One aspect's value in each model, as the model file writes it
    /// (`Integer 16`, `YES`, `Cascade`); nil where the file writes none (no
    /// parent, no default, no inverse).
    public struct AspectChange: Codable, Equatable, Sendable {
        public var aspect: Aspect
        public var old: String?
        public var new: String?

        public init(_ aspect: Aspect, old: String?, new: String?) {
            self.aspect = aspect
            self.old = old
            self.new = new
        }

        /// `optional NO → YES`, `parent entity (none) → Item`.
        public var text: String { "\(aspect.words) \(old ?? "(none)") → \(new ?? "(none)")" }
    }
}
