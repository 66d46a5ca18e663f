import Probes

/// Core Data's own error and warning lines in a log (`CoreData: error: …`,
/// `CoreData: warning: …`, the unified log's `error:` lines, and the
/// annotation `Disconnecting from sqlite database due to an error`): each
/// is a finding of the log, kept with its line number
/// (``SQLLogAnalysis/findings``), at most ``maximumFindings`` of them, each
/// message kept cut at ``maximumStoredTextBytes``.
extension SQLLogAnalyzer {
    /// Error and warning lines kept at most; later ones are counted
    /// (``SQLLogAnalysis/errorLines``, ``SQLLogAnalysis/warningLines``) and
    /// the limit said.
    public static let maximumFindings = 1_000

    /// Notes one of Core Data's error or warning lines, read at `line`.
    mutating func noteFinding(_ level: SQLDebugLogMessageLevel, _ message: String, line: Int) {
        let kept: SQLLogAnalysis.Finding.Level
        switch level {
        case .error:
            kept = .error
            analysis.errorLines = (analysis.errorLines ?? 0).addingSaturated(1)
        case .warning:
            kept = .warning
            analysis.warningLines = (analysis.warningLines ?? 0).addingSaturated(1)
        }
        guard (analysis.findings?.count ?? 0) < Self.maximumFindings else { return note(.findings) }
        if analysis.findings == nil { analysis.findings = [] }
        analysis.findings!.append(SQLLogAnalysis.Finding(line: line, level: kept, message: keep(message)))
    }
}
