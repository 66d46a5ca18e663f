import Foundation

/// Small charts of a value per commit (``HTMLTrend``): commits evenly
/// along the axis, oldest left; marked points in red. Clamped as every
/// chart here is: values that are not finite are left out, huge ones stay
/// on the chart.
extension SVGChart {
    static let trendWidth = 300
    static let trendHeight = 130
    private static let plot = (left: 64, right: 12, top: 10, bottom: 26)

    /// A line through one value per commit (nil: no value there).
    static func trend(_ values: [Double?], marked: [Bool], labels: [String], unit: String) -> String {
        let ranges = values.map { $0.map { (median: $0, low: $0, high: $0) } }
        return trendChart(ranges, marked: marked, labels: labels, unit: unit, whiskers: false)
    }

    /// A median with its min–max per commit.
    static func trendRanges(_ values: [(median: Double, low: Double, high: Double)?], marked: [Bool], labels: [String]) -> String {
        trendChart(values, marked: marked, labels: labels, unit: "s", whiskers: true)
    }

    private static func trendChart(
        _ values: [(median: Double, low: Double, high: Double)?], marked: [Bool], labels: [String], unit: String, whiskers: Bool
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
        // The line, broken where a commit has no value.
        var segment: [String] = []
        func flush() {
            if segment.count > 1 { svg += "<polyline fill=\"none\" stroke=\"#4a7fb5\" stroke-width=\"1.5\" points=\"\(segment.joined(separator: " "))\"/>" }
            segment = []
        }
        for (index, value) in values.enumerated() {
            guard let value, value.median.isFinite else {
                flush()
                continue
            }
            segment.append("\(x(index)),\(y(value.median))")
        }
        flush()
        for (index, value) in values.enumerated() {
            guard let value, value.median.isFinite else { continue }
            let isMarked = index < marked.count && marked[index]
            let color = isMarked ? "#b02a2a" : "#4a7fb5"
            if whiskers, value.low.isFinite, value.high.isFinite {
                svg += "<line x1=\"\(x(index))\" y1=\"\(y(value.low))\" x2=\"\(x(index))\" y2=\"\(y(value.high))\" stroke=\"\(color)\" stroke-width=\"2\" opacity=\".5\"/>"
            }
            let label = index < labels.count ? labels[index] : ""
            var title = "\(label): \(text(value.median))"
            if whiskers { title += " (\(text(value.low))–\(text(value.high)))" }
            svg += "<circle cx=\"\(x(index))\" cy=\"\(y(value.median))\" r=\"\(isMarked ? 4 : 3)\" fill=\"\(color)\"><title>\(escapeHTML(title))</title></circle>"
        }
        return svg + "</svg>"
    }
}
