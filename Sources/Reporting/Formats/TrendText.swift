import Foundation
import ToolSupport

/// A trend (``Trend``) as aligned text for a terminal and as Markdown for a
/// CI job summary: a headline counting the changes; per line, a row per
/// commit with the counters that changed somewhere along it and the median
/// wall time with its interval, then each change marked on it, said as a
/// regression, an improvement or a change.
enum TrendText {
    static let legend = "▲ slower or more, ▼ faster or fewer. A wall time is marked where the level of its commits moved beyond the line's own "
        + "noise (the larger of the floor and a multiple of the commit-to-commit spread) with a Mann-Whitney p below the significance; "
        + "an exact counter at any change. Regression: slower, or more of a cost (statements, rows, faults); improvement: the other way; "
        + "change: a counter that is no cost by itself."

    /// Where from, what was asked.
    static func header(_ trend: Trend) -> String {
        var asked: [String] = []
        let window = trend.window
        if let project = window.project { asked.append("project \(project)") }
        if let branch = window.branch { asked.append("branch \(branch)") }
        if let runner = window.runner { asked.append("runner \(runner)") }
        if let since = window.since { asked.append("since \(TrendTime.text(since))") }
        return "Faultline trend from \(trend.source)" + (asked.isEmpty ? "" : ": " + asked.joined(separator: ", "))
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

    static func cells(_ line: Trend.Line) -> (header: [String], rows: [[String]], marks: [[TrendVerdict?]]) {
        let changed = line.changedCounters
        let header = ["commit", "first run"] + changed.map(\.name) + ["wall median [interval, n]"]
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
            let change = line.change(of: .wallTime, at: commit.commit)
            row.append(timing(commit.wall, change: change))
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

    /// A change in words: `▲ b2b2b2b2b2b2 wall time slower: 2.00 ms → 4.02 ms (×2.01, p=0.0001), a regression`.
    static func describe(_ change: TrendChange) -> String {
        let arrow = change.isIncrease ? "▲" : "▼"
        var text = "\(arrow) \(shortCommit(change.commit)) "
        switch change.measure {
        case .wallTime:
            text += "wall time \(change.isIncrease ? "slower" : "faster"): \(TimeText.seconds(change.before)) → \(TimeText.seconds(change.after))"
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
    static func noise(_ line: Trend.Line) -> String {
        let floor = "a wall time is marked from ×" + String(format: "%.2f", line.minimumEffect)
        guard let noise = line.noise else { return floor + " (too few commits to measure the noise)" }
        return floor + " (commit-to-commit noise ±" + String(format: "%.1f", (exp(noise) - 1) * 100) + "%)"
    }

    static func text(_ trend: Trend) -> String {
        var lines = [header(trend), headline(trend)]
        for line in trend.lines {
            lines.append("")
            lines.append("\(title(line))  (\(line.commits.count) commit\(line.commits.count == 1 ? "" : "s"))")
            let (header, rows, _) = cells(line)
            let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
            for row in [header] + rows {
                let padded = row.enumerated().map { column, cell in
                    column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
                }
                lines.append("  " + padded.joined(separator: "  "))
            }
            if let steady = steady(line) { lines.append("  " + steady) }
            lines.append("  " + noise(line))
            for change in line.changes { lines.append("  " + describe(change)) }
        }
        lines.append("")
        lines.append(legend)
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
            let (header, rows, marks) = cells(line)
            lines.append("| " + header.map(escapeMarkdown).joined(separator: " | ") + " |")
            lines.append("|" + String(repeating: " --- |", count: header.count))
            for (row, mark) in zip(rows, marks) {
                let cells = row.enumerated().map { column, cell in
                    let text = column == 0 ? markdownCode(TerminalText.escape(cell), inTable: true) : escapeMarkdown(cell)
                    return mark[column] != nil ? "**\(text)**" : text
                }
                lines.append("| " + cells.joined(separator: " | ") + " |")
            }
            var notes = [noise(line)]
            if let steady = steady(line) { notes.insert(steady, at: 0) }
            lines += ["", escapeMarkdown(notes.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: ". ")) + "."]
        }
        lines += ["", escapeMarkdown(legend)]
        return lines.joined(separator: "\n") + "\n"
    }

    /// A commit as people read it: 12 characters of a full hash, any
    /// other name whole.
    static func shortCommit(_ commit: String) -> String {
        commit.count == 40 && commit.allSatisfy(\.isHexDigit) ? String(commit.prefix(12)) : commit
    }

    /// A counter's value: whole numbers without a fraction; "-" for none.
    static func count(_ value: Int?) -> String { value.map(String.init) ?? "-" }

    static func count(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        return value == value.rounded() && abs(value) < 9.0e15 ? String(Int64(value)) : String(value)
    }

    /// A counter's change with its sign and mark (`▲ +1`, `▼ −2`).
    static func delta(_ change: TrendChange) -> String {
        let difference = change.after - change.before
        return difference > 0 ? "▲ +\(count(difference))" : "▼ −\(count(-difference))"
    }

    /// A median with its interval and the samples it came from, and its
    /// mark: `4.02 ms ▲ slower [3.90 ms–4.10 ms, n=10]`.
    static func timing(_ wall: MedianInterval?, change: TrendChange?) -> String {
        guard let wall else { return "-" }
        var text = TimeText.seconds(wall.median)
        if let change { text += change.isIncrease ? " ▲ slower" : " ▼ faster" }
        return text + " [\(TimeText.seconds(wall.low))–\(TimeText.seconds(wall.high)), n=\(wall.samples)]"
    }

    /// A p-value in 2 significant digits, small ones in scientific form.
    static func pValue(_ p: Double) -> String { p < 0.001 ? String(format: "%.1e", p) : String(format: "%.3f", p) }
}

extension Trend: ReportContentDocument {
    public var content: ReportContent { .trend(self) }
}
