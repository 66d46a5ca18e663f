import Foundation
import ToolSupport

/// Known findings: an accepted-insights file lists insights
/// (``AcceptedInsight``: `rule/entity/keyPath` for every site,
/// `rule/entity/keyPath@File.swift:42` for one), one per line; `#` starts a
/// comment. Accepted insights are marked in reports, and comparisons fail
/// only on new ones. An entry that matches no insight is said
/// (``unmatched(by:)``), never ignored in silence.
public struct AcceptedInsights: Sendable, Equatable {
    /// The entries as written.
    public let identities: Set<String>
    /// The entries read (an entry that is no ``AcceptedInsight`` matches
    /// nothing).
    public let entries: [AcceptedInsight]

    public init(identities: Set<String>) {
        self.identities = identities
        entries = identities.sorted().compactMap(AcceptedInsight.init)
    }

    /// Whether some entry accepts `insight`.
    public func accepts(_ insight: Insight) -> Bool {
        entries.contains { $0.accepts(insight) }
    }

    /// The entries as written that accept none of `insights`, in order:
    /// a malformed one given in code (a file's is refused when read) too.
    public func unmatched(by insights: [Insight]) -> [String] {
        identities.sorted().filter { identity in
            guard let entry = AcceptedInsight(identity) else { return true }
            return !insights.contains { entry.accepts($0) }
        }
    }

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
            guard AcceptedInsight(line) != nil else {
                throw ReportError("\(path):\(number + 1): expected \(AcceptedInsight.form), got \"\(line)\"")
            }
            identities.insert(line)
        }
        self.init(identities: identities)
    }

    /// The insights with `accepted` set.
    public func mark(_ insights: [Insight]) -> [Insight] {
        insights.map { insight in
            var marked = insight
            marked.accepted = accepts(insight)
            return marked
        }
    }
}
