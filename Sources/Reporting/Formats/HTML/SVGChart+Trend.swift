import Foundation

/// Small charts of a value per commit (``HTMLTrend``): commits evenly
/// along the axis, oldest left, each chart on its own axis. A change point
/// is a vertical line across the chart at its commit and a larger point,
/// red for a regression, green for an improvement, amber for a change.
/// Clamped as every chart here is: values that are not finite are left
/// out, huge ones stay on the chart.
extension SVGChart {
    static let trendWidth = 300
    static let trendHeight = 130
    private static let plot = (left: 64, right: 12, top: 10, bottom: 26)

    /// A line through one value per commit (nil: no value there).
    static func trend(_ values: [Double?], marks: [TrendVerdict?], labels: [String], unit: String) -> String {
        let ranges = values.map { $0.map { (median: $0, low: $0, high: $0) } }
        return trendChart(ranges, marks: marks, labels: labels, unit: unit, band: false)
    }

    /// Medians, with their intervals as a band.
    static func trendMedians(_ values: [(median: Double, low: Double, high: Double)?], marks: [TrendVerdict?], labels: [String]) -> String {
        trendChart(values, marks: marks, labels: labels, unit: "s", band: true)
    }

    /// The colour of a mark.
    static func color(_ verdict: TrendVerdict?) -> String {
        switch verdict {
        case .regression: "#b02a2a"
        case .improvement: "#26734d"
        case .change: "#c08000"
        case nil: "#4a7fb5"
        }
    }

    private static func trendChart(
        _ values: [(median: Double, low: Double, high: Double)?], marks: [TrendVerdict?], labels: [String], unit: String, band: Bool
    ) -> String {
        let finite = values.flatMap { $0.map { [$0.median, $0.low, $0.high] } ?? [] }.filter(\.isFinite)
        guard var low = finite.min(), var high = finite.max() else { return "" }
        if low == high {
            // A flat line sits in the middle.
            let pad = unit == "s" ? (low == 0 ? 1 : abs(low) * 0.1) : Swift.max(1, abs(low) * 0.1)
            (low, high) = (low - pad, high + pad)
            if unit != "s", low < 0, finite.allSatisfy({ $0 >= 0 }) { low = 0 }
            (low, high) = (Swift.max(low, -.greatestFiniteMagnitude), Swift.min(high, .greatestFiniteMagnitude))
        }
        // Fractions are taken in units of the largest magnitude, so that no
        // difference overflows.
        let scale = Swift.max(abs(low), abs(high))
        let (lowScaled, span) = (low / scale, high / scale - low / scale)
        let width = trendWidth - plot.left - plot.right
        let height = trendHeight - plot.top - plot.bottom
        func x(_ index: Int) -> Int {
            values.count == 1 ? plot.left + width / 2 : plot.left + position(Double(index) / Double(values.count - 1), across: width)
        }
        /// Times in the unit that fits (`1.03 ms`), counts whole.
        func text(_ value: Double) -> String { unit == "s" ? TimeText.seconds(value) : format(value, unit) }
        func y(_ value: Double) -> Int {
            plot.top + height - position((value / scale - lowScaled) / span, across: height)
        }
        func mark(_ index: Int) -> TrendVerdict? { index < marks.count ? marks[index] : nil }
        var svg = "<svg class=\"chart trend\" role=\"img\" width=\"\(trendWidth)\" height=\"\(trendHeight)\" "
            + "viewBox=\"0 0 \(trendWidth) \(trendHeight)\" xmlns=\"http://www.w3.org/2000/svg\">"
        svg += "<line x1=\"\(plot.left)\" y1=\"\(plot.top + height)\" x2=\"\(plot.left + width)\" y2=\"\(plot.top + height)\" stroke=\"#bbb\"/>"
        svg += "<line x1=\"\(plot.left)\" y1=\"\(plot.top)\" x2=\"\(plot.left)\" y2=\"\(plot.top + height)\" stroke=\"#bbb\"/>"
        svg += "<text x=\"\(plot.left - 4)\" y=\"\(plot.top + 8)\" font-size=\"10\" text-anchor=\"end\">\(escapeHTML(text(high)))</text>"
        svg += "<text x=\"\(plot.left - 4)\" y=\"\(plot.top + height)\" font-size=\"10\" text-anchor=\"end\">\(escapeHTML(text(low)))</text>"
        if let first = labels.first {
            svg += "<text x=\"\(plot.left)\" y=\"\(trendHeight - 8)\" font-size=\"10\">\(escapeHTML(String(first.prefix(12))))</text>"
        }
        if labels.count > 1, let last = labels.last {
            svg += "<text x=\"\(plot.left + width)\" y=\"\(trendHeight - 8)\" font-size=\"10\" text-anchor=\"end\">"
                + "\(escapeHTML(String(last.prefix(12))))</text>"
        }
        // Runs of commits with a value: the band and the line break where
        // a commit has none.
        var runs: [[Int]] = [[]]
        for (index, value) in values.enumerated() {
            if let value, value.median.isFinite, value.low.isFinite, value.high.isFinite { runs[runs.count - 1].append(index) } else { runs.append([]) }
        }
        runs = runs.filter { !$0.isEmpty }
        if band {
            for run in runs {
                if run.count == 1 {
                    // One commit alone: its interval as a bar.
                    svg += "<line class=\"interval\" x1=\"\(x(run[0]))\" y1=\"\(y(values[run[0]]!.low))\" x2=\"\(x(run[0]))\" "
                        + "y2=\"\(y(values[run[0]]!.high))\" stroke=\"#4a7fb5\" stroke-opacity=\".3\" stroke-width=\"6\"/>"
                    continue
                }
                let upper = run.map { "\(x($0)),\(y(values[$0]!.high))" }
                let lower = run.reversed().map { "\(x($0)),\(y(values[$0]!.low))" }
                svg += "<polygon class=\"interval\" fill=\"#4a7fb5\" fill-opacity=\".25\" stroke=\"none\" "
                    + "points=\"\((upper + lower).joined(separator: " "))\"/>"
            }
        }
        // Change points across the chart.
        for (index, _) in values.enumerated() {
            guard let verdict = mark(index) else { continue }
            svg += "<line class=\"change-point \(verdict.rawValue)\" x1=\"\(x(index))\" y1=\"\(plot.top)\" x2=\"\(x(index))\" "
                + "y2=\"\(plot.top + height)\" stroke=\"\(color(verdict))\" stroke-dasharray=\"3,2\"/>"
        }
        for run in runs where run.count > 1 {
            let points = run.map { "\(x($0)),\(y(values[$0]!.median))" }
            svg += "<polyline fill=\"none\" stroke=\"#4a7fb5\" stroke-width=\"1.5\" points=\"\(points.joined(separator: " "))\"/>"
        }
        for (index, value) in values.enumerated() {
            guard let value, value.median.isFinite else { continue }
            let verdict = mark(index)
            let label = index < labels.count ? labels[index] : ""
            var title = "\(label): \(text(value.median))"
            if band { title += " [\(text(value.low))–\(text(value.high))]" }
            if let verdict { title += ", \(verdict.rawValue)" }
            svg += "<circle cx=\"\(x(index))\" cy=\"\(y(value.median))\" r=\"\(verdict == nil ? 3 : 4)\" fill=\"\(color(verdict))\">"
                + "<title>\(escapeHTML(title))</title></circle>"
        }
        return svg + "</svg>"
    }
}
