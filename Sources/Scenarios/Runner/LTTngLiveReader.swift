import Foundation
import Probes

/// babeltrace2 reading one live session from an `lttng-relayd`
/// (`babeltrace2 --input-format=lttng-live net://HOST:LIVE/host/HOSTNAME/SESSION`),
/// counting this process's events (``TraceTextStream``).
///
/// A live reader sees only what is traced after it attached to the
/// session, so it starts once the session has started and
/// ``init(relay:session:processID:)`` returns only when the relay counts it
/// as the session's client, before the run traces anything. Until
/// ``finish()`` nothing reads its output: babeltrace2 waits on the full
/// pipe, and the relay keeps the trace on its disk meanwhile, so the reader
/// costs the measured run next to nothing. It ends when the session is
/// destroyed and all of it was read.
///
/// lttng-relayd allows one live viewer per session
/// (``LTTngLiveViewerRule``): a viewer attached before this one makes the
/// run stop with one line saying so, and while this one reads, a user's
/// viewer of the session is refused.
final class LTTngLiveReader {
    /// The session's URL on the relay's live port.
    let url: String
    let session: String
    let relay: LTTngRelay
    /// The babeltrace2 process, to stop by its ID.
    var pid: Int32 { child.pid }
    private let child: BoundedCommand.Running
    private let stream: TraceTextStream

    /// Finds `session` on the relay, starts babeltrace2 on it and waits
    /// until it is attached; each wait within its limit.
    init(relay: LTTngRelay, session: String, processID: Int32, babeltrace: String) throws {
        let deadline = BoundedCommand.monotonicSeconds() + LTTngRecording.Limits.relayAttach
        var listed: (url: String, clients: Int)?
        while true {
            listed = try Self.listed(session, on: relay, babeltrace: babeltrace)
            if listed != nil { break }
            guard BoundedCommand.monotonicSeconds() < deadline else {
                throw LTTngRecording.Unavailable(
                    description: "--lttng-relay \(relay.url): session \(session) did not show on the relay's live port \(relay.liveURL) within \(LTTngRecording.seconds(LTTngRecording.Limits.relayAttach))")
            }
            usleep(50_000)
        }
        let url = listed!.url
        self.url = url
        self.session = session
        self.relay = relay
        // The relay would refuse this reader as a second viewer.
        guard listed!.clients == 0 else { throw LTTngLiveViewerRule.anotherViewer(of: session, on: relay) }
        let stream = TraceTextStream(processID: processID)
        self.stream = stream
        do {
            child = try BoundedCommand.start(babeltrace, ["--input-format=lttng-live", url], output: .stream { stream.append($0) })
        } catch let error as BoundedCommand.SpawnFailed {
            throw LTTngRecording.Unavailable(description: "--lttng-relay: \(error.description)")
        }
        while (try Self.listed(session, on: relay, babeltrace: babeltrace))?.clients ?? 0 < 1 {
            if let status = child.exited() {
                if LTTngLiveViewerRule.wasRefused(scanning: child.scanErrorLines) {
                    throw LTTngLiveViewerRule.anotherViewer(of: session, on: relay)
                }
                throw LTTngRecording.Unavailable(description: "--lttng-relay: babeltrace2 \(url) ended (status \(status)) before it attached to the session")
            }
            guard BoundedCommand.monotonicSeconds() < deadline else {
                child.kill()
                throw LTTngRecording.Unavailable(
                    description: "--lttng-relay: babeltrace2 \(url) did not attach to the session within \(LTTngRecording.seconds(LTTngRecording.Limits.relayAttach))")
            }
            usleep(50_000)
        }
    }

    /// Reads the trace to its end (the session destroyed), within
    /// ``LTTngRecording/Limits/traceSilence`` of silence, and returns the
    /// counters and statements per scenario.
    func finish() throws -> TraceReadBack {
        let status: Int32
        do {
            status = try child.wait(limit: .silence(LTTngRecording.Limits.traceSilence)).status
        } catch let error as BoundedCommand.TimedOut {
            throw LTTngRecording.Unavailable(
                description: "--lttng-relay: babeltrace2 \(url) printed nothing for \(LTTngRecording.seconds(error.limit.seconds)); stopped")
        }
        guard status == 0 else {
            // Another viewer attached between the listing and this reader's
            // attach: the count of clients was that viewer's.
            if LTTngLiveViewerRule.wasRefused(scanning: child.scanErrorLines) {
                throw LTTngLiveViewerRule.anotherViewer(of: session, on: relay)
            }
            throw LTTngRecording.Unavailable(description: "babeltrace2 could not read \(url) (status \(status))")
        }
        return stream.finish()
    }

    /// Kills babeltrace2 by its process ID if it still runs.
    func stop() { child.kill() }

    /// `session`'s URL on the relay and its number of clients, from
    /// babeltrace2's list of the relay's live sessions; nil when it is not
    /// listed.
    static func listed(_ session: String, on relay: LTTngRelay, babeltrace: String) throws -> (url: String, clients: Int)? {
        let listing: (status: Int32, output: String)
        do {
            listing = try BoundedCommand.run(babeltrace, ["--input-format=lttng-live", relay.liveURL], limit: .total(LTTngRecording.Limits.command))
        } catch is BoundedCommand.TimedOut {
            throw LTTngRecording.Unavailable(
                description: "--lttng-relay: babeltrace2 --input-format=lttng-live \(relay.liveURL) did not return within \(LTTngRecording.seconds(LTTngRecording.Limits.command))")
        } catch let error as BoundedCommand.SpawnFailed {
            throw LTTngRecording.Unavailable(description: "--lttng-relay: \(error.description)")
        }
        guard listing.status == 0 else {
            throw LTTngRecording.Unavailable(
                description: "--lttng-relay: babeltrace2 cannot list the live sessions of \(relay.liveURL): \(LTTngRecording.oneLine(listing.output).prefix(300))")
        }
        return parse(listing.output, session: session)
    }

    /// From lines such as `net://127.0.0.1:5344/host/vm/faultline-1-abc
    /// (timer = 1000000, 3 stream(s), 1 client(s) connected)`.
    static func parse(_ listing: String, session: String) -> (url: String, clients: Int)? {
        for line in listing.split(separator: "\n") {
            guard let open = line.range(of: " (") else { continue }
            let url = line[..<open.lowerBound]
            guard url.hasSuffix("/\(session)"), url.contains("/host/") else { continue }
            var clients = 0
            if let range = line.range(of: " client(s) connected") {
                let digits = line[..<range.lowerBound].reversed().prefix { $0.isNumber }
                clients = Int(String(digits.reversed())) ?? 0
            }
            return (String(url), clients)
        }
        return nil
    }
}
