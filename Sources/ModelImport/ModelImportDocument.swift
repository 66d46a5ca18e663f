import Reporting

/// An imported model as `perf-run model import` writes it: what was
/// imported, changed and skipped (text, JSON), or the model as Swift source
/// for a scenario package.
public struct ModelImportDocument: Renderable, Sendable {
    public var modelDescription: ModelDescription
    public var imported: ImportedModel

    public init(_ description: ModelDescription, imported: ImportedModel) {
        self.modelDescription = description
        self.imported = imported
    }

    public var outputFormats: [OutputFormat] { imported.model == nil ? [.text, .json] : [.text, .json, .swift] }

    public func render(_ format: OutputFormat) throws(OutputError) -> String {
        switch format {
        case .text: return modelDescription.text + "\n"
        case .json: return try json(modelDescription)
        case .swift where imported.model != nil: return ModelSwiftSource.render(imported.declarations)
        default: throw unsupported(format)
        }
    }
}
