import SQLLogViewer
import ToolSupport
/// A run's report as perf-run writes it, in every format of
/// ``ReportFormats``: the JSON, the page (with the timeline of the last
/// iterations when their events were kept), the Markdown summary for a CI
/// job, JUnit XML, and the console's text (the summary table, the
/// experiments judged, what to fix first).
public struct ReportDocument: ReportContentDocument, Sendable {
    public var report: Report
    public var timeline: Timeline?

    public init(_ report: Report, timeline: Timeline? = nil) {
        self.report = report
        self.timeline = timeline
    }

    public var content: ReportContent { .run(report, timeline: timeline) }
}

extension ReportText {
    /// The console's text of a run: what to fix first, then the summary
    /// table, the experiments judged, the fixes measured and how the work
    /// grows with the data, each followed by a line break.
    public static func console(_ report: Report) -> String {
        var parts: [String] = []
        if let fixes = fixFirst(report) { parts.append(fixes) }
        parts.append(summaryTable(report))
        if let experiments = experimentTable(report) { parts.append(experiments) }
        if let measured = measuredFixes(report) { parts.append(measured) }
        if let scaling = scaling(report) { parts.append(scaling) }
        return parts.joined(separator: "\n\n") + "\n"
    }
}

extension ReportComparison: ReportContentDocument {
    public var content: ReportContent { .comparison(self) }
}

/// A SQL debug log's analysis as `perf-run log` writes it, in the formats
/// of ``ReportFormats`` that render a log: the text's tables of at most
/// `limit` rows, the JSON (one line per update when followed), the page
/// titled with the log's name.
public struct SQLLogDocument: ReportContentDocument, Sendable {
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

    public var content: ReportContent { .log(self) }
}
