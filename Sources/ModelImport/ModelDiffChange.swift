extension ModelDiff {
    /// Whether an element is in the second model only, the first only, or
    /// in both with different aspects.
    public enum Kind: String, Codable, CaseIterable, Sendable {
        case added
        case removed
        case changed

        /// The mark the text output starts its line with: `+`, `-`, `~`.
        public var mark: String {
            switch self {
            case .added: "+"
            case .removed: "-"
            case .changed: "~"
            }
        }
    }

    /// What a change is about.
    public enum Element: String, Codable, CaseIterable, Sendable {
        case entity
        case attribute
        case relationship
    }

    /// One difference between the two models.
    public struct Change: Codable, Equatable, Sendable {
        public var kind: Kind
        public var element: Element
        public var entity: String
        /// The attribute's or relationship's name; nil for an entity.
        public var property: String?
        /// For a changed element, each aspect that differs, in a fixed order.
        public var aspects: [AspectChange]
        /// For an added or removed element, what it is (`Integer 16,
        /// optional`, `to-many Tag, inverse posts, Cascade`).
        public var summary: String?

        public init(
            _ kind: Kind, _ element: Element, entity: String, property: String? = nil, aspects: [AspectChange] = [],
            summary: String? = nil
        ) {
            self.kind = kind
            self.element = element
            self.entity = entity
            self.property = property
            self.aspects = aspects
            self.summary = summary
        }

        /// `Post` or `Post.title`.
        public var name: String { property.map { "\(entity).\($0)" } ?? entity }

        /// One line: `+ attribute Post.summary (String, optional)`,
        /// `~ relationship Post.tags: to-many NO → YES`.
        public var text: String {
            var line = "\(kind.mark) \(element.rawValue) \(name)"
            switch kind {
            case .added, .removed: if let summary { line += " (\(summary))" }
            case .changed: line += ": " + aspects.map(\.text).joined(separator: "; ")
            }
            return line
        }
    }
}
