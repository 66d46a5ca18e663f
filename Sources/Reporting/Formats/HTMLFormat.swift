import ToolSupport

/// A self-contained page: a run's report (with its timeline), a
/// comparison, a log's analysis, a trend.
public enum HTMLFormat: ReportFormat {
    public static let format = OutputFormat.html
    public static let summary = "a self-contained HTML page"
    public static let documents: Set<ReportContent.Kind> = [.run, .comparison, .log, .trend]

    public static func render(_ content: ReportContent) throws(OutputError) -> String {
        switch content {
        case .run(let report, let timeline): HTMLReport.render(report, timeline: timeline)
        case .comparison(let comparison): HTMLComparison.render(comparison)
        case .log(let log): HTMLLogAnalysis.render(log.analysis, title: log.title)
        case .trend(let trend): HTMLTrend.render(trend)
        }
    }
}
