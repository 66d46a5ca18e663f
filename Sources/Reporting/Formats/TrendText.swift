import Foundation
import ToolSupport

/// A trend (``Trend``) as aligned text for a terminal and as Markdown for a
/// CI job summary: per line, a row per commit with the counters that
/// changed somewhere along it and the wall time; the counters that never
/// changed on one line below. Marks: ▲/▼ and the change where an exact
/// counter changed, "slower"/"faster" where a median left the commit
/// before's min–max.
enum TrendText {
    static let legend = "▲/▼: an exact counter changed from the commit before, or a median left the commit before's min–max"

    /// The header's words: where from, which series, how far back.
    static func header(_ trend: Trend) -> String {
        let matched = trend.matchers.isEmpty ? "" : " {\(Trend.labelText(trend.matchers))}"
        return "Faultline trend from \(trend.source)\(matched), last \(trend.since)"
    }

    static func cells(_ line: Trend.Line) -> (header: [String], rows: [[String]], changed: [[Bool]]) {
        let changed = line.changedCounters
        let header = ["commit", "published"] + changed.map(\.name) + ["wall median (min–max, n)"]
        var rows: [[String]] = []
        var marks: [[Bool]] = []
        for (index, commit) in line.commits.enumerated() {
            var row = [Trend.shortCommit(commit.commit), Trend.time(commit.publishedAt)]
            var mark = [false, false]
            for counter in changed {
                let point = counter.points[index]
                row.append(Trend.count(point.value) + (point.change.map { " " + Trend.change($0) } ?? ""))
                mark.append(point.changed)
            }
            let timing = line.timing(of: commit.commit)
            row.append(Trend.timing(timing))
            mark.append(timing?.moved != nil)
            rows.append(row)
            marks.append(mark)
        }
        return (header, rows, marks)
    }

    static func steady(_ line: Trend.Line) -> String? {
        let steady = line.steadyCounters
        guard !steady.isEmpty else { return nil }
        let values = steady.map { counter in "\(counter.name) \(Trend.count(counter.points.lazy.compactMap(\.value).first))" }
        return "same in every commit: " + values.joined(separator: ", ")
    }

    static func text(_ trend: Trend) -> String {
        var lines = [header(trend)]
        for line in trend.lines {
            lines.append("")
            let labels = Trend.labelText(line.labels)
            lines.append("\(line.scenario)\(labels.isEmpty ? "" : "  \(labels)")  (\(line.commits.count) commit\(line.commits.count == 1 ? "" : "s"))")
            let (header, rows, _) = cells(line)
            let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
            for row in [header] + rows {
                let padded = row.enumerated().map { column, cell in
                    column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
                }
                lines.append("  " + padded.joined(separator: "  "))
            }
            if let steady = steady(line) { lines.append("  " + steady) }
        }
        lines.append("")
        lines.append(legend)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every string from the store is escaped (``escapeMarkdown``); commits
    /// are code spans.
    static func markdown(_ trend: Trend) -> String {
        var lines = ["## \(escapeMarkdown(header(trend)))"]
        for line in trend.lines {
            let labels = Trend.labelText(line.labels)
            lines += ["", "### \(escapeMarkdown(line.scenario))\(labels.isEmpty ? "" : " (\(escapeMarkdown(labels)))")", ""]
            let (header, rows, marks) = cells(line)
            lines.append("| " + header.map(escapeMarkdown).joined(separator: " | ") + " |")
            lines.append("|" + String(repeating: " --- |", count: header.count))
            for (row, mark) in zip(rows, marks) {
                let cells = row.enumerated().map { column, cell in
                    let text = column == 0 ? markdownCode(TerminalText.escape(cell), inTable: true) : escapeMarkdown(cell)
                    return mark[column] ? "**\(text)**" : text
                }
                lines.append("| " + cells.joined(separator: " | ") + " |")
            }
            if let steady = steady(line) { lines += ["", escapeMarkdown(steady.prefix(1).uppercased() + steady.dropFirst()) + "."] }
        }
        lines += ["", escapeMarkdown(legend) + "."]
        return lines.joined(separator: "\n") + "\n"
    }
}

extension Trend: ReportContentDocument {
    public var content: ReportContent { .trend(self) }
}
