import ObjectGraph

/// A fetch request template of a Core Data model (`<fetchRequest>`) as
/// the import takes it: its name, the entity it fetches and its predicate,
/// parsed by the engine's predicate parser (`$NAME` variables are left to
/// fill when the request is made, with ``ObjectGraph/ObjectPredicate/substituting(_:)``).
///
/// Faultline's ``ObjectGraph/Model`` holds no fetch requests: the import
/// keeps them beside it (``ImportedModel/fetchRequests``), and the Swift
/// source declares them in the model's enum.
public struct ImportedFetchRequest: Sendable, Equatable {
    /// The template's name.
    public var name: String
    /// The entity it fetches (an imported one).
    public var entity: String
    /// The predicate's format string as the model writes it; nil for none
    /// (every object of the entity).
    public var predicateFormat: String?
    /// The predicate, parsed; nil when there is none.
    public var predicate: ObjectPredicate?
    /// The line of the `<fetchRequest>` in the model's XML.
    public var line: Int

    public init(name: String, entity: String, predicateFormat: String?, predicate: ObjectPredicate?, line: Int) {
        self.name = name
        self.entity = entity
        self.predicateFormat = predicateFormat
        self.predicate = predicate
        self.line = line
    }
}

extension CoreDataModelImport {
    /// The model's fetch request templates whose entity was imported and
    /// whose predicate parses; each other one added to `skipped` with the
    /// reason (an entity that is not imported, a predicate the parser
    /// refuses, a name given twice).
    static func fetchRequests(
        of xml: CoreDataModelXML, entities: Set<String>, skipped: inout [ImportedModel.Skipped]
    ) -> [ImportedFetchRequest] {
        var imported: [ImportedFetchRequest] = []
        var names: Set<String> = []
        for template in xml.fetchRequests {
            let element = "fetch request \(template.name)"
            guard names.insert(template.name).inserted else {
                skipped.append(.init(element: element, reason: "a second fetch request of that name", line: template.line))
                continue
            }
            guard entities.contains(template.entity) else {
                let reason = template.entity.isEmpty
                    ? "names no entity" : "its entity \(template.entity) is not imported"
                skipped.append(.init(element: element, reason: reason, line: template.line))
                continue
            }
            var predicate: ObjectPredicate?
            if let format = template.predicate {
                do {
                    predicate = try ObjectPredicate(format: format, arguments: [])
                } catch {
                    skipped.append(.init(
                        element: element, reason: "its predicate does not parse: \(error.description)", line: template.line))
                    continue
                }
            }
            imported.append(ImportedFetchRequest(
                name: template.name, entity: template.entity, predicateFormat: template.predicate, predicate: predicate,
                line: template.line))
        }
        return imported
    }
}
