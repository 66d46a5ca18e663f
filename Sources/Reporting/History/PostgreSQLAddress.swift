import Foundation
import ToolSupport

/// A PostgreSQL connection URL (`postgresql://user:password@host:port/db?…`),
/// and the same without its password for every message: the password, in
/// the user part or as a `password=` parameter, shows as `***`.
public struct PostgreSQLAddress: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The URL as given, password and all: for libpq only.
    public let url: String

    public init(url: String) { self.url = url }

    /// The URL without its password.
    public var description: String {
        var text = url
        if let (range, _) = userPassword { text.replaceSubrange(range, with: "***") }
        for (range, _) in parameterPasswords(in: text).reversed() { text.replaceSubrange(range, with: "***") }
        return text
    }

    public var debugDescription: String { description }

    /// `message` with every appearance of the password (as written in the
    /// URL and percent-decoded) replaced by `***`: libpq's messages quote
    /// parts of a URL it cannot read.
    func scrub(_ message: String) -> String {
        var secrets = Set<String>()
        if let (_, password) = userPassword { secrets.insert(password) }
        for (_, password) in parameterPasswords(in: url) { secrets.insert(password) }
        for secret in secrets where !secret.isEmpty {
            secrets.insert(secret.removingPercentEncoding ?? secret)
        }
        var text = message
        for secret in secrets.sorted(by: { $0.count > $1.count }) where !secret.isEmpty {
            text = text.replacingOccurrences(of: secret, with: "***")
        }
        return text
    }

    /// The password in `user:password@`, with its range in ``url``.
    /// Found as every address's credentials are (``URLCredentials``), so
    /// that a URL libpq cannot read (`postgresql://u:p/w@h/db`) keeps its
    /// password too.
    private var userPassword: (Range<String.Index>, String)? {
        guard url.contains("://"), let range = URLCredentials.range(in: url, hiding: .password) else { return nil }
        return (range, String(url[range]))
    }

    /// `password=…` parameters of the query part of `text`.
    private func parameterPasswords(in text: String) -> [(Range<String.Index>, String)] {
        guard let question = text.firstIndex(of: "?") else { return [] }
        var found: [(Range<String.Index>, String)] = []
        var start = text.index(after: question)
        while start < text.endIndex {
            let end = text[start...].firstIndex(of: "&") ?? text.endIndex
            let pair = text[start..<end]
            if let equals = pair.firstIndex(of: "="), pair[..<equals].lowercased() == "password" {
                let range = text.index(after: equals)..<end
                if !range.isEmpty { found.append((range, String(text[range]))) }
            }
            start = end < text.endIndex ? text.index(after: end) : end
        }
        return found
    }
}
