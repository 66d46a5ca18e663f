import Foundation
import ToolSupport

/// A trend (``Trend``) as aligned text for a terminal and as Markdown for a
/// CI job summary: a headline counting the changes; per line, a row per
/// commit with the counters that changed somewhere along it and the median
/// time (CPU or wall, ``Trend/timing``) with its interval, then each change
/// marked on it, said as a regression, an improvement or a change.
enum TrendText {
    static func legend(_ trend: Trend) -> String {
        "▲ slower or more, ▼ faster or fewer. A \(trend.timing.word) time is marked where the level of its commits moved beyond the line's own "
            + "noise (the larger of the floor and a multiple of the commit-to-commit spread) with a Mann-Whitney p below the significance; "
            + "an exact counter at any change. Regression: slower, or more of a cost (statements, rows, faults); improvement: the other way; "
            + "change: a counter that is no cost by itself. Times are on the machine's speed where every run of a line has a machine speed "
            + "probe (each run's divided by its probe, multiplied by the line's), as compare judges them."
    }

    /// Where from, what was asked.
    static func header(_ trend: Trend) -> String {
        var asked: [String] = []
        let window = trend.window
        if let project = window.project { asked.append("project \(project)") }
        if let branch = window.branch { asked.append("branch \(branch)") }
        if let runner = window.runner { asked.append("runner \(runner)") }
        if let since = window.since { asked.append("since \(TrendTime.text(since))") }
        return "Faultline trend (\(trend.timing.word) time) from \(trend.source)" + (asked.isEmpty ? "" : ": " + asked.joined(separator: ", "))
    }

    /// "1 regression · 2 improvements · 0 changes in 3 lines".
    static func headline(_ trend: Trend) -> String {
        let changes = trend.changes
        func count(_ verdict: TrendVerdict, _ word: String) -> String {
            let n = changes.filter { $0.verdict == verdict }.count
            return "\(n) \(word)\(n == 1 ? "" : "s")"
        }
        let lines = trend.lines.count
        return [count(.regression, "regression"), count(.improvement, "improvement"), count(.change, "change")].joined(separator: " · ")
            + " in \(lines) line\(lines == 1 ? "" : "s")"
    }

    /// The scenario and what tells its line from another.
    static func title(_ line: Trend.Line) -> String { "\(line.scenario)  \(line.key.labelText)" }

    /// The time column's heading: `CPU median [interval, n]`.
    static func timeHeading(_ timing: TimingMeasure) -> String { "\(timing.word) median [interval, n]" }

    static func cells(_ line: Trend.Line, timing: TimingMeasure) -> (header: [String], rows: [[String]], marks: [[TrendVerdict?]]) {
        let changed = line.changedCounters
        let header = ["commit", "first run"] + changed.map(\.name) + [timeHeading(timing)]
        var rows: [[String]] = []
        var marks: [[TrendVerdict?]] = []
        for (index, commit) in line.commits.enumerated() {
            var row = [shortCommit(commit.commit), TrendTime.text(commit.firstRun)]
            var mark: [TrendVerdict?] = [nil, nil]
            for counter in changed {
                let point = counter.points[index]
                let change = line.change(of: .counter(counter.name), at: commit.commit)
                row.append(count(point.value) + (change.map { " " + delta($0) } ?? ""))
                mark.append(change?.verdict)
            }
            let change = line.timeChange(at: commit.commit)
            row.append(Self.timing(commit.time, change: change))
            mark.append(change?.verdict)
            rows.append(row)
            marks.append(mark)
        }
        return (header, rows, marks)
    }

    /// The counters that never changed, in one sentence.
    static func steady(_ line: Trend.Line) -> String? {
        let steady = line.steadyCounters
        guard !steady.isEmpty else { return nil }
        let values = steady.map { counter in "\(counter.name) \(count(counter.points.lazy.compactMap(\.value).first))" }
        return "same in every commit: " + values.joined(separator: ", ")
    }

    /// A change in words: `▲ b2b2b2b2b2b2 CPU time slower: 2.00 ms → 4.02 ms (×2.01, p=0.0001), a regression`.
    static func describe(_ change: TrendChange) -> String {
        let arrow = change.isIncrease ? "▲" : "▼"
        var text = "\(arrow) \(shortCommit(change.commit)) "
        switch change.measure {
        case .time(let timing):
            text += "\(timing.word) time \(change.isIncrease ? "slower" : "faster"): \(TimeText.seconds(change.before)) → \(TimeText.seconds(change.after))"
            var details: [String] = []
            if let ratio = change.ratio { details.append("×" + String(format: "%.2f", ratio)) }
            if let p = change.pValue { details.append("p=" + pValue(p)) }
            if !details.isEmpty { text += " (\(details.joined(separator: ", ")))" }
        case .counter(let name):
            text += "\(name) \(count(change.before)) → \(count(change.after))"
        }
        switch change.verdict {
        case .regression: text += ", a regression"
        case .improvement: text += ", an improvement"
        case .change: text += ", a change"
        }
        return text
    }

    /// The noise and the least move marked, in words.
    static func noise(_ line: Trend.Line, timing: TimingMeasure) -> String {
        let floor = "a \(timing.word) time is marked from ×" + String(format: "%.2f", line.minimumEffect)
        guard let noise = line.noise else { return floor + " (too few commits to measure the noise)" }
        return floor + " (commit-to-commit noise ±" + String(format: "%.1f", (exp(noise) - 1) * 100) + "%)"
    }

    /// Whether the line's times are on the machine's speed, in words; nil
    /// when they are as measured.
    static func machine(_ line: Trend.Line, timing: TimingMeasure) -> String? {
        guard let probe = line.probe else { return nil }
        return "\(timing.word) times on the machine's speed: each run's divided by its probe's median, multiplied by the line's "
            + "(\(TimeText.seconds(probe)))"
    }

    /// The notes under a line's table: the steady counters, the machine's
    /// speed, the noise.
    static func notes(_ line: Trend.Line, timing: TimingMeasure) -> [String] {
        [steady(line), machine(line, timing: timing), noise(line, timing: timing)].compactMap { $0 }
    }

    static func text(_ trend: Trend) -> String {
        var lines = [header(trend), headline(trend)]
        for line in trend.lines {
            lines.append("")
            lines.append("\(title(line))  (\(line.commits.count) commit\(line.commits.count == 1 ? "" : "s"))")
            let (header, rows, _) = cells(line, timing: trend.timing)
            let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
            for row in [header] + rows {
                let padded = row.enumerated().map { column, cell in
                    column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
                }
                lines.append("  " + padded.joined(separator: "  "))
            }
            lines += notes(line, timing: trend.timing).map { "  " + $0 }
            for change in line.changes { lines.append("  " + describe(change)) }
        }
        lines.append("")
        lines.append(legend(trend))
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every string from the store is escaped (``escapeMarkdown``); commits
    /// are code spans; marked cells bold.
    static func markdown(_ trend: Trend) -> String {
        var lines = ["## \(escapeMarkdown(header(trend)))", "", "**\(escapeMarkdown(headline(trend)))**"]
        for line in trend.lines {
            lines += ["", "### \(escapeMarkdown(line.scenario)) (\(escapeMarkdown(line.key.labelText)))", ""]
            if !line.changes.isEmpty {
                lines += line.changes.map { "- " + escapeMarkdown(describe($0)) } + [""]
            }
            let (header, rows, marks) = cells(line, timing: trend.timing)
            lines.append("| " + header.map(escapeMarkdown).joined(separator: " | ") + " |")
            lines.append("|" + String(repeating: " --- |", count: header.count))
            for (row, mark) in zip(rows, marks) {
                let cells = row.enumerated().map { column, cell in
                    let text = column == 0 ? markdownCode(TerminalText.escape(cell), inTable: true) : escapeMarkdown(cell)
                    return mark[column] != nil ? "**\(text)**" : text
                }
                lines.append("| " + cells.joined(separator: " | ") + " |")
            }
            let said = notes(line, timing: trend.timing)
            lines += ["", escapeMarkdown(said.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: ". ")) + "."]
        }
        lines += ["", escapeMarkdown(legend(trend))]
        return lines.joined(separator: "\n") + "\n"
    }

    /// A commit as people read it: 12 characters of a full hash, any
    /// other name whole.
    static func shortCommit(_ commit: String) -> String {
        commit.count == 40 && commit.allSatisfy(\.isHexDigit) ? String(commit.prefix(12)) : commit
    }

    /// A counter's value, grouped by thousands (``CountText``); "-" for none.
    static func count(_ value: Int?) -> String { CountText.count(value) }

    static func count(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        return value == value.rounded() && abs(value) < 9.0e15 ? CountText.count(Int(value)) : String(value)
    }

    /// A counter's change with its sign and mark (`▲ +1`, `▼ −2`).
    static func delta(_ change: TrendChange) -> String {
        let difference = change.after - change.before
        return difference > 0 ? "▲ +\(count(difference))" : "▼ −\(count(-difference))"
    }

    /// A median with its interval and the samples it came from, and its
    /// mark: `4.02 ms ▲ slower [3.90 ms–4.10 ms, n=10]`.
    static func timing(_ time: MedianInterval?, change: TrendChange?) -> String {
        guard let time else { return "-" }
        var text = TimeText.seconds(time.median)
        if let change { text += change.isIncrease ? " ▲ slower" : " ▼ faster" }
        return text + " [\(TimeText.seconds(time.low))–\(TimeText.seconds(time.high)), n=\(time.samples)]"
    }

    /// A p-value in 2 significant digits, small ones in scientific form.
    static func pValue(_ p: Double) -> String { p < 0.001 ? String(format: "%.1e", p) : String(format: "%.3f", p) }
}

extension Trend: ReportContentDocument {
    public var content: ReportContent { .trend(self) }
}
