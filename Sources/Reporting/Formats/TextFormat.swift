import ToolSupport

/// Text for a terminal: a run's summary, a comparison's verdicts, a log's
/// tables, a trend's lines.
public enum TextFormat: ReportFormat {
    public static let format = OutputFormat.text
    public static let summary = "text for a terminal"
    public static let documents: Set<ReportContent.Kind> = [.run, .comparison, .log, .trend]

    public static func render(_ content: ReportContent) throws(OutputError) -> String {
        switch content {
        case .run(let report, _): ReportText.console(report)
        case .comparison(let comparison): ComparisonFormat.text(comparison)
        case .log(let log): SQLLogText.render(log.analysis, limit: log.limit)
        case .trend(let trend): TrendText.text(trend)
        }
    }
}
