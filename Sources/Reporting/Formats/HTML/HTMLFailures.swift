/// What went wrong in a run, where a reader looks first: the page's
/// headline (how many scenarios passed, failed and were skipped) and the
/// failures section, each scenario that did not pass with its reason
/// (`stopped: timed out after 0.3 s`) and a link to its section. A run
/// where everything passed has no failures section.
enum HTMLFailures {
    /// The scenarios that did not pass, failed ones first.
    static func scenarios(_ report: Report) -> [ScenarioReport] {
        report.scenarios.filter { $0.status == .failed } + report.scenarios.filter { $0.status == .skipped }
    }

    /// One line under the title: the run's outcome.
    static func headline(_ report: Report) -> String {
        let count = { (status: ScenarioReport.Status) in report.scenarios.filter { $0.status == status }.count }
        let (passed, failed, skipped) = (count(.passed), count(.failed), count(.skipped))
        var text = "\(HTMLFold.count(report.scenarios.count, "scenario")): \(passed) passed"
        if failed > 0 { text += ", \(failed) failed" }
        if skipped > 0 { text += ", \(skipped) skipped" }
        let configuration = report.configuration
        text += "; scale \(configuration.scale), \(HTMLFold.count(configuration.iterations, "measured iteration")) each"
        return "<p class=\"headline\(failed > 0 ? " failed" : "")\">\(escapeHTML(text))</p>"
    }

    /// The section's title: what the scenarios that did not pass did.
    static func title(_ report: Report) -> String {
        let failing = scenarios(report)
        let failed = failing.filter { $0.status == .failed }.count
        return failed == failing.count ? "Failures" : failed == 0 ? "Skipped" : "Failed and skipped"
    }

    /// The section, or "" when every scenario passed.
    static func render(_ report: Report) -> String {
        let failing = scenarios(report)
        guard !failing.isEmpty else { return "" }
        var html = "<section class=\"failures\"><h2>\(title(report)) <span class=\"count\">\(failing.count)</span></h2><ul>"
        for scenario in failing {
            let measured = scenario.samples.isEmpty ? "" : "; \(HTMLFold.count(scenario.samples.count, "iteration")) measured before it stopped"
            html += "<li class=\"\(scenario.status.rawValue)\"><a href=\"#\(HTMLReport.anchor(scenario.name))\">\(escapeHTML(scenario.name))</a> "
                + "<span class=\"status \(scenario.status.rawValue)\">\(escapeHTML(scenario.status.rawValue))</span>: "
                + "<span class=\"reason\">\(escapeHTML((scenario.error ?? "no reason recorded") + measured))</span></li>"
        }
        return html + "</ul></section>"
    }
}
