import ToolSupport

/// An imported model as `perf-run model import` writes it: what was
/// imported, changed and skipped (text, JSON), or the model and a typed
/// class for each entity as Swift source
/// (``ModelSwiftSource/render(classesOf:representedClassNames:modelName:)``).
public struct ModelImportDocument: Renderable, Sendable {
    public var modelDescription: ModelDescription
    public var imported: ImportedModel
    /// The enum the Swift source declares the model in.
    public var swiftName: SwiftModelName

    /// The document of `imported`; the Swift source's enum is `swiftName`,
    /// by default the name the model file gives (``SwiftModelName/init(modelFile:)``
    /// of the description's source).
    public init(_ description: ModelDescription, imported: ImportedModel, swiftName: SwiftModelName? = nil) {
        self.modelDescription = description
        self.imported = imported
        self.swiftName = swiftName ?? SwiftModelName(modelFile: description.source)
    }

    public var outputFormats: [OutputFormat] { imported.model == nil ? [.text, .json] : [.text, .json, .swift] }

    public func render(_ format: OutputFormat) throws(OutputError) -> String {
        switch format {
        case .text: return modelDescription.text + "\n"
        case .json: return try json(modelDescription)
        case .swift where imported.model != nil:
            return ModelSwiftSource.render(
                classesOf: imported.declarations, representedClassNames: imported.representedClassNames, modelName: swiftName,
                fetchRequests: imported.fetchRequests)
        default: throw unsupported(format)
        }
    }
}
