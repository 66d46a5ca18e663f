import Foundation
import ToolSupport

/// The scenarios a command runs, as `perf-run list` shows them: each with
/// its data set and what it demonstrates.
public struct ScenarioList: Renderable, Sendable {
    public struct Entry: Codable, Equatable, Sendable {
        public var name: String
        public var dataSet: String
        public var description: String
    }

    public var entries: [Entry]

    public init(_ scenarios: [Scenario]) {
        entries = scenarios.map { Entry(name: $0.name, dataSet: $0.dataSet.name, description: $0.summary) }
    }

    public var outputFormats: [OutputFormat] { [.text, .json] }

    public func render(_ format: OutputFormat) throws(OutputError) -> String {
        switch format {
        case .text: return entries.map { "\($0.name) (\($0.dataSet))\n    \($0.description)\n\n" }.joined()
        case .json: return try json(entries)
        default: throw unsupported(format)
        }
    }
}
