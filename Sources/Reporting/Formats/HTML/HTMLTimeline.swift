import Foundation
import Probes

/// A timeline of recorded events (kept with `--trace-events`, ``Timeline``):
/// one per scenario, each on its own axis from its first event to its last,
/// one lane per kind that occurs, each slice where it ran. The page's script
/// zooms into a timeline (its buttons) and moves along it (its slider) by
/// narrowing the drawing's view box; without the script the whole span shows.
enum HTMLTimeline {
    static let lanes: [EventKind] = [.fetch, .save, .batchRequest, .relationshipFault, .fault, .sql]
    static let colors: [EventKind: String] = [
        .fetch: "#4a7fb5", .save: "#b5544a", .batchRequest: "#8a6d00", .relationshipFault: "#7a4ab5", .fault: "#4ab58a", .sql: "#999",
    ]
    /// Slices drawn per lane at most, so that the page stays light.
    static let slicesPerLane = 2_000
    static let laneHeight = 18

    /// Every scenario's timeline, each folded under its name (the first open); "" when nothing was timed.
    static func render(_ timeline: Timeline, width: Int = 1000) -> String {
        var html = ""
        let parts = timeline.parts
        for part in parts {
            let drawn = render(part.slices, width: width)
            guard !drawn.html.isEmpty else { continue }
            let title = part.scenario ?? (parts.count == 1 ? "the run" : "after the last scenario's iteration")
            html += HTMLFold.open(title, "\(HTMLFold.count(drawn.count, "event")) over \(TimeText.seconds(drawn.seconds))", class: "timeline", isOpen: html.isEmpty)
                + drawn.html + HTMLFold.close
        }
        return html
    }

    /// One scenario's slices on one axis: the drawing, the events drawn and its span in seconds.
    static func render(_ slices: [Timeline.Slice], width: Int) -> (html: String, count: Int, seconds: Double) {
        let timed = slices.filter { lanes.contains($0.kind) }
        guard let first = timed.map(\.start).min(), let last = timed.map({ $0.start &+ $0.duration }).max(), last > first else {
            return ("", 0, 0)
        }
        let span = Double(last - first)
        let used = lanes.filter { lane in timed.contains { $0.kind == lane } }
        let height = used.count * laneHeight
        let seconds = span / 1e9
        var html = "<div class=\"zoom\" data-seconds=\"\(seconds)\"><button type=\"button\" data-zoom=\"in\" title=\"zoom in\">+</button>"
            + "<button type=\"button\" data-zoom=\"out\" title=\"zoom out\">−</button>"
            + "<button type=\"button\" data-zoom=\"all\" title=\"the whole span\">all</button>"
            + "<input type=\"range\" class=\"pan\" min=\"0\" max=\"1000\" value=\"0\" aria-label=\"where along the timeline\" disabled>"
            + "<span class=\"level\">1×</span></div>"
        html += "<div class=\"lanes\"><div class=\"names\">"
        for lane in used {
            html += "<span style=\"height:\(laneHeight)px;color:\(colors[lane] ?? "#999")\">\(escapeHTML(lane.rawValue))</span>"
        }
        html += "</div><svg class=\"track\" role=\"img\" width=\"100%\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" "
            + "preserveAspectRatio=\"none\" xmlns=\"http://www.w3.org/2000/svg\">"
        for (index, lane) in used.enumerated() {
            let y = index * laneHeight
            let laneSlices = timed.filter { $0.kind == lane }
            let step = max(1, laneSlices.count / slicesPerLane)
            for slice in stride(from: 0, to: laneSlices.count, by: step).map({ laneSlices[$0] }) {
                // In view-box units (a thousandth of the span): a slice too
                // short to see keeps its place, and its stroke, which does
                // not scale, keeps it a pixel wide at any zoom.
                let x = Double(width) * Double(slice.start - first) / span
                let w = Double(width) * Double(slice.duration) / span
                let color = colors[lane] ?? "#999"
                html += "<rect x=\"\(String(format: "%.3f", x))\" y=\"\(y + 3)\" width=\"\(String(format: "%.3f", w))\" height=\"12\" "
                    + "fill=\"\(color)\" stroke=\"\(color)\" stroke-width=\"1\" vector-effect=\"non-scaling-stroke\"/>"
            }
        }
        html += "</svg></div><div class=\"axis\"><span class=\"from\">0</span><span class=\"to\">\(escapeHTML(TimeText.seconds(seconds)))</span></div>"
        return (html, timed.count, seconds)
    }
}
