/// Where a value is in a JSON document, as errors name it:
/// `scenarios[0].counters.sqlStatements`.
public struct JSONKeyPath: Sendable, Equatable {
    /// One step down: an object's key or an array's index.
    public enum Step: Sendable, Equatable {
        case key(String)
        case index(Int)
    }

    public var steps: [Step]

    public init(_ steps: [Step] = []) { self.steps = steps }

    /// A decoder's coding path: an integer key is an index.
    public init(codingPath: [any CodingKey]) {
        self.init(codingPath.map { key in key.intValue.map(Step.index) ?? .key(key.stringValue) })
    }

    /// `scenarios[0].counters.sqlStatements` (empty at the top).
    public var text: String {
        var text = ""
        for step in steps {
            switch step {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}
