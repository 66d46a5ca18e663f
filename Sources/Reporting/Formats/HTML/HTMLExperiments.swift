import Foundation

/// The book's experiments on the report page: one chart, a row per
/// experiment on one log-scale axis of ratios, the book's ratio (a hollow
/// diamond) against the one measured here (a dot, with its 95% interval
/// as a bar), coloured by the verdict; under each row, what happened here
/// in one sentence (``ExperimentReport/mechanism``) and, where the
/// recommended way saves statements, from which cost per statement it wins
/// (``StatementBreakEven``). A folded table keeps every figure and reason.
extension HTMLReport {
    static func experiments(_ report: Report) -> String {
        guard let experiments = report.experiments, !experiments.isEmpty else { return "" }
        let axis = HTMLExperiments.Axis(experiments)
        var html = "<section class=\"experiments\"><style>\(HTMLExperiments.style)</style><h2>The book's experiments</h2>"
            + "<p class=\"stats\">\(escapeHTML(HTMLExperiments.readingNote))</p>"
            + "<figure class=\"experiments-chart\">\(HTMLExperiments.axisRow(axis))"
        for experiment in experiments { html += HTMLExperiments.row(experiment, axis: axis) }
        html += "</figure>" + HTMLExperiments.table(experiments) + "</section>"
        return html
    }
}

enum HTMLExperiments {
    /// The colour of each verdict, in the chart and the table.
    static func color(_ verdict: ExperimentVerdict) -> String {
        switch verdict {
        case .reproduced: "#26734d"
        case .weaker: "#8a6d00"
        case .absent: "#777777"
        case .inverted: "#b02a2a"
        }
    }

    static let readingNote = "Each row: ◇ the book's ratio, ● the ratio measured here with its 95% interval, on a log scale; "
        + "the colour is the verdict (reproduced green, weaker amber, absent grey, inverted red). "
        + ExperimentReport.ratioNote.prefix(1).uppercased() + ExperimentReport.ratioNote.dropFirst() + "."

    static let style = """
        .experiments-chart{margin:.5em 0}.experiment-row{margin:.2em 0 .9em}.experiment-row h3{margin:.2em 0;font-size:1em}
        .experiment-row svg,.experiments-chart svg.axis{display:block;width:100%;max-width:640px;height:auto}
        .experiment-row .ratios{font-weight:normal;color:#555;font-size:12px}.experiment-row p{margin:.15em 0;max-width:640px}
        .experiment-row .mechanism{font-size:13px}.experiment-row .break-even{font-size:13px;color:#333}
        """

    /// The chart's width and its plot's edges, in SVG units.
    static let width = 640
    static let plot = (left: 12, right: 628)

    /// A log-scale axis over every ratio shown, 1 included, from a power of
    /// ten to a power of ten.
    struct Axis {
        let low: Double
        let high: Double

        init(_ experiments: [ExperimentReport]) {
            let ratios = experiments.flatMap { [$0.sourceRatio, $0.measuredRatio, $0.ratioInterval?.first, $0.ratioInterval?.last] }
                .compactMap { $0 }.filter { $0.isFinite && $0 > 0 } + [1]
            let exponents = ratios.map { log10($0) }
            low = pow(10, (exponents.min()! - 0.05).rounded(.down))
            high = pow(10, (exponents.max()! + 0.05).rounded(.up))
        }

        /// Where `ratio` falls across the plot; a ratio off the axis, or not
        /// a number, sits at its edge.
        func x(_ ratio: Double) -> Int {
            let span = plot.right - plot.left
            guard ratio > 0 else { return plot.left }
            return plot.left + SVGChart.position((log10(ratio) - log10(low)) / (log10(high) - log10(low)), across: span)
        }

        /// The powers of ten from low to high.
        var ticks: [Double] {
            let (first, last) = (Int(log10(low).rounded()), Int(log10(high).rounded()))
            return (first...max(first, last)).map { pow(10, Double($0)) }
        }
    }

    /// A ratio as an axis label: `0.1x`, `1x`, `100x`.
    static func tick(_ value: Double) -> String { value >= 1 ? String(format: "%.0fx", value) : String(format: "%gx", value) }

    static func axisRow(_ axis: Axis) -> String {
        var svg = "<svg class=\"chart axis\" role=\"img\" aria-label=\"ratio axis, log scale\" width=\"\(width)\" height=\"22\" "
            + "viewBox=\"0 0 \(width) 22\" xmlns=\"http://www.w3.org/2000/svg\">"
        for tick in axis.ticks {
            let x = axis.x(tick)
            let anchor = x <= plot.left ? "start" : x >= plot.right ? "end" : "middle"
            svg += "<text x=\"\(x)\" y=\"12\" font-size=\"11\" text-anchor=\"\(anchor)\"\(tick == 1 ? " font-weight=\"bold\"" : "")>"
                + "\(escapeHTML(self.tick(tick)))</text><line x1=\"\(x)\" y1=\"15\" x2=\"\(x)\" y2=\"22\" stroke=\"#bbb\"/>"
        }
        return svg + "</svg>"
    }

    /// One experiment: its name and figures, its row on the axis, and
    /// under it what happened here and the break-even.
    static func row(_ experiment: ExperimentReport, axis: Axis) -> String {
        let color = color(experiment.verdict)
        var html = "<div class=\"experiment-row verdict-\(experiment.verdict.rawValue)\"><h3 title=\"\(escapeHTML("The book: " + experiment.lesson))\">"
            + "\(escapeHTML(experiment.name)) "
            + "<span class=\"verdict\" style=\"color:\(color)\">\(escapeHTML(experiment.verdict.rawValue))</span> <span class=\"ratios\">"
        if experiment.sourceRatio != nil {
            html += escapeHTML("book \(experiment.sourceRatioText) · here \(experiment.measuredRatioText)")
        } else {
            html += "a behaviour, not a timing"
        }
        html += "</span></h3>" + plotRow(experiment, axis: axis)
        // The mechanism, then the break-even (``ExperimentReport/lessonSentences``).
        for (sentence, kind) in zip(experiment.lessonSentences, ["mechanism", "break-even"]) {
            html += "<p class=\"\(kind)\">\(escapeHTML(sentence))</p>"
        }
        return html + "</div>"
    }

    /// The row's marks on the axis: gridlines at the powers of ten (1
    /// darker), the interval, the measured dot, the book's diamond.
    static func plotRow(_ experiment: ExperimentReport, axis: Axis) -> String {
        let color = color(experiment.verdict)
        var svg = "<svg class=\"chart experiment\" role=\"img\" aria-label=\"\(escapeHTML(experiment.name))\" width=\"\(width)\" height=\"22\" "
            + "viewBox=\"0 0 \(width) 22\" xmlns=\"http://www.w3.org/2000/svg\">"
        for tick in axis.ticks {
            let x = axis.x(tick)
            svg += "<line x1=\"\(x)\" y1=\"0\" x2=\"\(x)\" y2=\"22\" stroke=\"\(tick == 1 ? "#888" : "#e3e3e3")\"/>"
        }
        guard let measured = experiment.measuredRatio else {
            // A behaviour: a band in the verdict's colour, no ratio.
            return svg + "<rect x=\"\(plot.left)\" y=\"9\" width=\"\(plot.right - plot.left)\" height=\"4\" fill=\"\(color)\" fill-opacity=\".35\">"
                + "<title>\(escapeHTML("\(experiment.name): \(experiment.verdict.rawValue)"))</title></rect></svg>"
        }
        if let interval = experiment.ratioInterval, interval.count == 2 {
            let (a, b) = (axis.x(interval[0]), axis.x(interval[1]))
            svg += "<line class=\"interval\" x1=\"\(a)\" y1=\"11\" x2=\"\(max(b, a + 1))\" y2=\"11\" stroke=\"\(color)\" stroke-width=\"5\" "
                + "stroke-opacity=\".45\"><title>\(escapeHTML("95% interval \(ExperimentReport.ratio(interval[0]))–\(ExperimentReport.ratio(interval[1]))"))"
                + "</title></line>"
        }
        let x = axis.x(measured)
        svg += "<circle class=\"measured\" cx=\"\(x)\" cy=\"11\" r=\"5\" fill=\"\(color)\"><title>"
            + "\(escapeHTML("measured here: \(experiment.measuredRatioText)"))</title></circle>"
        if let source = experiment.sourceRatio {
            let b = axis.x(source)
            svg += "<polygon class=\"book\" points=\"\(b),4 \(b + 7),11 \(b),18 \(b - 7),11\" fill=\"none\" stroke=\"#222\" stroke-width=\"1.5\">"
                + "<title>\(escapeHTML("the book: \(experiment.sourceRatioText)"))</title></polygon>"
        }
        return svg + "</svg>"
    }

    /// Every figure and reason, folded: the book's figures with their own
    /// precision, this run's medians, both ratios, the verdict and why.
    static func table(_ experiments: [ExperimentReport]) -> String {
        var html = "<details class=\"experiment-details\"><summary>Figures and reasons</summary>"
            + "<table class=\"sortable\" id=\"experiments\"><thead><tr><th>experiment</th><th>book</th><th>measured (95% interval)</th>"
            + "<th>verdict</th><th>what the book teaches, and why this run agrees or not</th></tr></thead><tbody>"
        for experiment in experiments {
            var sides = ""
            if let text = experiment.sidesText {
                sides = "<br><span class=\"evidence\">\(escapeHTML(text))</span>"
            } else if let expectation = experiment.expectation {
                sides = "<br><span class=\"evidence\">" + escapeHTML("expected: " + expectation) + "</span>"
            }
            html += "<tr class=\"verdict-\(experiment.verdict.rawValue)\"><td>\(escapeHTML(experiment.name))</td>"
                + "<td data-value=\"\(experiment.sourceRatio ?? 0)\">\(escapeHTML(experiment.sourceRatioText))</td>"
                + "<td data-value=\"\(experiment.measuredRatio ?? 0)\">\(escapeHTML(experiment.measuredRatioText))</td>"
                + "<td class=\"verdict\">\(escapeHTML(experiment.verdict.rawValue))</td>"
                + "<td><strong>\(escapeHTML(experiment.lesson))</strong>\(sides)<br>\(escapeHTML(experiment.reason))"
                + "<br><span class=\"site\">\(escapeHTML(experiment.source)). \(escapeHTML(experiment.sourceSetting)).</span></td></tr>"
        }
        return html + "</tbody></table></details>"
    }
}
