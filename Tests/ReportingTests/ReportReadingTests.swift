import Foundation
@testable import Insights
@testable import Reporting
import Testing
@testable import ToolSupport

/// Reading reports: from any readable file, and with a one-line reason
/// naming the key when a value is wrong.
@Suite struct ReportReadingTests {
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-reading-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func report() -> Report {
        var scenario = ReportScenarios.scenario(name: "Prefetch")
        scenario.statements = [StatementReport(
            shape: "SELECT 1", purpose: "fetch", count: 3, totalSeconds: 0.002, maxSeconds: 0.001, rowsReturned: 30, rowsChanged: 0,
            fullScanSteps: 0, firstCallSite: "App.swift:1", queryPlan: nil)]
        scenario.values = ["coldSeconds": 0.5, "namesRead": 10]
        return ReportComparisonTests.report([scenario])
    }

    /// The report's JSON with the value at `keyPath` (keys and array
    /// indexes, dot-separated) replaced by the JSON text `value`.
    static func json(setting keyPath: String, to value: String) throws -> Data {
        let replacement = try JSONSerialization.jsonObject(with: Data(value.utf8), options: .fragmentsAllowed)
        func set(_ container: Any, _ path: ArraySlice<Substring>) -> Any {
            guard let key = path.first else { return replacement }
            if let index = Int(key), var array = container as? [Any] {
                array[index] = set(array[index], path.dropFirst())
                return array
            }
            var dictionary = container as? [String: Any] ?? [:]
            dictionary[String(key)] = set(dictionary[String(key)] ?? [String: Any](), path.dropFirst())
            return dictionary
        }
        let object = try JSONSerialization.jsonObject(with: try ReportFile.json(Self.report()))
        return try JSONSerialization.data(withJSONObject: set(object, keyPath.split(separator: ".")[...]))
    }

    @Test(arguments: [
        ("scenarios.0.counters.sqlStatements", "2.5", "scenarios[0].counters.sqlStatements: 2.5 is not a whole number"),
        ("scenarios.0.counters.sqlStatements", "1e30", "scenarios[0].counters.sqlStatements: 1e+30 is too big (at most 9223372036854775807)"),
        ("scenarios.0.counters.faultsFired", "-1", "scenarios[0].counters.faultsFired: -1 is negative (a count is 0 or more)"),
        ("scenarios.0.statements.0.count", "0.5", "scenarios[0].statements[0].count: 0.5 is not a whole number"),
        ("scenarios.0.statements.0.maxSeconds", "-0.25", "scenarios[0].statements[0].maxSeconds: -0.25 is negative (a time is 0 or more)"),
        ("scenarios.0.samples.2.cpuSeconds", "-1.5", "scenarios[0].samples[2].cpuSeconds: -1.5 is negative (a time is 0 or more)"),
        ("scenarios.0.samples.1.peakResidentBytes", "1.5", "scenarios[0].samples[1].peakResidentBytes: 1.5 is not a whole number"),
        ("scenarios.0.timeBreakdown.sqliteSeconds", "-0.001", "scenarios[0].timeBreakdown.sqliteSeconds: -0.001 is negative (a time is 0 or more)"),
        ("scenarios.0.values.coldSeconds", "-2", "scenarios[0].values.coldSeconds: -2 is negative (a time is 0 or more)"),
        ("scenarios.0.traceCounters", "{\"rowsRead\": 7.25}", "scenarios[0].traceCounters.rowsRead: 7.25 is not a whole number"),
        ("configuration.seed", "1.5", "configuration.seed: 1.5 is not a whole number"),
        ("configuration.iterations", "-3", "configuration.iterations: -3 is negative (a count is 0 or more)"),
        ("environment.cores", "\"two\"", "environment.cores: expected a whole number, found a string"),
        ("scenarios.0.samples.0.wallSeconds", "true", "scenarios[0].samples[0].wallSeconds: expected a number, found true"),
    ])
    func aWrongValueIsNamedWithItsKeyPath(keyPath: String, value: String, message: String) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bad.json").path
        try Self.json(setting: keyPath, to: value).write(to: URL(fileURLWithPath: path))
        #expect(throws: ReportError("\(path): \(message)")) { try ReportFile.read(path) }
    }

    /// What JSON text alone can say (a key given twice, a number beyond a
    /// double), named with its key path: the report's JSON with the value
    /// at `keyPath` replaced by the raw text `value`.
    @Test(arguments: [
        ("scenarios.0.counters.sqlStatements", "1e400",
         "scenarios[0].counters.sqlStatements: the number 1e400 is out of range (beyond a 64-bit floating-point number)"),
        ("scenarios.0.counters.sqlStatements", "-1E+999",
         "scenarios[0].counters.sqlStatements: the number -1E+999 is out of range (beyond a 64-bit floating-point number)"),
        ("scenarios.0.counters.sqlStatements", "99999999999999999999", "scenarios[0].counters.sqlStatements: 1e+20 is too big (at most 9223372036854775807)"),
        ("scenarios.0.counters", #"{"sqlStatements": 3, "fetches": 1, "sqlStatements": 5}"#,
         "scenarios[0].counters.sqlStatements: the key is given twice (JSON readers differ on which one counts)"),
        ("scenarios.0.values", #"{"a\u0062": 1, "ab": 2}"#, "scenarios[0].values.ab: the key is given twice (JSON readers differ on which one counts)"),
        ("scenarios", #"[{"name": "A"}, {"name": "B", "name": "C"}]"#, "scenarios[1].name: the key is given twice (JSON readers differ on which one counts)"),
    ])
    func whatOnlyTheTextSaysIsNamedWithItsKeyPath(keyPath: String, value: String, message: String) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bad.json").path
        let placeholder = #""placeholder-0e1f""#
        let text = String(decoding: try Self.json(setting: keyPath, to: placeholder), as: UTF8.self)
        #expect(text.contains(placeholder))
        try text.replacingOccurrences(of: placeholder, with: value).write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ReportError("\(path): \(message)")) { try ReportFile.read(path) }
    }

    /// The same key in two objects is no duplicate.
    @Test func aKeyInTwoObjectsIsNoDuplicate() throws {
        #expect(JSONTextScan.problem(in: Data(#"{"a": {"n": 1}, "b": {"n": 1}, "c": [{"n": 1}, {"n": 2}]}"#.utf8)) == nil)
        #expect(JSONTextScan.problem(in: try ReportFile.json(Self.report())) == nil)
        // Not JSON: the JSON reader's to say why.
        #expect(JSONTextScan.problem(in: Data(#"{"a": 1, "b"#.utf8)) == nil)
    }

    @Test func negativeFiguresThatAreNotTimesAreFine() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("figures.json").path
        try Self.json(setting: "scenarios.0.values.namesRead", to: "-4").write(to: URL(fileURLWithPath: path))
        #expect(try ReportFile.read(path).scenarios[0].values["namesRead"] == -4)
    }

    @Test func aReportIsReadFromAFIFO() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("report.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let json = try ReportFile.json(Self.report())
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            try? handle.write(contentsOf: json)
            try? handle.close()
        }
        writer.start()
        #expect(try ReportFile.read(fifo) == Self.report())
    }

    @Test func statisticsOfHugeTimesStayFinite() {
        let statistics = Statistics([1e308, 1.7e308, 1.5e308, 1.7e308])
        #expect(abs(statistics.median - 1.6e308) < 1e293)
        #expect(statistics.mean.isFinite)
        #expect(abs(statistics.mean - 1.475e308) < 1e293)
        #expect(statistics.standardDeviation.isFinite)
        #expect(statistics.standardDeviation > 0)
        #expect(Statistics([0.1, 0.2, 0.3]) .mean == (0.1 + 0.2 + 0.3) / 3)
    }

    @Test func whatCannotBeReadIsOneLine() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: ReportError("\(directory.path): cannot read the file: Is a directory")) { try ReportFile.read(directory.path) }
        let missing = directory.appendingPathComponent("missing.json").path
        #expect(throws: ReportError("\(missing): cannot read the file: No such file or directory")) { try ReportFile.read(missing) }
        #expect(throws: ReportError("\(missing): cannot read the thresholds file: No such file or directory")) { try Thresholds.read(missing) }
        #expect(throws: ReportError("/dev/zero: cannot read the file: larger than 256 MiB")) { try InputFile.read("/dev/zero") }
        let huge = directory.appendingPathComponent("huge.json").path
        try #"{"schemaVersion": 1, "configuration": {"scale": 1e400}}"#.write(toFile: huge, atomically: true, encoding: .utf8)
        #expect(throws: ReportError("\(huge): configuration.scale: the number 1e400 is out of range (beyond a 64-bit floating-point number)")) {
            try ReportFile.read(huge)
        }
        let status = directory.appendingPathComponent("status.json").path
        try Self.json(setting: "scenarios.0.status", to: #""running""#).write(to: URL(fileURLWithPath: status))
        #expect(throws: ReportError("\(status): scenarios[0].status: Cannot initialize Status from invalid String value running")) {
            try ReportFile.read(status)
        }
        let name = directory.appendingPathComponent("name.json").path
        try Self.json(setting: "scenarios.0.name", to: "null").write(to: URL(fileURLWithPath: name))
        #expect(throws: ReportError("\(name): scenarios[0].name: null where a value is required")) { try ReportFile.read(name) }
    }

    @Test func settingsFilesAreReadFromAFIFO() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func throughFIFO<Value>(_ text: String, _ read: (String) throws -> Value) throws -> Value {
            let fifo = directory.appendingPathComponent("settings-\(UUID().uuidString.prefix(6))").path
            #expect(mkfifo(fifo, 0o600) == 0)
            let writer = Thread {
                guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
                try? handle.write(contentsOf: Data(text.utf8))
                try? handle.close()
            }
            writer.start()
            return try read(fifo)
        }
        let thresholds = try throughFIFO(#"{"counters": {"rowsRead": {"absolute": 3}}}"#, Thresholds.read)
        #expect(thresholds == Thresholds(counters: ["rowsRead": CounterAllowance(absolute: 3)]))
        let floor = try throughFIFO(#"{"relative": 0.1, "absolute": 0.001, "scenarios": {}}"#, NoiseFloor.read)
        #expect(floor == NoiseFloor(relative: 0.1, absolute: 0.001))
        let accepted = try throughFIFO("full-scan/Selfie/name # known\n", AcceptedInsights.init(contentsOf:))
        #expect(accepted.identities == ["full-scan/Selfie/name"])
    }
}
