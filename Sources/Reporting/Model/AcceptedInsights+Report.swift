import Insights

extension AcceptedInsights {
    /// Marks every scenario's insights of a report.
    public func mark(_ report: Report) -> Report {
        var marked = report
        for index in marked.scenarios.indices { marked.scenarios[index].insights = mark(marked.scenarios[index].insights) }
        return marked
    }
}
