import Foundation

/// Small inline SVG charts (no script, no network).
enum SVGChart {
    /// Horizontal bars, one per labelled value, scaled to the largest.
    static func bars(_ items: [(label: String, value: Double)], unit: String = "s", width: Int = 560) -> String {
        guard let largest = items.map(\.value).max(), largest > 0 else { return "" }
        let rowHeight = 22
        let labelWidth = 200
        let barSpace = width - labelWidth - 110
        var svg = "<svg class=\"chart bars\" role=\"img\" width=\"\(width)\" height=\"\(items.count * rowHeight + 6)\" "
            + "viewBox=\"0 0 \(width) \(items.count * rowHeight + 6)\" xmlns=\"http://www.w3.org/2000/svg\">"
        for (index, item) in items.enumerated() {
            let y = index * rowHeight + 3
            let length = max(1, Int(Double(barSpace) * item.value / largest))
            svg += "<text x=\"0\" y=\"\(y + 15)\" font-size=\"12\">\(escapeHTML(item.label))</text>"
            svg += "<rect x=\"\(labelWidth)\" y=\"\(y + 3)\" width=\"\(length)\" height=\"15\" fill=\"#4a7fb5\"><title>"
                + "\(escapeHTML(item.label)): \(format(item.value, unit))</title></rect>"
            svg += "<text x=\"\(labelWidth + length + 6)\" y=\"\(y + 15)\" font-size=\"12\">\(escapeHTML(format(item.value, unit)))</text>"
        }
        return svg + "</svg>"
    }

    /// Each iteration's time as a dot on a common axis.
    static func samples(_ values: [Double], width: Int = 560) -> String {
        guard let high = values.max(), high > 0 else { return "" }
        let low = values.min() ?? 0
        let span = max(high - low, high * 0.05)
        let origin = max(0, low - span * 0.1)
        let range = high + span * 0.1 - origin
        var svg = "<svg class=\"chart samples\" role=\"img\" width=\"\(width)\" height=\"40\" viewBox=\"0 0 \(width) 40\" "
            + "xmlns=\"http://www.w3.org/2000/svg\"><line x1=\"10\" y1=\"20\" x2=\"\(width - 10)\" y2=\"20\" stroke=\"#bbb\"/>"
        for (index, value) in values.enumerated() {
            let x = 10 + Int(Double(width - 20) * (value - origin) / range)
            svg += "<circle cx=\"\(x)\" cy=\"20\" r=\"4\" fill=\"#b5544a\"><title>iteration \(index + 1): \(format(value, "s"))</title></circle>"
        }
        svg += "<text x=\"10\" y=\"38\" font-size=\"10\">\(format(origin, "s"))</text>"
        svg += "<text x=\"\(width - 10)\" y=\"38\" font-size=\"10\" text-anchor=\"end\">\(format(origin + range, "s"))</text>"
        return svg + "</svg>"
    }

    static func format(_ value: Double, _ unit: String) -> String {
        unit == "s" ? String(format: value < 0.01 ? "%.6f s" : "%.4f s", value) : String(format: "%.0f", value)
    }
}
