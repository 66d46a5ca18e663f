import ObjectGraph

/// An imported model as data (`perf-run model import --json`): entities
/// with their attributes and relationships, what was skipped and why, and
/// what changed on the way.
public struct ModelDescription: Codable, Equatable, Sendable {
    public struct Entity: Codable, Equatable, Sendable {
        public var name: String
        /// The entity it inherits from, if any.
        public var parent: String?
        /// true for an abstract entity (absent otherwise).
        public var abstract: Bool?
        /// The attributes and relationships it declares itself (its
        /// parent's are the parent's).
        public var attributes: [Attribute]
        public var relationships: [Relationship]
        public var uniquenessConstraints: [[String]]
    }

    public struct Attribute: Codable, Equatable, Sendable {
        public var name: String
        public var type: String
        public var optional: Bool
        /// The default value as Swift would write it, when there is one.
        public var defaultValue: String?
        public var indexed: Bool
        public var derivation: String?
    }

    public struct Relationship: Codable, Equatable, Sendable {
        public var name: String
        public var destination: String
        public var inverse: String?
        public var toMany: Bool
        public var deleteRule: String
        public var optional: Bool
    }

    /// A fetch request template that was imported.
    public struct FetchRequest: Codable, Equatable, Sendable {
        public var name: String
        public var entity: String
        /// The predicate's format string as the model writes it (nil: every object).
        public var predicate: String?
    }

    /// The model file read (the chosen version's `contents`).
    public var source: String
    /// The `.xcdatamodel` versions of a `.xcdatamodeld` (empty for one model).
    public var versions: [String]
    /// The version read, and the one `.xccurrentversion` names (nil for one model).
    public var version: String?
    public var currentVersion: String?
    public var entities: [Entity]
    /// The fetch request templates imported (the others are in `skipped`).
    public var fetchRequests: [FetchRequest] = []
    public var skipped: [ImportedModel.Skipped]
    public var notes: [String]
    public var error: String?

    /// The description of `imported`, read from the version `location` names.
    public init(_ imported: ImportedModel, location: CoreDataModelLocation) {
        self.init(imported, source: location.contents, versions: location.versions)
        version = location.version
        currentVersion = location.currentVersion
    }

    public init(_ imported: ImportedModel, source: String, versions: [String]) {
        self.source = source
        self.versions = versions
        entities = imported.declarations.map { declaration in
            var attributes: [Attribute] = []
            var relationships: [Relationship] = []
            for property in declaration.properties {
                switch property {
                case .attribute(let a):
                    attributes.append(Attribute(
                        name: a.name, type: a.type.rawValue, optional: a.isOptional,
                        defaultValue: a.defaultValue.isNull ? nil : ModelSwiftSource.literal(a.defaultValue), indexed: a.isIndexed,
                        derivation: a.derivation?.description))
                case .relationship(let r):
                    relationships.append(Relationship(
                        name: r.name, destination: r.destinationName, inverse: r.inverseName, toMany: r.isToMany,
                        deleteRule: r.deleteRule.rawValue, optional: r.isOptional))
                }
            }
            return Entity(name: declaration.name, parent: declaration.parent, abstract: declaration.isAbstract ? true : nil,
                          attributes: attributes, relationships: relationships, uniquenessConstraints: declaration.uniquenessConstraints)
        }
        fetchRequests = imported.fetchRequests.map { FetchRequest(name: $0.name, entity: $0.entity, predicate: $0.predicateFormat) }
        skipped = imported.skipped
        notes = imported.notes
        error = imported.error
    }

    /// A few lines for a terminal: what was imported, changed and skipped.
    public var text: String {
        let attributes = entities.reduce(0) { $0 + $1.attributes.count }
        let relationships = entities.reduce(0) { $0 + $1.relationships.count }
        var which = ""
        if versions.count > 1 {
            if let version, currentVersion == nil {
                which = " (version \((versions.firstIndex(of: version) ?? 0) + 1) of \(versions.count); .xccurrentversion names no current one)"
            } else if let version, let currentVersion, version != currentVersion {
                which = " (version \((versions.firstIndex(of: version) ?? 0) + 1) of \(versions.count); the current one is \(currentVersion.replacingOccurrences(of: ".xcdatamodel", with: "")))"
            } else {
                which = " (current of \(versions.count) versions)"
            }
        }
        let abstract = entities.count { $0.abstract == true }
        let subentities = entities.count { $0.parent != nil }
        let inheritance = subentities == 0 && abstract == 0 ? "" : " (\(subentities) inheriting, \(abstract) abstract)"
        var lines = [
            "model:     \(source)\(which)",
            "imported:  \(entities.count) entities\(inheritance), \(attributes) attributes, \(relationships) relationships",
        ]
        if let error { lines.append("error:     \(error)") }
        if !fetchRequests.isEmpty {
            lines.append("fetch requests:")
            lines += fetchRequests.map { "  \($0.name): \($0.entity)\($0.predicate.map { " where \($0)" } ?? "")" }
        }
        if !notes.isEmpty {
            lines.append("changed:")
            lines += notes.map { "  \($0)" }
        }
        if !skipped.isEmpty {
            lines.append("skipped:")
            lines += skipped.map { "  \($0.element): \($0.reason)\($0.line.map { " (line \($0))" } ?? "")" }
        }
        return lines.joined(separator: "\n")
    }
}
