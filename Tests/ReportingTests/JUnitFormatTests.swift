import Foundation
import Insights
import Reporting
import TestSupport
import Testing
import ToolSupport

/// JUnit XML for CI systems: each scenario a test case; a failed scenario,
/// an insight neither accepted nor intended, and a comparison's regression
/// each a failure with its message; every document valid against the
/// schema Jenkins' xunit plugin reads (Fixtures/junit-10.xsd).
@Suite struct JUnitFormatTests {
    static let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/junit-10.xsd").path

    /// Validates `xml` with xmllint (libxml2-utils, installed by
    /// scripts/install-system-packages.sh --test); returns its complaint.
    static func validate(_ xml: String) throws -> String? {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("junit-\(UUID().uuidString.prefix(8)).xml").path
        try xml.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try CommandResult.run("/usr/bin/xmllint", ["--noout", "--schema", schema, file])
        return result.status == 0 ? nil : result.stderr
    }

    static func insight(_ keyPath: String, accepted: Bool? = nil, intended: String? = nil) -> Insight {
        var insight = Insight(
            rule: .nPlusOne, entity: "Person", keyPath: keyPath, message: "faulted \(keyPath) one by one", evidence: "100 queries",
            callSite: "App/List.swift:42")
        insight.accepted = accepted
        insight.intended = intended
        return insight
    }

    static var run: Report {
        var failed = ReportComparisonTests.scenario("TimedOut", times: [])
        failed.status = .failed
        failed.error = "stopped: timed out after 0.3 s <&\"'> \u{1B}[31m"
        var skipped = ReportComparisonTests.scenario("Skipped", times: [])
        skipped.status = .skipped
        skipped.error = "not on this platform"
        let advised = ReportComparisonTests.scenario(
            "Advised", times: [0.1, 0.2],
            insights: [insight("selfies"), insight("owner", accepted: true), insight("networks", intended: "the book's SingleFault")])
        return ReportComparisonTests.report([ReportComparisonTests.scenario("Clean", times: [0.01, 0.02]), failed, skipped, advised])
    }

    @Test func aRunIsOneTestCasePerScenarioWithItsFailures() throws {
        let xml = try JUnitFormat.render(.run(Self.run, timeline: nil))
        #expect(try Self.validate(xml) == nil)
        #expect(xml.contains("<testsuite name=\"perf-run run\" tests=\"4\" failures=\"2\" errors=\"0\" skipped=\"1\" time=\"0.330\">"), "\(xml)")
        #expect(xml.contains("<testcase name=\"Clean\" classname=\"perf-run run\" time=\"0.030\"/>"))
        #expect(xml.contains("<failure type=\"failed\" message=\"stopped: timed out after 0.3 s &lt;&amp;&quot;&#39;&gt; \u{FFFD}[31m\">"))
        #expect(xml.contains("<skipped message=\"not on this platform\"/>"))
        // The unaccepted insight fails its scenario; the accepted and the intended ones do not.
        #expect(xml.contains("<failure type=\"insight n-plus-one\" message=\"n-plus-one/Person/selfies@App/List.swift:42: faulted selfies one by one\">100 queries\nat App/List.swift:42</failure>"))
        #expect(!xml.contains("Person/owner") && !xml.contains("Person/networks"))
    }

    @Test func aComparisonsRegressionIsAFailureNamingWhatGrew() throws {
        let base = ReportComparisonTests.report([
            ReportComparisonTests.scenario("Prefetch", times: ReportComparisonTests.steady),
            ReportComparisonTests.scenario("FetchAll", times: ReportComparisonTests.steady),
        ])
        let head = ReportComparisonTests.report([
            ReportComparisonTests.scenario("Prefetch", times: ReportComparisonTests.steady, counters: ["sqlStatements": 7, "rowsRead": 100]),
            ReportComparisonTests.scenario("FetchAll", times: ReportComparisonTests.steady),
        ])
        let comparison = ReportComparer().compare(base, head)
        let xml = try comparison.render(.junit)
        #expect(try Self.validate(xml) == nil)
        #expect(xml.contains("tests=\"2\" failures=\"1\""), "\(xml)")
        #expect(xml.contains("<failure type=\"regression\" message=\"regression: sqlStatements 5 → 7 (regression)\">"), "\(xml)")
        #expect(xml.contains("<testcase name=\"FetchAll\" classname=\"perf-run compare\" time=\"0.100\"/>"))
    }

    @Test func theValidatorRefusesWhatTheSchemaDoesNot() throws {
        #expect(try Self.validate("<testsuites><testcase name=\"x\"/></testsuites>") != nil)
        #expect(try Self.validate("<testsuites><testsuite name=\"s\" tests=\"1\" failures=\"0\" errors=\"0\" time=\"0.1234\"/></testsuites>") != nil)
    }

    @Test func aLogHasNoJUnitForm() {
        #expect(!ReportFormats.formats(of: .log).contains(.junit))
        #expect(ReportFormats.formats(of: .run).contains(.junit) && ReportFormats.formats(of: .comparison).contains(.junit))
    }

    /// The command line: `compare --junit PATH` beside the text, and
    /// `report --junit -`; both valid, the comparison's regression exit 1.
    @Test func compareAndReportWriteJUnit() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("junit-cli-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let base = directory.appendingPathComponent("base.json").path
        let head = directory.appendingPathComponent("head.json").path
        try ReportFile.write(ReportComparisonTests.report([ReportComparisonTests.scenario(times: ReportComparisonTests.steady)]), to: base)
        try ReportFile.write(ReportComparisonTests.report([ReportComparisonTests.scenario(
            times: ReportComparisonTests.steady, counters: ["sqlStatements": 9, "rowsRead": 100])]), to: head)
        let xml = directory.appendingPathComponent("compare.xml").path
        let compared = try CommandResult.run(BuildProducts.path(of: "perf-run"), ["compare", base, head, "--junit", xml])
        #expect(compared.status == 1, "\(compared.stderr)")
        #expect(compared.stdout.contains("regression"), "the text still goes to standard output: \(compared.stdout)")
        #expect(try Self.validate(String(contentsOfFile: xml, encoding: .utf8)) == nil)

        let reported = try CommandResult.run(BuildProducts.path(of: "perf-run"), ["report", head, "--junit"])
        #expect(reported.status == 0, "\(reported.stderr)")
        #expect(reported.stdout.hasPrefix("<?xml"))
        #expect(try Self.validate(reported.stdout) == nil)
    }
}
