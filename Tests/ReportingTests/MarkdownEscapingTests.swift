import Foundation
@testable import Insights
@testable import Reporting
import Testing
@testable import ToolSupport

/// Markdown output: what comes from a report is text, never HTML, and never
/// breaks a table row or a code span.
@Suite struct MarkdownEscapingTests {
    @Test func inlineTextKeepsNoHTMLAndNoMarkup() {
        #expect(escapeMarkdown("<script>alert(1)</script> & <img src=x onerror=alert(2)>")
            == "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(2)&gt;")
        #expect(escapeMarkdown("a | b\nc\r\nd") == "a \\| b c  d")
        #expect(escapeMarkdown("![pixel](https://x.invalid/p.png) *bold* _it_ `code` ~~gone~~ \\") ==
            "!\\[pixel\\](https\\://x.invalid/p.png) \\*bold\\* \\_it\\_ \\`code\\` \\~\\~gone\\~\\~ \\\\")
        #expect(escapeMarkdown("# heading") == "\\# heading")
        #expect(escapeMarkdown("- item") == "\\- item")
        #expect(escapeMarkdown("12. item") == "12\\. item")
        #expect(escapeMarkdown("3) item") == "3\\) item")
        #expect(escapeMarkdown("3.40.1") == "3.40.1")
        #expect(escapeMarkdown("FetchAll") == "FetchAll")
    }

    @Test func codeSpansAreFencedLongerThanTheirBackticks() {
        #expect(markdownCode("SELECT 1") == "`SELECT 1`")
        #expect(markdownCode("SELECT a || `b` FROM t") == "``SELECT a || `b` FROM t``")
        #expect(markdownCode("`x``") == "``` `x`` ```")
        #expect(markdownCode("a\nb") == "`a b`")
        #expect(markdownCode("a | b", inTable: true) == "`a \\| b`")
    }

    static let hostile = "<script>alert(1)</script> | x"

    @Test func aReportSummaryEscapesEveryString() {
        var scenario = ReportScenarios.scenario(name: Self.hostile)
        scenario.status = .failed
        scenario.error = "<img src=y onerror=alert(3)>\nsecond line"
        var report = ReportComparisonTests.report([scenario], sqlite: "3.40 <b>")
        report.environment.buildConfiguration = "<i>release</i>"
        let markdown = ReportMarkdown.render(report)
        #expect(!markdown.contains("<script"))
        #expect(!markdown.contains("<img"))
        #expect(!markdown.contains("<b>"))
        #expect(!markdown.contains("<i>"))
        #expect(markdown.contains("&lt;i&gt;release&lt;/i&gt; build, SQLite 3.40 &lt;b&gt;."))
        #expect(markdown.contains(
            "| &lt;script&gt;alert(1)&lt;/script&gt; \\| x | failed: &lt;img src=y onerror=alert(3)&gt; second line | 11.0 ms | 3 | - | - | 0 |\n"),
            "\(markdown)")
    }

    @Test func aComparisonEscapesEveryString() throws {
        let name = "A|B <i>"
        let base = ReportComparisonTests.report([ReportComparisonTests.scenario(name, times: ReportComparisonTests.steady)])
        var headScenario = ReportComparisonTests.scenario(
            name, times: ReportComparisonTests.steady,
            insights: [Insight(rule: .fullScan, entity: "T", keyPath: "x", message: "<img src=x onerror=alert(1)> | n", evidence: "", callSite: "")])
        headScenario.statements = [StatementReport(
            shape: "SELECT a || `b` FROM \"<script>\"\nWHERE x", purpose: "fetch", count: 1, totalSeconds: 0.001, maxSeconds: 0.001,
            rowsReturned: 1, rowsChanged: 0, fullScanSteps: 0, firstCallSite: "", queryPlan: nil)]
        let comparison = ReportComparer().compare(base, ReportComparisonTests.report([headScenario]))
        let markdown = try ComparisonFormat.markdown.render(comparison)
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let row = try #require(lines.first { $0.hasPrefix("| ❌ | A") })
        #expect(row.hasPrefix("| ❌ | A\\|B &lt;i&gt; | 1 new insight; 1 statement shape changed | "), "\(row)")
        #expect(lines.contains("- A\\|B &lt;i&gt;: &lt;img src=x onerror=alert(1)&gt; \\| n `full-scan/T/x`"), "\(markdown)")
        #expect(lines.contains("- A\\|B &lt;i&gt;: added (0 → 1) ``SELECT a || `b` FROM \"<script>\" WHERE x``"), "\(markdown)")
        #expect(!markdown.contains("<img"))
        #expect(!markdown.contains("<i>"))
    }
}

@Suite struct LinkAndControlEscapingTests {
    /// Bare URLs, www. names and addresses stay text on GitHub; controls are shown.
    @Test func bareLinksAndControlsStayText() {
        #expect(escapeMarkdown("see https://a.example/x and WWW.b.example or me@c.example") ==
            "see https\\://a.example/x and WWW\\.b.example or me\\@c.example")
        #expect(escapeMarkdown("a\u{1B}[31mred\u{202E}") == "a\\u{1B}\\[31mred\\u{202E}")
        #expect(TerminalText.escape("tab\tline\nbell\u{07}\u{2066}") == "tab\tline\nbell\\u{7}\\u{2066}")
    }
}
