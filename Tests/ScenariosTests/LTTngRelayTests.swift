import Foundation
@testable import Scenarios
import TestSupport
import Testing

/// `perf-run run --lttng --lttng-relay`: the trace goes to an
/// `lttng-relayd` as a live session, is read back from the relay's live
/// port, and gives back the recorder's counters exactly.
///
/// As ``LTTngReliabilityTests`` do, the tests start their own session
/// daemon and relay in a private LTTng home (as `nobody` when root, whose
/// session daemon is the machine's) and stop only those, by process ID.
@Suite(.serialized) struct LTTngRelayTests {
    @Test func aRunRecordsIntoARelayAndChecksTheTraceItReadsBack() throws {
        for tool in ["lttng", "lttng-sessiond", "lttng-relayd", "babeltrace2"] {
            _ = try #require(Self.installed(tool), "\(tool) is not installed (scripts/install-system-packages.sh --test installs lttng-tools, babeltrace2)")
        }
        let home = try PrivateLTTng()
        defer { home.remove() }
        let relay = try TestRelay(in: home)
        defer { relay.stop() }
        let daemon = try home.startDaemon()
        defer { LTTngRecording.stopDaemon(daemon) }
        let report = home.home.appendingPathComponent("report.json")
        let (program, arguments) = home.command(PerfRunProcess.executable, [
            "run", "FetchAll", "SingleFault", "Prefetch", "--scale", "0.02", "--iterations", "2", "--lttng", "--lttng-relay", relay.url,
            "--lttng-live-port", "\(relay.livePort)", "--json", report.path, "--html", home.home.appendingPathComponent("report.html").path,
        ])
        let run = try Child(program, arguments, environment: home.environment, in: home.home, keepingOutput: true)
        defer { run.kill() }
        #expect(run.wait(upTo: 300), "perf-run still runs after 300 s")
        let output = run.stderr
        #expect(run.status == 0, "\(output)")
        #expect(output.contains("LTTng trace: on the relay \(relay.url), in its output directory under "), "\(output)")

        // The run checked the trace it read back from the relay.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        let scenarios = try #require(json["scenarios"] as? [[String: Any]])
        #expect(scenarios.count == 3)
        var recorded: [String: [String: Int]] = [:]
        for scenario in scenarios {
            let name = try #require(scenario["name"] as? String)
            var counters = try #require(scenario["counters"] as? [String: Int])
            counters["objectsRegisteredPeak"] = nil
            recorded[name] = counters
            #expect(scenario["status"] as? String == "passed", "\(name)")
            #expect(scenario["traceCounters"] as? [String: Int] == counters, "\(name)")
        }

        // The relay's output holds the trace, which gives the same counters.
        let hosts = try FileManager.default.contentsOfDirectory(at: relay.output, includingPropertiesForKeys: nil)
        let sessions = try hosts.flatMap { try FileManager.default.contentsOfDirectory(at: $0, includingPropertiesForKeys: nil) }
            .filter { $0.lastPathComponent.hasPrefix("faultline-\(run.pid)-") }
        let session = try #require(sessions.first, "no trace of perf-run (process \(run.pid)) in \(relay.output.path): \(hosts)")
        #expect(sessions.count == 1)
        let babeltrace = try #require(Self.installed("babeltrace2"))
        let trace = try BoundedCommand.run(babeltrace, [session.path], limit: .total(120), output: .collect)
        #expect(trace.status == 0, "\(trace.output.prefix(2000))")
        let traced = TraceCounters.read(trace.output.split(separator: "\n"), processID: run.pid)
        for (name, counters) in recorded {
            var values = try #require(traced[name], "\(name) is not in the relay's trace").byName
            values["objectsRegisteredPeak"] = nil
            #expect(values == counters, "\(name)")
        }

        // perf-run destroyed its session and left the daemon it found.
        let list = try home.lttng(["list"])
        #expect(list.status == 0 && !list.output.contains("faultline-\(run.pid)-"), "left behind: \(list.output)")
        #expect(LTTngRecording.isRunning(daemon, named: "lttng-sessiond"), "perf-run stopped a session daemon it did not start")
    }

    /// The relay goes away during the run: the run does not wait for it
    /// (its watch stops the session), fails with one line, and writes its
    /// reports.
    @Test func aRelayLostDuringTheRunFailsItWithItsReportsWritten() throws {
        let home = try PrivateLTTng()
        defer { home.remove() }
        let relay = try TestRelay(in: home)
        defer { relay.stop() }
        let daemon = try home.startDaemon()
        defer { LTTngRecording.stopDaemon(daemon) }
        let report = home.home.appendingPathComponent("report.json")
        let (program, arguments) = home.command(PerfRunProcess.executable, [
            "run", "FetchAll", "--scale", "0.02", "--iterations", "10000", "--lttng", "--lttng-relay", relay.url,
            "--lttng-live-port", "\(relay.livePort)", "--json", report.path, "--html", home.home.appendingPathComponent("report.html").path, "--quiet",
        ])
        let run = try Child(program, arguments, environment: home.environment, in: home.home)
        defer { run.kill() }
        #expect(home.waitForSession(of: run), "the session of perf-run (process \(run.pid)) never showed: \(run.stderr)")
        relay.stop()
        #expect(run.wait(upTo: 300), "perf-run still runs 300 s after its relay went away")
        #expect(run.status == 1, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("the trace's counters could not be checked: ") }, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: report.path))
    }

    /// Nothing answers at the relay's URL: one line naming it, exit 2,
    /// before anything is started.
    @Test func anUnreachableRelayIsOneLineAndExitTwo() throws {
        let directory = try LTTngReliabilityTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ports = try TestRelay.freePorts(2)
        let url = "net://127.0.0.1:\(ports[0]):\(ports[1])"
        let report = directory.appendingPathComponent("report.json")
        let result = try PerfRunProcess.run(
            ["run", "FetchAll", "--scale", "0.02", "--lttng", "--lttng-relay", url, "--json", report.path],
            in: directory, environment: ["TMPDIR": directory.path])
        #expect(result.status == 2)
        #expect(result.stderr == "--lttng-relay \(url): no lttng-relayd answers at 127.0.0.1:\(ports[0]) (its control port): Connection refused\n")
        #expect(!FileManager.default.fileExists(atPath: report.path))
    }

    /// `--lttng-relay` without `--lttng`, or beside `--lttng-output`, or
    /// not a relay's URL: a usage error in one line.
    @Test(arguments: [
        (["--lttng-relay", "net://127.0.0.1"], "--lttng-relay records with LTTng: add --lttng"),
        (
            ["--lttng", "--lttng-relay", "net://127.0.0.1", "--lttng-output", "trace"],
            "--lttng-output and --lttng-relay: the trace goes to a local directory or to a relay, not both"
        ),
        (["--lttng", "--lttng-relay", "tcp://127.0.0.1"], "--lttng-relay tcp://127.0.0.1 is not a relay's URL: expected net://HOST[:CTRL[:DATA]]"),
        (["--lttng", "--lttng-relay", "net://host:0"], "--lttng-relay net://host:0 is not a relay's URL: the control port must be 1 to 65535, not 0"),
        (["--lttng", "--lttng-live-port", "5344"], "--lttng-live-port is the relay's: add --lttng --lttng-relay net://HOST"),
    ])
    func relayOptionsAreCheckedAsUsage(options: [String], message: String) throws {
        let result = try PerfRunProcess.run(["run", "FetchAll"] + options)
        #expect(result.status == 2)
        #expect(result.stderr == "\(message)\n")
    }

    @Test func relayURLs() throws {
        let full = try LTTngRelay(url: "net://relay.example:6000:6001", livePort: 6002)
        #expect(full.url == "net://relay.example:6000:6001" && full.liveURL == "net://relay.example:6002")
        let short = try LTTngRelay(url: "net://10.0.0.2")
        #expect(short.url == "net://10.0.0.2:5342:5343" && short.liveURL == "net://10.0.0.2:5344")
        #expect(try LTTngRelay(url: "net://h:7000").dataPort == 5343)
        for bad in ["net://", "net://h:1:2:3", "net://h/traces", "net6://[::1]", "net://[::1]:5342", "file:///tmp", "net://h:70000"] {
            #expect(throws: LTTngRelay.InvalidURL.self, "\(bad)") { try LTTngRelay(url: bad) }
        }
        // A password is never quoted, whichever part of the URL fails.
        for (bad, shown) in [
            ("net://u:hunter2@h", "net://***@h"), ("net://u:hunter2@[h", "net://***@[h"), ("u:hunter2@h:5342", "***@h:5342"),
            ("net://u:hun/ter2@h", "net://***@h"),
        ] {
            #expect(throws: LTTngRelay.InvalidURL(description: "\(shown) is not a relay's URL: a relay takes no user or password; expected net://HOST[:CTRL[:DATA]]")) {
                try LTTngRelay(url: bad)
            }
        }
        let listing = """
            net://127.0.0.1:5344/host/vm/other (timer = 1000000, 2 stream(s), 0 client(s) connected)
            net://127.0.0.1:5344/host/vm/faultline-12-ABC (timer = 1000000, 3 stream(s), 1 client(s) connected)
            """
        let found = try #require(LTTngLiveReader.parse(listing, session: "faultline-12-ABC"))
        #expect(found.url == "net://127.0.0.1:5344/host/vm/faultline-12-ABC" && found.clients == 1)
        #expect(LTTngLiveReader.parse(listing, session: "faultline-12") == nil)
    }

    /// lttng-relayd allows one live viewer per session: with a viewer
    /// attached to a live session, perf-run's reader stops at once with one
    /// line naming the session and the rule; and babeltrace2's own refusal
    /// of a second viewer is what the reader recognises.
    @Test func anotherLiveViewerOfTheSessionIsNamedWithTheRule() throws {
        for tool in ["lttng", "lttng-sessiond", "lttng-relayd", "babeltrace2"] {
            _ = try #require(Self.installed(tool), "\(tool) is not installed (scripts/install-system-packages.sh --test installs lttng-tools, babeltrace2)")
        }
        let babeltrace = try #require(Self.installed("babeltrace2"))
        let home = try PrivateLTTng()
        defer { home.remove() }
        let relay = try TestRelay(in: home)
        defer { relay.stop() }
        let daemon = try home.startDaemon()
        defer { LTTngRecording.stopDaemon(daemon) }
        let session = "viewers-\(UUID().uuidString.prefix(8).lowercased())"
        for arguments in [["create", session, "--live", "--set-url=\(relay.url)"], ["enable-event", "--session=\(session)", "--userspace", "--all"], ["start", session]] {
            let step = try home.lttng(arguments)
            try #require(step.status == 0, "lttng \(arguments): \(step.output)")
        }
        defer { _ = try? home.lttng(["destroy", session]) }
        let address = try LTTngRelay(url: relay.url, livePort: relay.livePort)

        // A viewer of the user's, attached first.
        func listed() throws -> (url: String, clients: Int)? { try LTTngLiveReader.listed(session, on: address, babeltrace: babeltrace) }
        let deadline = Date().addingTimeInterval(20)
        var shown = try listed()
        while shown == nil, Date() < deadline {
            usleep(50_000)
            shown = try listed()
        }
        let url = try #require(shown?.url, "session \(session) never showed on the relay's live port")
        let viewer = try BoundedCommand.start(babeltrace, ["--input-format=lttng-live", url], output: .discard)
        defer { viewer.kill() }
        while (try listed())?.clients ?? 0 < 1, Date() < deadline { usleep(50_000) }
        try #require((try listed())?.clients == 1, "the first viewer did not attach within 20 s")

        // perf-run's reader: one line, the session and the rule.
        do {
            let reader = try LTTngLiveReader(relay: address, session: session, processID: getpid(), babeltrace: babeltrace)
            reader.stop()
            Issue.record("the reader attached beside another viewer")
        } catch let error as LTTngRecording.Unavailable {
            #expect(error.description == "--lttng-relay \(relay.url): session \(session) already has a live viewer on net://127.0.0.1:\(relay.livePort), "
                + "and lttng-relayd allows one live viewer per session: perf-run reads its session live to check the trace; "
                + "detach the other viewer, and read the trace from the relay's output directory instead")
            #expect(!error.description.contains("\n"))
        }

        // A second viewer attaching anyway (as one that raced the listing
        // would): babeltrace2's refusal, recognised.
        let second = try BoundedCommand.start(babeltrace, ["--input-format=lttng-live", url], output: .stream { _ in })
        let ended = try second.wait(limit: .total(30))
        #expect(ended.status != 0)
        #expect(LTTngLiveViewerRule.wasRefused(scanning: second.scanErrorLines))
    }

    /// The refusal is told from babeltrace2's other failures by its words.
    @Test func theRefusalOfASecondViewerIsToldFromOtherFailures() {
        func scan(_ text: String) -> ((Substring) -> Bool) -> Void {
            { visit in
                for line in text.split(separator: "\n") where !visit(line) { break }
            }
        }
        let refused = """
            11-29 14:00:17.802   986   986 E PLUGIN/SRC.CTF.LTTNG-LIVE/VIEWER lttng_live_session_attach@viewer-connection.c:1121 [lttng-live] There is already a viewer attached to this session
            11-29 14:00:17.802   986   986 E PLUGIN/SRC.CTF.LTTNG-LIVE lttng_live_get_session@lttng-live.c:477 [lttng-live] Error attaching to LTTng live session
            """
        let unreachable = """
            11-29 14:02:01.100  1001  1001 E PLUGIN/SRC.CTF.LTTNG-LIVE/VIEWER lttng_live_connect_viewer@viewer-connection.c:310 [lttng-live] Connection to remote host failed: Connection refused
            """
        #expect(LTTngLiveViewerRule.wasRefused(scanning: scan(refused)))
        #expect(!LTTngLiveViewerRule.wasRefused(scanning: scan(unreachable)))
        #expect(!LTTngLiveViewerRule.wasRefused(scanning: scan("")))
    }

    static func installed(_ tool: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/\(tool)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
