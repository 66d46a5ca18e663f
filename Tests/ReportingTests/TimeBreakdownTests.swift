import Foundation
@testable import Reporting
import Testing

/// Where the time went: the parts of the median iteration, within its wall
/// time, or per-thread time where threads ran at once.
@Suite struct TimeBreakdownTests {
    static func iteration(_ wall: Double, _ sqlite: Double, _ rowCache: Double = 0) -> TimeBreakdown {
        TimeBreakdown(iterationWallSeconds: wall, sqliteSeconds: sqlite, rowCacheSeconds: rowCache)
    }

    @Test func theMedianIterationsPartsAddUpToTheMedian() throws {
        // Medians of each part taken apart would give SQLite 1.5 and the rest
        // 0.9: 2.4 of a median of 2.
        let iterations = [Self.iteration(1, 0.1), Self.iteration(2, 1.9), Self.iteration(3, 1.5)]
        let median = try #require(TimeBreakdown.median(of: iterations))
        #expect(median.wallSeconds == 2 && median.sqliteSeconds == 1.9)
        #expect(abs(median.otherSeconds - 0.1) < 1e-12)
        let parts = try #require(median.attribution(wallSeconds: 99))
        #expect(parts.wall == 2 && abs(parts.sqlite + parts.rowCache + parts.rest - 2) < 1e-12)
        // An even count: the mean of the two middle ones, which is the median of the walls.
        let even = try #require(TimeBreakdown.median(of: [Self.iteration(4, 1, 1), Self.iteration(1, 0.5), Self.iteration(2, 1), Self.iteration(3, 1)]))
        #expect(even.wallSeconds == Statistics([4, 1, 2, 3]).median)
        #expect(even.sqliteSeconds == 1 && even.rowCacheSeconds == 0 && even.otherSeconds == 1.5)
        #expect(TimeBreakdown.median(of: []) == nil)
    }

    @Test func threadsThatOverlapGivePerThreadTimeAndNoRest() throws {
        // 1.68 s in SQLite over two threads in an iteration of 1.24 s.
        let overlapped = try #require(TimeBreakdown.median(of: [Self.iteration(1.24, 1.68), Self.iteration(1.3, 1.1)]))
        #expect(overlapped.summedOverThreads == true && overlapped.otherSeconds == 0)
        #expect(overlapped.attribution(wallSeconds: 1.27) == nil)
        // A concurrent scenario is per-thread time even where the sum fits.
        let concurrent = try #require(TimeBreakdown.median(of: [Self.iteration(1, 0.2)], concurrent: true))
        #expect(concurrent.summedOverThreads == true && concurrent.attribution(wallSeconds: 1) == nil)
        // Serial: no flag, an attribution.
        let serial = try #require(TimeBreakdown.median(of: [Self.iteration(1, 0.2)]))
        #expect(serial.summedOverThreads == nil && serial.attribution(wallSeconds: 1) != nil)
        // A report from before (medians of each part, no wall): within the
        // scenario's median it is an attribution, beyond it per-thread time.
        let old = TimeBreakdown(sqliteSeconds: 0.4, rowCacheSeconds: 0.1, otherSeconds: 0.5)
        #expect(old.attribution(wallSeconds: 1)?.rest == 0.5)
        #expect(old.attribution(wallSeconds: 0.45) == nil)
    }

    static func report(_ scenarios: [ScenarioReport]) -> Report {
        Report(
            tool: .init(name: "perf-run", version: "0.1.0", commandLine: ["perf-run", "run"]),
            environment: .init(operatingSystem: "Debian", cpuModel: "cpu", cores: 2, swiftVersion: "6.3", sqliteVersion: "3.40.1",
                               buildConfiguration: "debug", gitCommit: nil, hostName: "ci"),
            configuration: .init(scale: 0.02, seed: 1, iterations: 3, warmup: 1, store: .file, timeoutSeconds: nil),
            scenarios: scenarios)
    }

    @Test func aReportWithPerThreadTimeReadsBackAndABadWallTimeIsNamed() throws {
        let scenario = ScenarioReport(
            name: "Threads", description: "", dataSet: "fireballs", status: .passed,
            samples: [Sample(wallSeconds: 1.25, cpuSeconds: 1, peakResidentBytes: nil)],
            timeBreakdown: TimeBreakdown(sqliteSeconds: 1.68, rowCacheSeconds: 0, otherSeconds: 0, wallSeconds: 1.24, summedOverThreads: true))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("breakdown-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ReportFile.json(Self.report([scenario])).write(to: URL(fileURLWithPath: path))
        #expect(try ReportFile.read(path) == Self.report([scenario]))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "\"wallSeconds\" : 1.24", with: "\"wallSeconds\" : -1").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: (any Error).self) { try ReportFile.read(path) }
        do {
            _ = try ReportFile.read(path)
        } catch {
            #expect("\(error)".contains("scenarios[0].timeBreakdown.wallSeconds: -1 is negative"), "\(error)")
        }
    }

    @Test func thePageShowsPerThreadTimeAsSuch() {
        var scenario = ScenarioReport(
            name: "Threads", description: "", dataSet: "fireballs", status: .passed,
            samples: [1.24, 1.25, 1.23].map { Sample(wallSeconds: $0, cpuSeconds: $0, peakResidentBytes: nil) },
            timeBreakdown: TimeBreakdown(sqliteSeconds: 1.68, rowCacheSeconds: 0, otherSeconds: 0, wallSeconds: 1.24, summedOverThreads: true))
        let html = HTMLReport.render(Self.report([scenario]))
        #expect(html.contains("Per-thread time in SQLite and the row cache"))
        #expect(html.contains("SQLite (all threads)"))
        #expect(!html.contains("Where the time went"))
        scenario.timeBreakdown = TimeBreakdown(sqliteSeconds: 0.5, rowCacheSeconds: 0.1, otherSeconds: 0.64, wallSeconds: 1.24)
        let serial = HTMLReport.render(Self.report([scenario]))
        #expect(serial.contains("Where the time went in the median iteration (1.24 s)"))
        #expect(serial.contains(">640 ms</text>"))
        #expect(!serial.contains("Per-thread"))
    }
}
