import Foundation
import ToolSupport

/// The `lttng-relayd` that `perf-run run --lttng --lttng-relay` records
/// into: LTTng's own way to gather the traces of many machines in one place.
///
/// The session daemon sends the trace to the relay's control and data
/// ports, the `net://HOST[:CTRL[:DATA]]` URL of `lttng create
/// --set-url` (ports 5342 and 5343 when left out); the run reads it back
/// from the relay's live port (5344 unless given) with babeltrace2's
/// `lttng-live` input, which works from any machine that reaches the relay.
/// IPv4 addresses and host names only: babeltrace2's `lttng-live` URLs
/// have no IPv6 form, and a URL's trace path (`net://HOST/PATH`) is
/// refused: the relay decides where its traces go (`lttng-relayd
/// --output`).
public struct LTTngRelay: Equatable, Sendable {
    public let host: String
    public let controlPort: Int
    public let dataPort: Int
    /// Where babeltrace2 reads live sessions (`lttng-relayd --live-port`).
    public let livePort: Int

    public static let defaultControlPort = 5342
    public static let defaultDataPort = 5343
    public static let defaultLivePort = 5344

    /// A URL that does not name a relay, in one line.
    public struct InvalidURL: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Parses `net://HOST[:CTRL[:DATA]]`; `livePort` nil for the default.
    public init(url: String, livePort: Int? = nil) throws(InvalidURL) {
        // Named without credentials, as every address is (a relay's URL has
        // none: one there is refused before any part of it is quoted).
        func invalid(_ reason: String) -> InvalidURL { InvalidURL(description: "\(URLCredentials.redacted(url)) is not a relay's URL: \(reason)") }
        if URLCredentials.range(in: url, hiding: .userAndPassword) != nil {
            throw invalid("a relay takes no user or password; expected net://HOST[:CTRL[:DATA]]")
        }
        guard url.hasPrefix("net://") else {
            throw invalid(url.hasPrefix("net6://") ? "babeltrace2 reads live traces over IPv4 only: use net://" : "expected net://HOST[:CTRL[:DATA]]")
        }
        let rest = url.dropFirst("net://".count)
        guard !rest.contains("/") else { throw invalid("a trace path is the relay's to choose (lttng-relayd --output); expected net://HOST[:CTRL[:DATA]]") }
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard let host = parts.first, !host.isEmpty, !host.contains("["), parts.count <= 3 else {
            throw invalid("expected net://HOST[:CTRL[:DATA]]")
        }
        func port(_ text: Substring, _ name: String) throws(InvalidURL) -> Int {
            guard let value = Int(text), (1...65_535).contains(value) else { throw invalid("the \(name) port must be 1 to 65535, not \(text)") }
            return value
        }
        self.host = String(host)
        controlPort = parts.count > 1 ? try port(parts[1], "control") : Self.defaultControlPort
        dataPort = parts.count > 2 ? try port(parts[2], "data") : Self.defaultDataPort
        if let livePort, !(1...65_535).contains(livePort) { throw InvalidURL(description: "the live port must be 1 to 65535, not \(livePort)") }
        self.livePort = livePort ?? Self.defaultLivePort
    }

    /// `net://HOST:CTRL:DATA`, for `lttng create --set-url`.
    public var url: String { "net://\(host):\(controlPort):\(dataPort)" }

    /// `net://HOST:LIVE`, where babeltrace2 lists and reads live sessions.
    public var liveURL: String { "net://\(host):\(livePort)" }

    /// Throws ``LTTngRecording/Unavailable`` naming the URL when one of
    /// the relay's ports does not accept a connection within `seconds`.
    func checkAnswers(within seconds: Double) throws {
        for (port, role) in [(controlPort, "control"), (dataPort, "data"), (livePort, "live, --lttng-live-port")] {
            if let reason = TCPReachability.refusal(host: host, port: port, within: seconds) {
                throw LTTngRecording.Unavailable(
                    description: "--lttng-relay \(url): no lttng-relayd answers at \(host):\(port) (its \(role) port): \(reason)")
            }
        }
    }
}
