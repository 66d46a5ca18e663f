import Foundation

/// Small inline SVG charts (no script, no network). Values that are not
/// finite, negative where a length is drawn, or so large that the chart's
/// arithmetic would overflow are clamped to the chart's edges: a chart
/// never fails.
enum SVGChart {
    /// Horizontal bars, one per labelled value, scaled to the largest.
    static func bars(_ items: [(label: String, value: Double)], unit: String = "s", width: Int = 560) -> String {
        guard let largest = items.map(\.value).filter(\.isFinite).max(), largest > 0 else { return "" }
        let rowHeight = 22
        let labelWidth = 200
        let barSpace = width - labelWidth - 110
        var svg = "<svg class=\"chart bars\" role=\"img\" width=\"\(width)\" height=\"\(items.count * rowHeight + 6)\" "
            + "viewBox=\"0 0 \(width) \(items.count * rowHeight + 6)\" xmlns=\"http://www.w3.org/2000/svg\">"
        for (index, item) in items.enumerated() {
            let y = index * rowHeight + 3
            // The fraction first: a length times a huge value overflows.
            let length = max(1, position(item.value / largest, across: barSpace))
            svg += "<text x=\"0\" y=\"\(y + 15)\" font-size=\"12\">\(escapeHTML(item.label))</text>"
            svg += "<rect x=\"\(labelWidth)\" y=\"\(y + 3)\" width=\"\(length)\" height=\"15\" fill=\"#4a7fb5\"><title>"
                + "\(escapeHTML(item.label)): \(format(item.value, unit))</title></rect>"
            svg += "<text x=\"\(labelWidth + length + 6)\" y=\"\(y + 15)\" font-size=\"12\">\(escapeHTML(format(item.value, unit)))</text>"
        }
        return svg + "</svg>"
    }

    /// Each iteration's time as a dot on a common axis.
    static func samples(_ values: [Double], width: Int = 560) -> String {
        guard let high = values.filter(\.isFinite).max(), high > 0 else { return "" }
        // The axis is laid out in units of the largest value, so that no
        // step overflows however large the values are.
        let low = values.filter(\.isFinite).map { $0 / high }.min() ?? 0
        let span = Swift.max(1 - low, 0.05)
        let origin = Swift.max(0, low - span * 0.1)
        let range = 1 + span * 0.1 - origin
        var svg = "<svg class=\"chart samples\" role=\"img\" width=\"\(width)\" height=\"40\" viewBox=\"0 0 \(width) 40\" "
            + "xmlns=\"http://www.w3.org/2000/svg\"><line x1=\"10\" y1=\"20\" x2=\"\(width - 10)\" y2=\"20\" stroke=\"#bbb\"/>"
        for (index, value) in values.enumerated() {
            let x = 10 + position((value / high - origin) / range, across: width - 20)
            svg += "<circle cx=\"\(x)\" cy=\"20\" r=\"4\" fill=\"#b5544a\"><title>iteration \(index + 1): \(format(value, "s"))</title></circle>"
        }
        svg += "<text x=\"10\" y=\"38\" font-size=\"10\">\(format(origin * high, "s"))</text>"
        svg += "<text x=\"\(width - 10)\" y=\"38\" font-size=\"10\" text-anchor=\"end\">\(format(Swift.min((origin + range) * high, .greatestFiniteMagnitude), "s"))</text>"
        return svg + "</svg>"
    }

    /// Where `fraction` (0 to 1) of `length` falls, in whole units: a
    /// fraction below 0, above 1 or not a number is clamped to the edges.
    static func position(_ fraction: Double, across length: Int) -> Int {
        guard fraction.isFinite else { return fraction == .infinity ? length : 0 }
        return Int((Swift.min(Swift.max(fraction, 0), 1) * Double(length)).rounded(.down))
    }

    /// A value as a label, in the reports' one unit language: a time
    /// (`unit` "s") as ``TimeText`` writes it, any other value as a count
    /// (``CountText``, whole, in exponent form from 10^15 on); "n/a" when
    /// it is not finite.
    static func format(_ value: Double, _ unit: String) -> String {
        guard value.isFinite else { return "n/a" }
        guard unit == "s" else { return abs(value) < 1e15 ? CountText.count(Int(value.rounded())) : String(format: "%.4g", value) }
        return TimeText.seconds(value)
    }
}
