import Foundation
import Probes
@testable import Scenarios
import Testing

/// LTTng-UST end to end: a session on a blocking channel traces
/// faultline-bench, babeltrace2 reads the trace back, and the event counts
/// must equal the recorder's counters exactly, with nothing discarded.
@Suite(.serialized) struct LTTngTests {
    @Test func traceCountsEqualTheRecorderCounters() throws {
        let (report, lines) = try traceBench(sinks: "lttng,recorder", objects: 1000, rounds: 20)
        let counters = try #require(report["counters"] as? [String: Int])
        let tally = TraceTally(lines)
        #expect(tally.total >= 100_000)
        #expect(tally.events >= 50_000)  // runs of row-cache faults and refreshes are one event each
        tally.expectAgreement(with: counters)
    }

    /// The LTTng sink alone, as `make bench-probes` runs it: faults, cache
    /// misses, statements and context changes reach the tracepoints as
    /// fields, without event values. The trace must count what the recorder
    /// counts for the same (deterministic) workload.
    @Test func theLTTngSinkAloneTracesWhatTheRecorderCounts() throws {
        let bench = LTTngHarness.buildDirectory.appendingPathComponent("faultline-bench").path
        let recorded = try LTTngHarness.require(bench, ["--sinks", "recorder", "--objects", "200", "--rounds", "3"])
        let counters = try #require(
            (try JSONSerialization.jsonObject(with: Data(recorded.stdout.utf8)) as? [String: Any])?["counters"] as? [String: Int])
        let (_, lines) = try traceBench(sinks: "lttng", objects: 200, rounds: 3)
        let tally = TraceTally(lines)
        tally.expectAgreement(with: counters)
        #expect(tally.refreshes == 200 * 3)  // every item refreshed once a round
        // Runs: each round reads every item twice from the row cache, from
        // two lines (two runs of 200), and one group (a run of 1); it
        // refreshes every item in one run.
        #expect(tally.rowCacheFaultEvents == 3 * 3)
        #expect(tally.refreshEvents == 3)
        #expect(tally.rowCacheFaults == 3 * (200 + 200 + 1))
    }

    /// Runs faultline-bench with `sinks` under a session of its own, on a
    /// blocking channel with each event tagged with its process; returns
    /// the bench's output and the trace's lines for its process. Fails when
    /// LTTng discarded anything.
    private func traceBench(sinks: String, objects: Int, rounds: Int) throws -> (report: [String: Any], lines: [Substring]) {
        let daemon = try LTTngHarness.startSessionDaemonIfNeeded()
        defer { LTTngHarness.stopSessionDaemon(daemon) }
        let session = "faultline-test-\(UUID().uuidString.prefix(8))"
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(session)
        try LTTngHarness.require("lttng", ["create", session, "--output=\(output.path)"])
        defer {
            _ = try? LTTngHarness.run("lttng", ["destroy", session])
            try? FileManager.default.removeItem(at: output)
        }
        try LTTngHarness.require("lttng", [
            "enable-channel", "--session=\(session)", "--userspace", "--blocking-timeout=inf",
            "--subbuf-size=1M", "--num-subbuf=8", "blocking",
        ])
        try LTTngHarness.require("lttng", ["enable-event", "--session=\(session)", "--userspace", "--channel=blocking", "faultline:*"])
        // Other test processes may emit faultline events too: tag each event
        // with its process, and keep only the workload's.
        try LTTngHarness.require("lttng", ["add-context", "--session=\(session)", "--userspace", "--channel=blocking", "--type=vpid"])
        try LTTngHarness.require("lttng", ["start", session])
        let bench = LTTngHarness.buildDirectory.appendingPathComponent("faultline-bench").path
        let run = try LTTngHarness.require(
            bench, ["--sinks", sinks, "--objects", "\(objects)", "--rounds", "\(rounds)"],
            environment: ["LTTNG_UST_ALLOW_BLOCKING": "1"])
        let pid = try #require(run.pid)
        let stop = try LTTngHarness.require("lttng", ["stop", session])
        #expect(!stop.stdout.contains("discarded") && !stop.stderr.contains("discarded"), "lttng stop: \(stop.stdout) \(stop.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(report["lttng"] as? String == "loaded")
        let trace = try LTTngHarness.require("babeltrace2", [output.path])
        #expect(!trace.stderr.contains("discarded"), "babeltrace2: \(trace.stderr)")
        return (report, trace.stdout.split(separator: "\n").filter { $0.contains("vpid = \(pid) }") })
    }

    /// `perf-run run --lttng`: its own session daemon when none runs (and
    /// stopped after), a blocking channel, and counters rebuilt from the
    /// trace equal to the recorder's.
    @Test func perfRunRecordsATraceThatAgreesWithTheRecorder() throws {
        // A daemon that answers this user's lttng (not any on the machine:
        // another test's may run as another user, or on a private home).
        let daemonBefore = try LTTngHarness.run("lttng", ["list"]).status == 0
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-lttng-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("report.json").path
        let perfRun = LTTngHarness.buildDirectory.appendingPathComponent("perf-run").path
        let result = try LTTngHarness.run(perfRun, [
            "run", "FetchAll", "SingleFault", "Prefetch", "BatchUpdate", "--scale", "0.02", "--iterations", "2", "--lttng",
            "--lttng-output", directory.appendingPathComponent("trace").path, "--json", report,
            "--html", directory.appendingPathComponent("report.html").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("LTTng trace: \(directory.appendingPathComponent("trace").path)"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let scenarios = try #require(json["scenarios"] as? [[String: Any]])
        #expect(scenarios.count == 4)
        for scenario in scenarios {
            var counters = try #require(scenario["counters"] as? [String: Int])
            counters["objectsRegisteredPeak"] = nil
            let traced = try #require(scenario["traceCounters"] as? [String: Int], "\(scenario["name"] ?? "")")
            #expect(traced == counters, "\(scenario["name"] ?? "")")
        }
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("trace").path))
        if !daemonBefore {
            // The daemon perf-run started wrote its PID where this user's goes.
            var left = LTTngRecording.daemonNamed(by: LTTngRecording.daemonPIDFile)
            for _ in 0..<100 where left != nil {
                usleep(50_000)
                left = LTTngRecording.daemonNamed(by: LTTngRecording.daemonPIDFile)
            }
            #expect(left == nil, "perf-run left the session daemon it started (process \(left ?? 0))")
        }
    }

    @Test func runsWithTheProviderLibraryAbsent() throws {
        let bench = LTTngHarness.buildDirectory.appendingPathComponent("faultline-bench").path
        let run = try LTTngHarness.require(
            bench, ["--sinks", "lttng,recorder", "--objects", "10", "--rounds", "1"],
            environment: ["FAULTLINE_TRACEPOINT_PROVIDER": "/nonexistent/libFaultlineTracepointProvider.so"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(report["lttng"] as? String == "off: the tracepoint provider /nonexistent/libFaultlineTracepointProvider.so does not exist")
        let counters = try #require(report["counters"] as? [String: Int])
        #expect(counters["faultsFired"] == 32)  // 3 per item, the group, the changed item
    }

    @Test func aSinkForAnIdleSessionBuildsNothing() throws {
        switch LTTngSink.load() {
        case .success(let sink):
            // No session enables the events in this process.
            #expect(EventKind.allCases.allSatisfy { !sink.isEnabled($0) })
            #expect(sink.details.isEmpty)
        case .failure(let reason):
            Issue.record("the provider should load in the test build: \(reason)")
        }
    }
}

/// The events of a trace (babeltrace2's text lines), counted as the
/// recorder counts them: an event with a `count` (a run of row-cache faults
/// or of refreshes) stands for that many.
private struct TraceTally {
    var counts: [String: Int] = [:]
    var total = 0
    var events = 0
    var rowCacheFaults = 0
    var rowCacheFaultEvents = 0
    var databaseFaults = 0
    var databaseRelationshipFaults = 0
    var refreshes = 0
    var refreshEvents = 0

    init(_ lines: [Substring]) {
        for line in lines {
            guard let range = line.range(of: " faultline:") else { continue }
            let name = line[range.upperBound...].prefix { $0 != ":" }
            let count = line.range(of: " count = ").map { Int(line[$0.upperBound...].prefix { $0.isNumber })! } ?? 1
            counts[String(name), default: 0] += count
            total += count
            events += 1
            switch name {
            case "fault":
                if line.contains("source = \"row cache\"") {
                    rowCacheFaults += count
                    rowCacheFaultEvents += 1
                }
                if line.contains("source = \"database\"") {
                    #expect(count == 1, "a fault that reads the database is traced alone: \(line)")
                    databaseFaults += count
                }
            case "relationship_fault":
                if line.contains("source = \"database\"") { databaseRelationshipFaults += 1 }
            case "context":
                if line.contains("kind = \"refresh\"") {
                    refreshes += count
                    refreshEvents += 1
                }
            default:
                break
            }
        }
    }

    /// Every count the trace and the recorder share is equal.
    func expectAgreement(with counters: [String: Int]) {
        #expect(counts["fetch"] == counters["fetches"])
        #expect(counts["fault"] == counters["faultsFired"])
        #expect(counts["relationship_fault"] == counters["relationshipFaultsFired"])
        #expect(counts["sql"] == counters["sqlStatements"])
        #expect(counts["save"] == counters["saves"])
        #expect(rowCacheFaults == counters["cacheHits"])
        #expect(databaseFaults + databaseRelationshipFaults == counters["cacheMisses"])
        #expect(counts["cache_miss"] == databaseFaults)
    }
}
