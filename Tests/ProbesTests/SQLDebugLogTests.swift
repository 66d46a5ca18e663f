import Foundation
import ObjectGraph
import Probes
import Synchronization
import Testing

@Suite struct SQLDebugLogTests {
    private static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// Timings vary; everything else is exact.
    static func masked(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.replacingOccurrences(of: #"[0-9]+\.[0-9]{6}s"#, with: "#.######s", options: .regularExpression)
        }
    }

    @Test(arguments: 1...4)
    func matchesTheGoldenLog(level: Int) throws {
        let path = try Workload.populate(people: 2, selfies: 4, networks: 2)
        let text = Mutex("")
        let sink = SQLDebugLogSink(level: level) { line in text.withLock { $0 += line } }
        try LogWorkload.run(try Workload.store(path, sinks: [sink]))
        let produced = Self.masked(text.withLock { $0 })
        let file = Self.golden.appendingPathComponent("sql-debug-level-\(level).log")
        if ProcessInfo.processInfo.environment["FAULTLINE_UPDATE_GOLDEN"] == "1" {
            try produced.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(produced.count == expected.count)
        for (number, (got, want)) in zip(produced, expected).enumerated() where got != want {
            Issue.record("level \(level), line \(number + 1): got\n  \(got)\nexpected\n  \(want)")
        }
    }

    @Test func levelsAddDetailsInOrder() throws {
        let lines = (1...4).map { level in
            (try? String(contentsOf: Self.golden.appendingPathComponent("sql-debug-level-\(level).log"), encoding: .utf8)) ?? ""
        }
        #expect(!lines[0].contains("details: bind["))
        #expect(lines[1].contains("faultline: details: bind[0] = 3"))
        #expect(!lines[1].contains("details: fetched"))
        #expect(lines[2].contains("faultline: details: fetched Selfie/p1 {name = \"Selfie 1\"; rating = 1}"))
        #expect(!lines[2].contains("faultline: plan:"))
        #expect(lines[3].contains("faultline: plan: SCAN t0  [full scan]"))
    }

    @Test func environmentChoosesTheLevelAndFile() throws {
        #expect(SQLDebugLogSink.fromEnvironment([:]) == nil)
        #expect(SQLDebugLogSink.fromEnvironment(["FAULTLINE_SQL_DEBUG": "0"]) == nil)
        #expect(SQLDebugLogSink.fromEnvironment(["FAULTLINE_SQL_DEBUG": "9"])?.level == 4)
        let file = Workload.storePath() + ".log"
        let sink = try #require(SQLDebugLogSink.fromEnvironment(["FAULTLINE_SQL_DEBUG": "2", "FAULTLINE_SQL_LOG": file]))
        #expect(sink.level == 2)
        let path = try Workload.populate(people: 1, selfies: 1, networks: 1)
        let context = ObjectContext(store: try Workload.store(path, sinks: [sink]))
        try context.perform { _ = try context.count(for: FetchRequest<ManagedObject>(entityName: "Selfie")) }
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(written.hasPrefix("faultline: sql: BEGIN DEFERRED\n"))
        #expect(written.contains("faultline: sql: SELECT count(*) FROM \"Selfie\" t0\n"))
    }
}
