import SQLLogViewer
import ToolSupport
/// A run's report as perf-run writes it: the JSON, the page (with the
/// timeline of the last iterations when their events were kept), the
/// Markdown summary for a CI job, and the console's text (the summary
/// table, the experiments judged, what to fix first).
public struct ReportDocument: Renderable, Sendable {
    public var report: Report
    public var timeline: Timeline?

    public init(_ report: Report, timeline: Timeline? = nil) {
        self.report = report
        self.timeline = timeline
    }

    public var outputFormats: [OutputFormat] { [.json, .html, .markdown, .text] }

    public func render(_ format: OutputFormat) throws(OutputError) -> String {
        switch format {
        case .json: return try json(report)
        case .html: return HTMLReport.render(report, timeline: timeline)
        case .markdown: return ReportMarkdown.render(report)
        case .text: return ReportText.console(report)
        case .swift: throw unsupported(format)
        }
    }
}

extension ReportText {
    /// The console's text of a run: the summary table, the experiments
    /// judged and what to fix first, each followed by a line break.
    public static func console(_ report: Report) -> String {
        var parts = [summaryTable(report)]
        if let experiments = experimentTable(report) { parts.append(experiments) }
        if let fixes = fixFirst(report) { parts.append(fixes) }
        return parts.joined(separator: "\n\n") + "\n"
    }
}

extension ReportComparison: Renderable {
    public var outputFormats: [OutputFormat] { [.text, .markdown, .json, .html] }

    public func render(_ format: OutputFormat) throws(OutputError) -> String {
        switch format {
        case .text: ComparisonFormat.text(self)
        case .markdown: ComparisonFormat.markdown(self)
        case .json: try json(self)
        case .html: HTMLComparison.render(self)
        case .swift: throw unsupported(format)
        }
    }
}

/// A SQL debug log's analysis as `perf-run log` writes it: the text's
/// tables of at most `limit` rows, the JSON (one line per update when
/// followed), the page titled with the log's name.
public struct SQLLogDocument: Renderable, Sendable {
    public var analysis: SQLLogAnalysis
    public var title: String
    public var limit: Int
    /// JSON on one line (a stream of updates) instead of indented.
    public var compactJSON: Bool

    public init(_ analysis: SQLLogAnalysis, title: String, limit: Int = 20, compactJSON: Bool = false) {
        self.analysis = analysis
        self.title = title
        self.limit = limit
        self.compactJSON = compactJSON
    }

    public var outputFormats: [OutputFormat] { [.text, .json, .html] }

    public func render(_ format: OutputFormat) throws(OutputError) -> String {
        switch format {
        case .text: return SQLLogText.render(analysis, limit: limit)
        case .json: return try json(analysis, pretty: !compactJSON)
        case .html: return HTMLLogAnalysis.render(analysis, title: title)
        case .markdown, .swift: throw unsupported(format)
        }
    }
}
