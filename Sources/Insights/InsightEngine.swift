import Probes

/// Runs every insight rule (``rules``) over evidence, with the thresholds,
/// intentions and accepted list of its ``InsightSettings``: the one place
/// insights are made, for a run's report, `Faultline.measure` and
/// `perf-run log` alike.
public struct InsightEngine: Sendable {
    public var settings: InsightSettings

    public init(settings: InsightSettings = InsightSettings()) {
        self.settings = settings
    }

    /// Every rule, by identity (the build lists the files of Insights/Rules/).
    public static let rules: [any InsightRule] = declared.sorted { $0.id < $1.id }

    /// The rule with this identity.
    public static func rule(_ id: InsightRuleID) -> (any InsightRule)? {
        rules.first { $0.id == id }
    }

    /// The insights of the evidence, rule by rule, each marked accepted or
    /// intended as the settings say.
    public func insights(_ evidence: InsightEvidence) -> [Insight] {
        let accepted = settings.acceptedInsights
        return Self.rules.flatMap { rule in
            rule.insights(in: evidence, threshold: settings.threshold(for: rule), settings: settings).map { insight in
                var marked = insight
                if accepted.accepts(insight) { marked.accepted = true }
                if let reason = settings.intended[rule.id] { marked.intended = reason }
                return marked
            }
        }
    }

    /// The insights of a list of events (a test's, a log's).
    public func insights(_ events: [Event]) -> [Insight] {
        insights(InsightEvidence(events))
    }
}

/// The rules with their default thresholds, as before thresholds were data.
@available(*, deprecated, message: "use InsightEngine, whose InsightSettings set thresholds per rule")
public struct InsightRules: Sendable {
    public init() {}

    /// Rules that knew which columns have an index: the engine's events say it now.
    public init(indexedColumns: Set<String>) {}

    public func analyze(_ events: [Event]) -> [Insight] { InsightEngine().insights(events) }
    public func analyze(_ evidence: InsightEvidence) -> [Insight] { InsightEngine().insights(evidence) }
}
