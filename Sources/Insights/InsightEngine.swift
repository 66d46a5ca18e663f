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
    /// intended as the settings say, and an N+1 or a to-many loaded for
    /// its count intended where its fetch said so
    /// (``InsightEvidence/intendedLazyLoads``).
    public func insights(_ evidence: InsightEvidence) -> [Insight] {
        let accepted = settings.acceptedInsights
        let intendedAtFetch = Set(evidence.intendedLazyLoads.map(Self.intention))
        return Self.rules.flatMap { rule in
            rule.insights(in: evidence, threshold: settings.threshold(for: rule), settings: settings).map { insight in
                var marked = insight
                if accepted.accepts(insight) { marked.accepted = true }
                if let reason = settings.intended[rule.id] {
                    marked.intended = reason
                } else if Self.lazyLoadRules.contains(rule.id), intendedAtFetch.contains(Self.intention(of: insight)) {
                    marked.intended = Self.intendedAtFetch
                }
                return marked
            }
        }
    }

    /// Why an insight a fetch intends is intended.
    public static let intendedAtFetch = "its fetch intends these lazy loads (FetchRequest.intendedLazyLoads)"

    /// The rules whose insights are lazy loads of a fetch's objects, which
    /// a fetch may say it intends.
    static let lazyLoadRules: Set<InsightRuleID> = [.nPlusOne, .repeatedCount]

    /// Intended lazy loads no insight matched, as `Entity.keyPath at
    /// File.swift:line`, sorted: an intention that no longer holds (the
    /// loop was fixed, the key path misspelled) is said, never silent.
    public static func unmatchedIntentions(_ evidence: InsightEvidence, insights: [Insight]) -> [String] {
        let shown = Set(insights.filter { lazyLoadRules.contains($0.rule) }.map(intention(of:)))
        return evidence.intendedLazyLoads.filter { !shown.contains(intention($0)) }
            .map { "\($0.fetchEntity).\($0.keyPath) at \($0.fetchSite)" }.sorted()
    }

    /// An intention as insights name it: entity, key path and fetch site.
    private static func intention(_ path: LazyLoadPath) -> String {
        "\(path.fetchEntity)\u{0}\(path.keyPath)\u{0}\(path.fetchSite)"
    }

    private static func intention(of insight: Insight) -> String {
        "\(insight.entity)\u{0}\(insight.keyPath)\u{0}\(insight.callSite)"
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
