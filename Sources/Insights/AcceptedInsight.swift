/// One entry of an accepted list: `rule/entity/keyPath`, which accepts the
/// insight at every site, or `rule/entity/keyPath@Module/File.swift:42`,
/// which accepts it at that site only (the site as the report prints it:
/// the fetch's for an N+1, the statement's otherwise).
///
/// A key path may itself hold `@` (`@count`): only a last `@` followed by a
/// file and a line number is a site.
public struct AcceptedInsight: Hashable, Sendable, CustomStringConvertible {
    /// `rule/entity/keyPath` (``Insight/subject``).
    public let subject: String
    /// The one site it accepts, or nil for every site.
    public let site: String?

    /// Reads an entry; nil when it is no `rule/entity/keyPath[@File.swift:line]`.
    public init?(_ text: String) {
        var subject = Substring(text)
        var site: String?
        if let at = text.lastIndex(of: "@") {
            let tail = text[text.index(after: at)...]
            // A site: a file, a colon, a line number from 1.
            if let colon = tail.lastIndex(of: ":"), colon != tail.startIndex {
                let line = tail[tail.index(after: colon)...]
                guard !line.isEmpty, line.allSatisfy(\.isASCIIDigitCharacter), Int(line).map({ $0 >= 1 }) == true else { return nil }
                site = String(tail)
                subject = text[..<at]
            } else if tail.isEmpty {
                return nil
            }
        }
        guard subject.split(separator: "/", omittingEmptySubsequences: false).count >= 3, !subject.hasPrefix("/") else { return nil }
        self.subject = String(subject)
        self.site = site
    }

    /// Whether it accepts `insight`: the same subject, and the same site if
    /// it names one.
    public func accepts(_ insight: Insight) -> Bool {
        insight.subject == subject && (site == nil || site == insight.callSite)
    }

    /// The entry as written.
    public var description: String { site.map { "\(subject)@\($0)" } ?? subject }

    /// What an entry looks like, for errors.
    public static let form = "rule/entity/keyPath or rule/entity/keyPath@File.swift:line"
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
