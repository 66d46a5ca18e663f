import ToolSupport

extension PredicateExplanation: Renderable {
    public var outputFormats: [OutputFormat] { [.text, .json] }

    public func render(_ format: OutputFormat) throws(OutputError) -> String {
        switch format {
        case .text: return text + "\n"
        case .json: return try json(self)
        default: throw unsupported(format)
        }
    }
}
