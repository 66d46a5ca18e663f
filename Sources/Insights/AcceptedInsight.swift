import Probes

/// One entry of an accepted list: `rule/entity/keyPath`, which accepts the
/// insight at every site, or `rule/entity/keyPath@Module/File.swift:42`,
/// which accepts it at that site only (the site as the report prints it:
/// the fetch's for an N+1, the statement's otherwise). A part the rule
/// leaves empty is left out (`save-in-loop/main`, `count-by-fetch/Person`);
/// the earlier spelling with it empty (`save-in-loop//main`) is read too.
///
/// A key path may itself hold `@` (`@count`): only a last `@` followed by a
/// file and a line number is a site.
public struct AcceptedInsight: Hashable, Sendable, CustomStringConvertible {
    /// `rule/entity/keyPath` (``Insight/subject``), without empty parts.
    public let subject: String
    /// The one site it accepts, or nil for every site.
    public let site: String?
    /// The entry as written.
    private let text: String

    /// Reads an entry; nil when it is no `rule/entity/keyPath[@File.swift:line]`.
    public init?(_ text: String) {
        var subject = Substring(text)
        var site: String?
        if let at = text.lastIndex(of: "@") {
            let tail = text[text.index(after: at)...]
            // A site: a file, a colon, a line number from 1.
            if let colon = tail.lastIndex(of: ":"), colon != tail.startIndex {
                guard CallSite.namesLine(String(tail)) else { return nil }
                site = String(tail)
                subject = text[..<at]
            } else if tail.isEmpty {
                return nil
            }
        }
        guard !subject.hasPrefix("/") else { return nil }
        let parts = subject.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts.dropFirst().contains(where: { !$0.isEmpty }) else { return nil }
        self.subject = Insight.subject(rule: String(parts[0]), entity: String(parts[1]), keyPath: parts.count > 2 ? String(parts[2]) : "")
        self.site = site
        self.text = text
    }

    /// Whether it accepts `insight`: the same subject, and the same site if
    /// it names one.
    public func accepts(_ insight: Insight) -> Bool {
        insight.subject == subject && (site == nil || site == insight.callSite)
    }

    /// The entry as written.
    public var description: String { text }

    /// What an entry looks like, for errors.
    public static let form = "rule/entity/keyPath or rule/entity/keyPath@File.swift:line"
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
