import Foundation
import Reporting
import Testing
import ToolSupport

/// A trend's text, Markdown and HTML: the marks, the words, the charts, and
/// everything from the store escaped.
@Suite struct TrendFormatTests {
    /// Four commits: c3 twice as slow with one more statement; c2 one fetch
    /// more (no cost); c1 one row fewer (an improvement).
    static func trend(scenario: String = "FetchAll", commit: (Int) -> String = { "c\($0)" }, counter: String = "rowsRead") -> Trend {
        let runs = (0..<4).map { index in
            let level = index == 3 ? 0.004 : 0.002
            return HistoryRun(
                identity: RunIdentity(rawValue: "r\(index)"), project: "acme/app", branch: "main", runner: "ci-small", commit: commit(index),
                time: SyntheticHistory.start.addingTimeInterval(Double(index) * 3_600),
                report: SyntheticHistory.report(scenario: scenario, times: [level * 0.99, level, level * 1.01], counters: [
                    "sqlStatements": index == 3 ? 4 : 3, "fetches": index >= 2 ? 2 : 1, counter: index >= 1 ? 29 : 30, "saves": 0,
                ]))
        }
        let window = Trend.Window(HistoryQuery(branch: "main", since: SyntheticHistory.start))
        return Trend(runs: runs, source: "history.sqlite", window: window)
    }

    static var pValue: String {
        let p = MannWhitneyU.test([0.00198, 0.002, 0.00202, 0.00198, 0.002, 0.00202, 0.00198, 0.002, 0.00202], [0.00396, 0.004, 0.00404]).pValue
        return String(format: "%.3f", p)
    }

    @Test func textListsTheLinesAndTheMarks() throws {
        let text = try Self.trend().render(.text)
        #expect(text.hasPrefix("""
            Faultline trend (CPU time) from history.sqlite: branch main, since 2025-02-19T21:20:00Z
            2 regressions · 1 improvement · 1 change in 1 line

            FetchAll  project=acme/app branch=main runner=ci-small scale=0.02 seed=1 store=file build=release  (4 commits)
              commit  first run             fetches  sqlStatements  rowsRead  CPU median [interval, n]
              c0      2025-02-19T21:20:00Z  1        3              30        2.00 ms [1.98 ms–2.02 ms, n=3]
              c1      2025-02-19T22:20:00Z  1        3              29 ▼ −1   2.00 ms [1.98 ms–2.02 ms, n=3]
              c2      2025-02-19T23:20:00Z  2 ▲ +1   3              29        2.00 ms [1.98 ms–2.02 ms, n=3]
              c3      2025-02-20T00:20:00Z  2        4 ▲ +1         29        4.00 ms ▲ slower [3.96 ms–4.04 ms, n=3]
              same in every commit: saves 0
              a CPU time is marked from ×1.10 (commit-to-commit noise ±0.0%)
              ▼ c1 rowsRead 30 → 29, an improvement
              ▲ c2 fetches 1 → 2, a change
              ▲ c3 CPU time slower: 2.00 ms → 4.00 ms (×2.00, p=\(Self.pValue)), a regression
              ▲ c3 sqlStatements 3 → 4, a regression

            """), "\(text)")
        #expect(text.contains("Regression: slower, or more of a cost"))
    }

    @Test func markdownBoldsTheMarkedCellsAndSaysEachChange() throws {
        let markdown = try Self.trend().render(.markdown)
        #expect(markdown.contains("**2 regressions · 1 improvement · 1 change in 1 line**"), "\(markdown)")
        #expect(markdown.contains("- ▼ c1 rowsRead 30 → 29, an improvement\n"))
        #expect(markdown.contains("- ▲ c3 CPU time slower: 2.00 ms → 4.00 ms (×2.00, p=\(Self.pValue)), a regression\n"))
        #expect(markdown.contains("| `c3` | 2025-02-20T00:20:00Z | 2 | **4 ▲ +1** | 29 | **4.00 ms ▲ slower \\[3.96 ms–4.04 ms, n=3\\]** |"))
        #expect(markdown.contains("| `c0` | 2025-02-19T21:20:00Z | 1 | 3 | 30 | 2.00 ms \\[1.98 ms–2.02 ms, n=3\\] |"))
    }

    @Test func htmlDrawsMediansWithABandAndColoursTheMarks() throws {
        let html = try Self.trend().render(.html)
        // The CPU time's chart: its own axis (from its lowest interval to its highest), the band, the change point in red.
        let charts = html.components(separatedBy: "<svg class=\"chart trend\"").dropFirst().map { $0.components(separatedBy: "</svg>")[0] }
        #expect(charts.count == 5)  // CPU time and four counters
        #expect(html.contains("<figcaption>CPU time: median and its interval</figcaption>"))
        #expect(html.contains("<th>CPU median [interval, n]</th>"))
        let time = charts[0]
        #expect(time.contains(">4.04 ms</text>") && time.contains(">1.98 ms</text>"))
        #expect(time.components(separatedBy: "<polygon class=\"interval\"").count == 2)
        #expect(time.contains("<line class=\"change-point regression\""))
        #expect(time.contains("fill=\"#b02a2a\"><title>c3: 4.00 ms [3.96 ms–4.04 ms], regression</title>"))
        // rowsRead's improvement in green, fetches' change in amber.
        let rowsRead = try #require(charts.first { $0.contains("c1: 29") })
        #expect(rowsRead.contains("<line class=\"change-point improvement\"") && rowsRead.contains("stroke=\"#26734d\""))
        #expect(charts.contains { $0.contains("<line class=\"change-point change\"") && $0.contains("#c08000") })
        // The list and the table's cells by verdict.
        #expect(html.contains("<li class=\"improvement\">▼ c1 rowsRead 30 → 29, an improvement</li>"))
        #expect(html.contains("<li class=\"regression\">▲ c3 sqlStatements 3 → 4, a regression</li>"))
        #expect(html.contains("<td class=\"improvement\" data-value=\"29\">29 ▼ −1</td>"))
        #expect(html.contains("<td class=\"regression\" data-value=\"4\">4 ▲ +1</td>"))
        #expect(html.contains(".improvement{color:#26734d"))
    }

    @Test func everythingFromTheStoreIsEscaped() throws {
        let hostile = "<img src=x onerror=alert(1)>|`*_[x](http://e.com)"
        let trend = Self.trend(scenario: hostile, commit: { "<b>c\($0)</b>\u{1B}[2J" }, counter: "<svg onload=alert(1)>")
        let html = try trend.render(.html)
        #expect(!html.contains("<img"))
        #expect(!html.contains("<svg onload"))
        #expect(!html.contains("<b>c"))
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(html.components(separatedBy: "<script>").count == 2)
        let markdown = try trend.render(.markdown)
        #expect(!markdown.contains("<img"))
        // A commit is a code span (shown as text), anywhere else escaped.
        #expect(markdown.components(separatedBy: "<b>").count - 1 == 4)
        #expect(markdown.contains("| `<b>c3</b>\\u{1B}[2J` |"))
        #expect(markdown.contains("- ▲ &lt;b&gt;c3&lt;/b&gt;\\u{1B}\\[2J sqlStatements 3 → 4, a regression"))
        #expect(!markdown.contains("[x]("))
        #expect(!markdown.contains("\u{1B}"))
        #expect(markdown.contains("\\|"))
        let text = try trend.render(.text)
        #expect(text.contains("<b>c3</b>\u{1B}[2J"))  // escaped by the writer for a terminal (OutputPlan, TerminalText)
        #expect(!TerminalText.escape(text).contains("\u{1B}"))
    }

    @Test func chartsOfHugeAndFlatValuesDoNotCrash() throws {
        let values = [Double.greatestFiniteMagnitude, 1e300, 1e-300, 1]
        let runs = values.enumerated().map { index, value in
            HistoryRun(
                identity: RunIdentity(rawValue: "r\(index)"), project: "p", branch: "b", runner: "r", commit: "c\(index)",
                time: SyntheticHistory.start.addingTimeInterval(Double(index)),
                report: SyntheticHistory.report(times: [value], counters: ["rowsRead": index == 0 ? Int.max : index, "saves": 7]))
        }
        let html = try Trend(runs: runs, source: "s", window: .init()).render(.html)
        let charts = html.components(separatedBy: "<svg").dropFirst().map { $0.components(separatedBy: "</svg>")[0] }
        #expect(charts.count == 3)
        for chart in charts { #expect(!chart.lowercased().contains("nan") && !chart.contains("inf"), "\(chart)") }
    }

    @Test func anEmptyTrendSaysSo() throws {
        let trend = Trend(runs: [], source: "s", window: .init())
        #expect(try trend.render(.html).contains("<p class=\"error\">No runs.</p>"))
        #expect(try trend.render(.text).hasPrefix("Faultline trend (CPU time) from s\n0 regressions · 0 improvements · 0 changes in 0 lines\n"))
    }
}
