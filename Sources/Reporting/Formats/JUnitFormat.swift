import Foundation
import Insights
import ToolSupport

extension OutputFormat {
    /// JUnit XML: the test results CI systems display.
    public static let junit = OutputFormat("junit")
}

/// JUnit XML, what CI systems display as test results (the schema
/// Jenkins' xunit plugin reads, `junit-10.xsd`): each scenario a test case.
/// In a run's report, a failed scenario and each insight neither accepted
/// nor intended is a failure with its message; a skipped scenario is
/// skipped. In a comparison, a scenario's regression (counters, timing,
/// statements, new insights, a head that failed or lacks it) is a failure;
/// the statement shapes whose p90 changed beyond the noise are advice,
/// never a failure: the test case's `system-out`, in the text's words.
public enum JUnitFormat: ReportFormat {
    public static let format = OutputFormat.junit
    public static let summary = "JUnit XML test results for CI"
    public static let documents: Set<ReportContent.Kind> = [.run, .comparison]

    /// One test case: its name, time, and what failed or why it was skipped.
    struct Case {
        var name: String
        var seconds: Double?
        var failures: [(type: String, message: String, details: String)] = []
        var skipped: String?
        /// Advice that does not fail the test case (its `system-out`).
        var output: [String] = []
    }

    public static func render(_ content: ReportContent) throws(OutputError) -> String {
        switch content {
        case .run(let report, _): return document(suite: "\(report.tool.name) run", cases: report.scenarios.map(testCase))
        case .comparison(let comparison):
            var notes: [String] = []
            if let reason = comparison.countersNotComparable { notes.append("counters not comparable: \(reason)") }
            if let reason = comparison.timingsNotComparable { notes.append("timings not comparable: \(reason)") }
            if let reason = comparison.scalingNotComparable { notes.append("fits not comparable: \(reason)") }
            return document(suite: "perf-run compare", cases: comparison.scenarios.map(testCase), output: notes)
        case .log, .trend:
            throw OutputError(format, reason: "not a format of this output (\(ReportFormats.formats(of: content.kind).map(\.rawValue).joined(separator: ", ")))")
        }
    }

    static func testCase(_ scenario: ScenarioReport) -> Case {
        var test = Case(name: scenario.name, seconds: scenario.samples.reduce(0) { $0 + $1.wallSeconds })
        switch scenario.status {
        case .passed: break
        case .failed: test.failures.append(("failed", scenario.error ?? "failed", scenario.error ?? ""))
        case .skipped: test.skipped = scenario.error ?? "skipped"
        }
        for insight in scenario.insights where insight.accepted != true && insight.intended == nil {
            let details = [insight.evidence, insight.callSite.isEmpty ? nil : "at \(insight.callSite)", insight.fix.map { "fix: \($0.code)" }]
            test.failures.append((
                "insight \(insight.rule.rawValue)", "\(insight.identity): \(insight.message)",
                details.compactMap { $0 }.joined(separator: "\n")))
        }
        return test
    }

    static func testCase(_ scenario: ReportComparison.ScenarioComparison) -> Case {
        var test = Case(name: scenario.name, seconds: scenario.timing?.headMedian)
        if case .headSkipped(let reason) = scenario.status, !scenario.regression { test.skipped = reason }
        if !scenario.statementTimings.isEmpty {
            test.output = [ComparisonFormat.statementTimingsTitle() + ":"] + scenario.statementTimings.map(ComparisonFormat.statementTimingLine)
        }
        guard scenario.regression else { return test }
        var details: [String] = ["status: \(scenario.status)"]
        for counter in scenario.counters where counter.verdict.isRegression {
            details.append("\(counter.name) \(counter.base) → \(counter.head.map(String.init) ?? "none") (\(counter.verdict.rawValue))")
        }
        if let timing = scenario.timing, timing.verdict == .slower {
            details.append("timing: \(ComparisonFormat.timingSummary(timing))")
        }
        for statement in scenario.statements where statement.change != .removed {
            details.append("statement \(statement.change.rawValue) \(statement.baseCount) → \(statement.headCount): \(statement.shape)"
                + (statement.callSite.map { " at \($0)" } ?? ""))
        }
        for insight in scenario.newInsights { details.append("new insight \(insight.identity): \(insight.message)") }
        for slope in scenario.slopes where slope.isRegression { details.append(ComparisonFormat.slopeSummary(slope)) }
        let summary = details.count > 1 ? details[1] : details[0]
        test.failures.append(("regression", "regression: \(summary)", details.joined(separator: "\n")))
        return test
    }

    static func document(suite: String, cases: [Case], output: [String] = []) -> String {
        let failures = cases.filter { !$0.failures.isEmpty }.count
        let skipped = cases.filter { $0.skipped != nil && $0.failures.isEmpty }.count
        let total = cases.compactMap(\.seconds).reduce(0, +)
        let counts = "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\""
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"\(escape(suite))\" \(counts) time=\"\(seconds(total))\">",
            "  <testsuite name=\"\(escape(suite))\" \(counts) skipped=\"\(skipped)\" time=\"\(seconds(total))\">",
        ]
        for test in cases {
            let time = test.seconds.map { " time=\"\(seconds($0))\"" } ?? ""
            let opening = "    <testcase name=\"\(escape(test.name))\" classname=\"\(escape(suite))\"\(time)"
            guard !test.failures.isEmpty || test.skipped != nil || !test.output.isEmpty else {
                lines.append(opening + "/>")
                continue
            }
            lines.append(opening + ">")
            for failure in test.failures {
                lines.append("      <failure type=\"\(escape(failure.type))\" message=\"\(escape(failure.message))\">\(escape(failure.details))</failure>")
            }
            if let skipped = test.skipped, test.failures.isEmpty { lines.append("      <skipped message=\"\(escape(skipped))\"/>") }
            if !test.output.isEmpty { lines.append("      <system-out>\(escape(test.output.joined(separator: "\n")))</system-out>") }
            lines.append("    </testcase>")
        }
        if !output.isEmpty { lines.append("    <system-out>\(escape(output.joined(separator: "\n")))</system-out>") }
        lines += ["  </testsuite>", "</testsuites>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Seconds with at most three decimals (the schema's form); 0 for a
    /// time that is not finite.
    static func seconds(_ value: Double) -> String {
        String(format: "%.3f", value.isFinite && value >= 0 ? value : 0)
    }

    /// Text for an XML attribute or element (``escapeMarkup(_:forXML:)``).
    static func escape(_ text: String) -> String { escapeMarkup(text, forXML: true) }
}
