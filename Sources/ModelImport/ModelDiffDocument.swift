import ToolSupport

/// A model diff as `perf-run model diff` writes it: the two model files
/// compared and the changes, as text (one line per change, `+`, `-`, `~`)
/// or JSON.
public struct ModelDiffDocument: Renderable, Sendable {
    /// One side of the comparison: the path given, the `contents` file
    /// read, and the version read of a `.xcdatamodeld`.
    public struct Side: Codable, Equatable, Sendable {
        public var path: String
        public var contents: String
        public var version: String?

        /// The side read from `location`.
        public init(_ location: CoreDataModelLocation) {
            path = location.path
            contents = location.contents
            version = location.versionName
        }

        /// `Model.xcdatamodeld, version Model 2 (…/contents)`.
        var text: String {
            var line = path
            if let version { line += ", version \(version)" }
            if contents != path { line += " (\(contents))" }
            return line
        }
    }

    /// What the JSON output holds.
    struct Body: Codable {
        var a: Side
        var b: Side
        var identical: Bool
        var added: Int
        var removed: Int
        var changed: Int
        var changes: [ModelDiff.Change]
    }

    public var a: Side
    public var b: Side
    public var diff: ModelDiff

    /// The document of `diff`, the differences from `a` to `b`.
    public init(a: CoreDataModelLocation, b: CoreDataModelLocation, diff: ModelDiff) {
        self.a = Side(a)
        self.b = Side(b)
        self.diff = diff
    }

    public var outputFormats: [OutputFormat] { [.text, .json] }

    public func render(_ format: OutputFormat) throws(OutputError) -> String {
        switch format {
        case .text: return text
        case .json:
            return try json(Body(
                a: a, b: b, identical: diff.isIdentical, added: diff.count(.added), removed: diff.count(.removed),
                changed: diff.count(.changed), changes: diff.changes))
        default: throw unsupported(format)
        }
    }

    /// The two sides, a line per change, and the counts.
    public var text: String {
        var lines = ["a: \(a.text)", "b: \(b.text)"]
        lines += diff.changes.map(\.text)
        if diff.isIdentical {
            lines.append("no differences: the models declare the same entities, attributes and relationships")
        } else {
            lines.append("\(diff.count(.added)) added, \(diff.count(.removed)) removed, \(diff.count(.changed)) changed")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
