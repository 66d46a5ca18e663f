import ToolSupport

/// GitHub-flavoured Markdown, for a CI job summary or a pull request: a
/// run's summary, a comparison, a trend.
public enum MarkdownFormat: ReportFormat {
    public static let format = OutputFormat.markdown
    public static let summary = "Markdown for a CI job summary or a pull request"
    public static let documents: Set<ReportContent.Kind> = [.run, .comparison, .trend]

    public static func render(_ content: ReportContent) throws(OutputError) -> String {
        switch content {
        case .run(let report, _): return ReportMarkdown.render(report)
        case .comparison(let comparison): return ComparisonFormat.markdown(comparison)
        case .trend(let trend): return TrendText.markdown(trend)
        case .log: throw OutputError(format, reason: "not a format of a log's analysis")
        }
    }
}
