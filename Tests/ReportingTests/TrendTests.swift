import Foundation
import Reporting
import Testing
import ToolSupport

/// The trend per commit built from a store's observations, and its formats.
@Suite struct TrendTests {
    static let line = ["runner": "ci", "scale": "0.02"]

    static func observations() -> [TrendObservation] {
        var all: [TrendObservation] = []
        // Published out of name order: c first, then a, then b.
        for (commit, time) in [("c", 100.0), ("a", 200.0), ("b", 300.0)] {
            all.append(.init(.published, scenario: nil, commit: commit, labels: line, value: time))
        }
        func add(_ scenario: String, _ commit: String, _ measure: TrendObservation.Measure, _ value: Double) {
            all.append(.init(measure, scenario: scenario, commit: commit, labels: line, value: value))
        }
        // sqlStatements: 3, (none), 5: a change across the gap; rowsRead steady.
        add("FetchAll", "c", .counter("sqlStatements"), 3)
        add("FetchAll", "b", .counter("sqlStatements"), 5)
        for commit in ["c", "a", "b"] { add("FetchAll", commit, .counter("rowsRead"), 30) }
        // Timings: within spread, then below the minimum (faster).
        for (commit, median, low, high) in [("c", 0.010, 0.009, 0.012), ("a", 0.011, 0.010, 0.012), ("b", 0.005, 0.004, 0.006)] {
            add("FetchAll", commit, .wallMedian, median)
            add("FetchAll", commit, .wallMin, low)
            add("FetchAll", commit, .wallMax, high)
            add("FetchAll", commit, .samples, 10)
        }
        // Another runner's line, and a value that is no number.
        all.append(.init(.counter("sqlStatements"), scenario: "FetchAll", commit: "a", labels: ["runner": "big"], value: 3))
        all.append(.init(.counter("sqlStatements"), scenario: "FetchAll", commit: "z", labels: ["runner": "big"], value: .nan))
        return all
    }

    @Test func linesCommitsChangesAndMoves() throws {
        let trend = Trend(source: "http://p", since: "30d", matchers: ["job": "faultline"], observations: Self.observations())
        #expect(trend.lines.map(\.labels) == [["runner": "big"], Self.line])
        let line = trend.lines[1]
        #expect(line.commits == [.init(commit: "c", publishedAt: 100), .init(commit: "a", publishedAt: 200), .init(commit: "b", publishedAt: 300)])
        #expect(line.counters.map(\.name) == ["sqlStatements", "rowsRead"])
        #expect(line.counters[0].points == [
            .init(commit: "c", value: 3, change: nil), .init(commit: "a", value: nil, change: nil), .init(commit: "b", value: 5, change: 2),
        ])
        #expect(line.changedCounters.map(\.name) == ["sqlStatements"])
        #expect(line.steadyCounters.map(\.name) == ["rowsRead"])
        #expect(line.timing.map(\.moved) == [nil, nil, .faster])
        #expect(line.timing.map(\.samples) == [10, 10, 10])
        // The other runner's line: one commit, no publication time, the NaN left out.
        #expect(trend.lines[0].commits == [.init(commit: "a", publishedAt: nil)])
    }

    @Test func textAndMarkdownMarkWhatChanged() throws {
        let trend = Trend(source: "http://p", since: "30d", matchers: ["job": "faultline"], observations: Self.observations())
        let text = try trend.render(.text)
        #expect(text.contains("""
              commit  published             sqlStatements  wall median (min–max, n)
              c       1970-01-01T00:01:40Z  3              10.0 ms (9.00 ms–12.0 ms, n=10)
              a       1970-01-01T00:03:20Z  -              11.0 ms (10.0 ms–12.0 ms, n=10)
              b       1970-01-01T00:05:00Z  5 ▲ +2         5.00 ms ▼ faster (4.00 ms–6.00 ms, n=10)
              same in every commit: rowsRead 30
            """), "\(text)")
        let markdown = try trend.render(.markdown)
        #expect(markdown.contains("| `b` | 1970-01-01T00:05:00Z | **5 ▲ +2** | **5.00 ms ▼ faster (4.00 ms–6.00 ms, n=10)** |"), "\(markdown)")
        #expect(markdown.contains("### FetchAll (runner=ci scale=0.02)"))
    }

    @Test func everythingFromTheStoreIsEscaped() throws {
        let hostile = "<img src=x onerror=alert(1)>|`*_[x](http://e.com)"
        let observations: [TrendObservation] = [
            .init(.counter("sqlStatements"), scenario: hostile, commit: "<b>c</b>", labels: ["branch": "<i>|x"], value: 1),
            .init(.counter("<svg onload=alert(1)>"), scenario: hostile, commit: "<b>c</b>", labels: ["branch": "<i>|x"], value: 2),
            .init(.counter("sqlStatements"), scenario: hostile, commit: "d\u{1B}[2J", labels: ["branch": "<i>|x"], value: 3),
        ]
        let trend = Trend(source: "http://p/<x>", since: "1h", matchers: ["job": "<j>"], observations: observations)
        let html = try trend.render(.html)
        #expect(!html.contains("<img"))
        #expect(!html.contains("<svg onload"))
        #expect(!html.contains("<b>c"))
        #expect(!html.contains("<i>"))
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(html.components(separatedBy: "<script>").count == 2)
        let markdown = try trend.render(.markdown)
        #expect(!markdown.contains("<img"))
        #expect(!markdown.contains("[x]("))
        #expect(!markdown.contains("\u{1B}"))
        #expect(markdown.contains("\\|"))
        let text = try trend.render(.text)
        #expect(text.contains("d\u{1B}[2J"))  // escaped by the writer for a terminal (OutputPlan, TerminalText)
        #expect(!TerminalText.escape(text).contains("\u{1B}"))
    }

    @Test func chartsOfHugeAndFlatValuesDoNotCrash() throws {
        var observations: [TrendObservation] = []
        for (index, value) in [Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, 0, 1e300].enumerated() {
            observations.append(.init(.published, scenario: nil, commit: "c\(index)", labels: [:], value: Double(index)))
            observations.append(.init(.counter("rowsRead"), scenario: "S", commit: "c\(index)", labels: [:], value: value))
            observations.append(.init(.counter("saves"), scenario: "S", commit: "c\(index)", labels: [:], value: 7))
            observations.append(.init(.wallMedian, scenario: "S", commit: "c\(index)", labels: [:], value: .greatestFiniteMagnitude))
        }
        let html = try Trend(source: "s", since: "1h", matchers: [:], observations: observations).render(.html)
        #expect(html.components(separatedBy: "<svg class=\"chart trend\"").count - 1 == 3)
        let charts = html.components(separatedBy: "<svg").dropFirst().map { $0.components(separatedBy: "</svg>")[0] }
        for chart in charts { #expect(!chart.lowercased().contains("nan") && !chart.contains("inf"), "\(chart)") }
    }
}
