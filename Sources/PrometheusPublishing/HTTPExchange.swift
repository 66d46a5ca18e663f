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
/// for within a time limit, its body read up to ``maximumBodyBytes`` (a
/// server that sends more, or says it will, is refused as it starts, so a
/// gigabyte answer never lands in memory). Every failure is a
/// ``PublishError`` naming the option and the address, in words.
enum HTTPExchange {
    /// How long a request may wait for the server, and in all.
    static let timeoutSeconds: Double = 30

    /// The largest answer body read: 16 MiB, far beyond what a
    /// Pushgateway answers (its group listing for thousands of groups is a
    /// few megabytes), far below what would strain a CI runner's memory.
    static let maximumBodyBytes = 16 << 20

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

    /// The answer as it arrives, cut off past the limit.
    private final class Reception: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        let limit: Int
        let lock = NSLock()
        var response: URLResponse?
        var body = Data()
        var tooLarge = false
        var error: (any Error)?
        let done = DispatchSemaphore(value: 0)

        init(limit: Int) { self.limit = limit }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            lock.lock()
            self.response = response
            let declared = response.expectedContentLength
            if declared > Int64(limit) { tooLarge = true }
            let refused = tooLarge
            lock.unlock()
            completionHandler(refused ? .cancel : .allow)
            if refused {
                dataTask.cancel()
                done.signal()
            }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            lock.lock()
            if tooLarge || body.count + data.count > limit {
                let first = !tooLarge
                tooLarge = true
                body = Data()
                lock.unlock()
                // Said at once: the rest of the answer is not waited for.
                dataTask.cancel()
                if first { done.signal() }
                return
            }
            body.append(data)
            lock.unlock()
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            lock.lock()
            self.error = error
            lock.unlock()
            done.signal()
        }
    }

    /// Sends `request` and waits for the answer (any status).
    static func send(_ request: URLRequest, to address: ServerAddress, doing what: String) throws(PublishError) -> Answer {
        try send(request, to: address, doing: what, limit: maximumBodyBytes)
    }

    /// Sends `request` and waits for the answer (any status), its body at
    /// most `limit` bytes.
    static func send(_ request: URLRequest, to address: ServerAddress, doing what: String, limit: Int) throws(PublishError) -> Answer {
        var request = request
        request.timeoutInterval = timeoutSeconds
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeoutSeconds
        configuration.timeoutIntervalForResource = timeoutSeconds * 2
        let reception = Reception(limit: limit)
        let session = URLSession(configuration: configuration, delegate: reception, delegateQueue: nil)
        // Whatever is still arriving (an answer refused for its size) is
        // dropped with its connection.
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: request)
        task.resume()
        func failure(_ reason: String) -> PublishError { PublishError(address.option, "\(address): cannot \(what): \(reason)") }
        if reception.done.wait(timeout: .now() + timeoutSeconds * 2 + 5) == .timedOut {
            task.cancel()
            throw failure("no answer within \(Int(timeoutSeconds * 2)) s")
        }
        reception.lock.lock()
        let (response, body, tooLarge, error) = (reception.response, reception.body, reception.tooLarge, reception.error)
        reception.lock.unlock()
        if tooLarge { throw failure("the answer is larger than \(limit >> 20 > 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"): not read") }
        if let error { throw failure(reason(error, answered: response != nil)) }
        guard let http = response as? HTTPURLResponse else { throw failure("no HTTP answer") }
        // A body shorter than its Content-Length: the connection closed
        // before the answer's end (the client does not always say so).
        if http.expectedContentLength >= 0, body.count < http.expectedContentLength, http.value(forHTTPHeaderField: "Content-Encoding") == nil {
            throw failure("the server closed the connection before the answer's end")
        }
        return Answer(status: http.statusCode, body: body)
    }

    /// A transfer error in words; `answered` when the server's answer had
    /// begun (a status line and headers were read).
    static func reason(_ error: any Error, answered: Bool = false) -> String {
        guard let error = error as? URLError else { return "\(error.localizedDescription)" }
        switch error.code {
        case .cannotConnectToHost: return "connection refused (is the server running there?)"
        case .cannotFindHost, .dnsLookupFailed: return "unknown host"
        case .timedOut: return "no answer within \(Int(timeoutSeconds)) s"
        case .networkConnectionLost:
            return answered ? "the server closed the connection before the answer's end" : "the server closed the connection without answering"
        case .notConnectedToInternet: return "no network"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
            .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return "TLS failed (\(error.code.rawValue))"
        // The address was checked before the request: here the client
        // refused what came back (curl's "unsupported protocol" for an
        // answer without an HTTP status line, such as an SSH banner).
        case .unsupportedURL, .badURL, .cannotParseResponse:
            return "the answer is not HTTP (is this the server's HTTP port?)"
        case .badServerResponse, .zeroByteResource:
            return answered ? "the server's answer is not valid HTTP" : "the server closed the connection without answering"
        case .cancelled: return "cancelled"
        // What curl reports for a transfer cut short (a body that ends
        // before its Content-Length says) reaches here without a code.
        case .unknown where answered: return "the connection broke off during the answer"
        // And a connection the server closed while the request was still
        // being sent (a reset: which of the two a closing server gives
        // depends on timing).
        case .unknown: return "the server closed the connection without answering"
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
