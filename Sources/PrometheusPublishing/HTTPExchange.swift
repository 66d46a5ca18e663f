import Dispatch
import Foundation
import ToolSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A server's address as an option gives it (`--pushgateway`,
/// `--prometheus`): http or https, a host, an optional path prefix (a
/// server behind a proxy). Credentials in it (`https://user:pass@host`) are
/// sent, and never printed.
public struct ServerAddress: Equatable, Sendable, CustomStringConvertible {
    public let url: URL
    /// The option that gave it, for messages.
    public let option: String

    public init(_ argument: String, option: String) throws(PublishError) {
        self.option = option
        guard let components = URLComponents(string: argument), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty, let url = components.url
        else {
            throw PublishError(option, "\(Self.redacted(argument)) is not an http:// or https:// address with a host")
        }
        guard components.query == nil, components.fragment == nil else {
            throw PublishError(option, "\(Self.redacted(argument)): an address without ?query or #fragment")
        }
        self.url = url
    }

    /// The address without credentials, for messages.
    public var description: String { Self.redacted(url.absoluteString) }

    /// A command-line argument without the credentials of an address in
    /// it (`http://user:pass@host`, `--pushgateway=http://user:pass@host`,
    /// and an address no URL reader accepts, such as `http://u:p@[::1`):
    /// what a report records of its command line. Only an argument with a
    /// `scheme://` counts as an address here (a path may hold an `@`);
    /// ``redactingCredentials(in:options:)`` also takes the values of
    /// options that name addresses, scheme or not.
    public static func redactingCredentials(_ argument: String) -> String {
        let value = argument.hasPrefix("--") ? argument.split(separator: "=", maxSplits: 1).dropFirst().first.map(String.init) ?? "" : argument
        guard value.contains("://") else { return argument }
        return URLCredentials.redactingArgument(argument)
    }

    /// A command line without the credentials of any address in it: each
    /// argument as ``redactingCredentials(_:)`` has it, and the value of
    /// each of `options` (`--pushgateway URL`, `--pushgateway=URL`) as an
    /// address whatever its form (`user:pass@host:9091`, without a scheme).
    public static func redactingCredentials(in arguments: [String], options: Set<String>) -> [String] {
        var redacted: [String] = []
        var valueFollows = false
        for argument in arguments {
            if valueFollows {
                redacted.append(URLCredentials.redacted(argument))
                valueFollows = false
                continue
            }
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--"), options.contains(String(argument[..<equals])) {
                redacted.append(URLCredentials.redactingArgument(argument))
                continue
            }
            valueFollows = options.contains(argument)
            redacted.append(redactingCredentials(argument))
        }
        return redacted
    }

    /// `text`, an address as given or as read, without its credentials,
    /// whether it parses or not.
    static func redacted(_ text: String) -> String { URLCredentials.redacted(text) }

    /// The address with `path` (already percent-encoded) after its own path.
    func appending(encodedPath path: String) -> URL {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        var base = components.percentEncodedPath
        while base.hasSuffix("/") { base.removeLast() }
        components.percentEncodedPath = base + path
        return components.url!
    }
}

/// One HTTP request and its answer, through Foundation's URLSession, waited
/// for within a time limit. Every failure is a ``PublishError`` naming the
/// option and the address.
enum HTTPExchange {
    /// How long a request may wait for the server, and in all.
    static let timeoutSeconds: Double = 30

    struct Answer {
        let status: Int
        let body: Data

        /// The body's first line, cut, for a message.
        var firstLine: String {
            let text = String(decoding: body.prefix(2_000), as: UTF8.self)
            let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.count > 300 ? String(trimmed.prefix(300)) + "…" : trimmed
        }
    }

    private final class Outcome: @unchecked Sendable {
        let lock = NSLock()
        var answer: (Data?, URLResponse?, (any Error)?)?
        let done = DispatchSemaphore(value: 0)
    }

    /// Sends `request` and waits for the answer (any status).
    static func send(_ request: URLRequest, to address: ServerAddress, doing what: String) throws(PublishError) -> Answer {
        var request = request
        request.timeoutInterval = timeoutSeconds
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeoutSeconds
        configuration.timeoutIntervalForResource = timeoutSeconds * 2
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let outcome = Outcome()
        let task = session.dataTask(with: request) { data, response, error in
            outcome.lock.lock()
            outcome.answer = (data, response, error)
            outcome.lock.unlock()
            outcome.done.signal()
        }
        task.resume()
        if outcome.done.wait(timeout: .now() + timeoutSeconds * 2 + 5) == .timedOut {
            task.cancel()
            throw PublishError(address.option, "\(address): cannot \(what): no answer within \(Int(timeoutSeconds * 2)) s")
        }
        outcome.lock.lock()
        let (data, response, error) = outcome.answer ?? (nil, nil, nil)
        outcome.lock.unlock()
        if let error {
            throw PublishError(address.option, "\(address): cannot \(what): \(reason(error))")
        }
        guard let http = response as? HTTPURLResponse else {
            throw PublishError(address.option, "\(address): cannot \(what): no HTTP answer")
        }
        return Answer(status: http.statusCode, body: data ?? Data())
    }

    /// A transfer error in words.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? URLError else { return "\(error.localizedDescription)" }
        switch error.code {
        case .cannotConnectToHost: return "connection refused (is the server running there?)"
        case .cannotFindHost, .dnsLookupFailed: return "unknown host"
        case .timedOut: return "no answer within \(Int(timeoutSeconds)) s"
        case .networkConnectionLost: return "the connection was lost"
        case .notConnectedToInternet: return "no network"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
            .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return "TLS failed (\(error.code.rawValue))"
        case .unsupportedURL, .badURL: return "not an address this client can use"
        default: return "transfer failed (URLError \(error.code.rawValue))"
        }
    }

    /// `text` percent-encoded for a form body or a path segment: every
    /// byte but letters, digits and `-._~`.
    static func percentEncoded(_ text: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
