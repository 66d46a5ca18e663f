import Foundation
import Probes

/// A timeline of recorded events (kept with `--trace-events`, ``Timeline``): one lane per
/// kind, each slice where it ran, relative to the first event.
enum HTMLTimeline {
    static let lanes: [EventKind] = [.fetch, .save, .batchRequest, .relationshipFault, .fault, .sql]

    static func render(_ timeline: Timeline, width: Int = 1000) -> String {
        let timed = timeline.slices.filter { lanes.contains($0.kind) }
        guard let first = timed.map(\.start).min(), let last = timed.map({ $0.start &+ $0.duration }).max(), last > first else {
            return ""
        }
        let span = Double(last - first)
        let laneHeight = 18
        let left = 130
        var svg = "<svg class=\"chart timeline\" role=\"img\" width=\"\(width)\" height=\"\(lanes.count * laneHeight + 20)\" "
            + "viewBox=\"0 0 \(width) \(lanes.count * laneHeight + 20)\" xmlns=\"http://www.w3.org/2000/svg\">"
        let colors: [EventKind: String] = [.fetch: "#4a7fb5", .save: "#b5544a", .batchRequest: "#8a6d00", .relationshipFault: "#7a4ab5",
                                           .fault: "#4ab58a", .sql: "#999"]
        for (index, lane) in lanes.enumerated() {
            let y = index * laneHeight
            svg += "<text x=\"0\" y=\"\(y + 13)\" font-size=\"11\">\(escapeHTML(lane.rawValue))</text>"
            // At most 2,000 slices a lane, so that the page stays light.
            let slices = timed.filter { $0.kind == lane }
            let step = max(1, slices.count / 2_000)
            for slice in stride(from: 0, to: slices.count, by: step).map({ slices[$0] }) {
                let x = left + Int(Double(width - left - 10) * Double(slice.start - first) / span)
                let w = max(1, Int(Double(width - left - 10) * Double(slice.duration) / span))
                svg += "<rect x=\"\(x)\" y=\"\(y + 3)\" width=\"\(w)\" height=\"12\" fill=\"\(colors[lane] ?? "#999")\"/>"
            }
        }
        svg += "<text x=\"\(left)\" y=\"\(lanes.count * laneHeight + 15)\" font-size=\"10\">0</text>"
        svg += "<text x=\"\(width - 10)\" y=\"\(lanes.count * laneHeight + 15)\" font-size=\"10\" text-anchor=\"end\">"
            + "\(escapeHTML(SVGChart.format(span / 1e9, "s")))</text>"
        return svg + "</svg>"
    }
}
