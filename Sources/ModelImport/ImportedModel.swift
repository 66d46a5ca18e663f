import ObjectGraph

/// A Core Data model as Faultline could take it: the model (nil when even
/// its remains do not make one), the declarations, what was skipped and
/// why, and what changed on the way.
public struct ImportedModel: Sendable {
    public var model: Model?
    public var declarations: [Entity]
    public var skipped: [Skipped]
    public var notes: [String]
    /// Why no model could be made, when none was.
    public var error: String?
    /// Each declared entity's `representedClassName` as the file writes it,
    /// by entity name (entities without one are absent): what
    /// ``ModelSwiftSource/render(classesOf:representedClassNames:modelName:)``
    /// names their classes after.
    public var representedClassNames: [String: String] = [:]
    /// The model's fetch request templates that were imported (the others
    /// are in ``skipped``), in the file's order: Faultline's ``Model``
    /// holds none, so they are kept here.
    public var fetchRequests: [ImportedFetchRequest] = []

    /// Something of the Core Data model that Faultline does not take.
    public struct Skipped: Codable, Equatable, Sendable {
        /// `Entity.property`, `Entity`, `configuration Name`, …
        public var element: String
        public var reason: String
        /// The line of the element in the model's XML, when known.
        public var line: Int?

        public init(element: String, reason: String, line: Int? = nil) {
            self.element = element
            self.reason = reason
            self.line = line
        }
    }
}
