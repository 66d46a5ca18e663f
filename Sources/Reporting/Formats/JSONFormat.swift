import ToolSupport

/// JSON for other tools: a report (docs/report-schema.md), a comparison, a
/// log's analysis (one line per update when followed), a trend.
public enum JSONFormat: ReportFormat {
    public static let format = OutputFormat.json
    public static let summary = "JSON for other tools"
    public static let documents: Set<ReportContent.Kind> = [.run, .comparison, .log, .trend]

    public static func render(_ content: ReportContent) throws(OutputError) -> String {
        switch content {
        case .run(let report, _): try JSONOutput.text(report)
        case .comparison(let comparison): try JSONOutput.text(comparison)
        case .log(let log): try JSONOutput.text(log.analysis, pretty: !log.compactJSON)
        case .trend(let trend): try JSONOutput.text(trend)
        }
    }
}
