import Foundation
import ToolSupport

/// Known findings: an accepted-insights file lists insight identities
/// (`rule/entity/keyPath`), one per line; `#` starts a comment. Accepted
/// insights are marked in reports, and comparisons fail only on new ones.
public struct AcceptedInsights: Sendable, Equatable {
    public let identities: Set<String>

    public init(identities: Set<String>) { self.identities = identities }

    /// Reads a file (any readable file, ``InputFile``: a pipe too): an
    /// insights file's accepted list (``InsightSettings``), or a list of
    /// identities; an error names the file and the line or key path.
    public init(contentsOf path: String) throws {
        self.init(identities: try InsightSettings(contentsOf: path).accepted)
    }

    /// Reads the lines of an accepted-insights list; errors name `path` and the line.
    init(text: String, path: String) throws(ReportError) {
        var identities = Set<String>()
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first?
                .trimmingCharacters(in: .whitespaces) ?? ""
            guard !line.isEmpty else { continue }
            guard line.split(separator: "/", omittingEmptySubsequences: false).count >= 3 else {
                throw ReportError("\(path):\(number + 1): expected rule/entity/keyPath, got \"\(line)\"")
            }
            identities.insert(line)
        }
        self.identities = identities
    }

    /// The insights with `accepted` set.
    public func mark(_ insights: [Insight]) -> [Insight] {
        insights.map { insight in
            var marked = insight
            marked.accepted = identities.contains(insight.identity)
            return marked
        }
    }
}
