@testable import BuiltInScenarios
import Foundation
import Reporting
@testable import Scenarios
import Testing
import ToolSupport

/// Reports validate against docs/report.schema.json with Debian's
/// python3-jsonschema (installed by scripts/install-system-packages.sh --test).
@Suite struct ReportSchemaTests {
    static let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/report.schema.json").path

    /// Runs the validator; returns its error output, "" when valid.
    static func validate(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            try:
                jsonschema.validate(json.load(open(sys.argv[2])), schema)
            except jsonschema.ValidationError as error:
                print(error.message, "at", "/".join(str(p) for p in error.absolute_path))
            """, schema, path]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ScenarioFailure("the validator failed (is python3-jsonschema installed?): \(errors)")
        }
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func reportsOfEveryKindOfScenarioValidate() throws {
        var options = RunOptions()
        options.configuration.scale = 0.02
        options.configuration.iterations = 2
        let failing = Scenario(name: "Broken", summary: "fails", dataSet: .selfies) { _ in throw ScenarioFailure("no") }
        let reports = ScenarioRunner(options: options, cache: ScenarioCounterTests.cache).run([.fetchAll, .subquery, failing])
        let report = RunReport.make(reports, options: options, commandLine: ["perf-run", "run"])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID()).json").path
        try ReportFile.write(report, to: path)
        #expect(try Self.validate(path) == "")
        #expect(try ReportFile.read(path) == report)
    }

    @Test func theSchemaRejectsAnUnknownCounter() throws {
        var options = RunOptions()
        options.configuration.scale = 0.02
        var scenario = ScenarioReport(name: "X", description: "x", dataSet: "selfies", status: .passed)
        scenario.counters = ["fetchs": 1]
        let report = RunReport.make([scenario], options: options, commandLine: [])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID()).json").path
        try ReportFile.write(report, to: path)
        #expect(try Self.validate(path).contains("fetchs"))
    }

    @Test func badReportsGiveOneLineReasons() throws {
        let directory = FileManager.default.temporaryDirectory
        func file(_ text: String) throws -> String {
            let path = directory.appendingPathComponent("r-\(UUID()).json").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let truncated = try file("{\"schemaVersion\": 1, \"tool\": {")
        #expect(throws: ReportError.self) { try ReportFile.read(truncated) }
        let version = try file("{\"schemaVersion\": 9}")
        #expect(throws: ReportError("\(version): schema version 9 is not supported (this tool reads 1 to \(Report.currentSchemaVersion))")) { try ReportFile.read(version) }
        let notReport = try file("[1, 2]")
        #expect(throws: ReportError("\(notReport): not a Faultline report (no schemaVersion)")) { try ReportFile.read(notReport) }
        let missing = try file("{\"schemaVersion\": 1, \"tool\": {\"name\": \"x\", \"version\": \"1\", \"commandLine\": []}}")
        #expect(throws: ReportError("\(missing): missing field environment")) { try ReportFile.read(missing) }
    }
}
