import Insights
/// "What to fix first": a run's insights to act on, ranked by what fixing
/// each saves. An insight whose fix was measured (`--what-if`) ranks by its
/// measured gain, ahead of the others; the others by their cost (the time
/// the pattern took, an upper bound of the gain). What no change can fix
/// (a scan no index can serve, ``Insight/noIndexServes``) ranks below
/// everything that can be fixed, whatever its cost. Insights that are
/// accepted, done on purpose, or whose fix was measured not to help are
/// left out: advice that does not help is not given.
public enum FixPriority {
    /// One insight in the ranking.
    public struct Entry: Equatable, Sendable {
        public var scenario: String
        public var insight: Insight
        /// Seconds per iteration the fix was measured to save, at most the
        /// scenario's median time per iteration.
        public var gainSeconds: Double?
        /// Seconds per iteration the pattern took, where no gain was
        /// measured, at most the scenario's median time per iteration.
        public var costSeconds: Double?
        /// The scenario's median wall time per iteration, which bounds both;
        /// nil when it has no samples.
        public var scenarioSeconds: Double?

        /// The figure the entry ranks by, and whether it was measured.
        public var rankSeconds: Double { gainSeconds ?? costSeconds ?? 0 }
    }

    /// The ranked insights of `report`, at most `limit`.
    public static func rank(_ report: Report, limit: Int = 10) -> [Entry] {
        var entries: [Entry] = []
        for scenario in report.scenarios {
            let median = scenario.samples.isEmpty ? nil : Statistics(scenario.samples.map(\.wallSeconds)).median
            for insight in scenario.insights where insight.isActionable {
                let gain = insight.whatIf?.gainSeconds
                entries.append(Entry(
                    scenario: scenario.name, insight: insight, gainSeconds: gain.map { within($0, median) },
                    costSeconds: gain == nil ? insight.costSeconds.map { within($0, median) } : nil, scenarioSeconds: median))
            }
        }
        entries.sort { a, b in
            if a.insight.canBeFixed != b.insight.canBeFixed { return a.insight.canBeFixed }
            if (a.gainSeconds != nil) != (b.gainSeconds != nil) { return a.gainSeconds != nil }
            if a.rankSeconds != b.rankSeconds { return a.rankSeconds > b.rankSeconds }
            return (a.scenario, a.insight.identity) < (b.scenario, b.insight.identity)
        }
        return Array(entries.prefix(limit))
    }

    /// A time per iteration no more than the iteration takes: removing a
    /// pattern cannot save more than the whole iteration (statement time
    /// summed over threads, or measured in a slower iteration, can exceed it).
    static func within(_ seconds: Double, _ median: Double?) -> Double {
        guard let median, median.isFinite else { return seconds }
        return min(seconds, median)
    }

    /// What kind of figure an entry shows.
    public enum Figure: Sendable, CaseIterable {
        /// A gain measured with the fix applied.
        case saves
        /// The pattern's time, the most a fix could save.
        case costsUpTo
        /// The pattern's time where no index serves it.
        case costs
        /// Neither was measured.
        case notMeasured

        /// The figure's word defined in one sentence, shown next to it.
        public var definition: String {
            switch self {
            case .saves:
                "saves: the scenario's median time per iteration as it is less its median with the fix applied, both measured in the same run (--what-if)"
            case .costsUpTo:
                "costs up to: the time the pattern's statements took in the judged iteration, at most the scenario's median time per "
                    + "iteration: the most a fix could save, not a saving measured"
            case .costs:
                "costs: the time the pattern's statements took in the judged iteration, which no index can shorten"
            case .notMeasured:
                "cost not measured: the pattern's statements were not timed"
            }
        }
    }

    /// The kind of figure `entry` shows.
    public static func kind(_ entry: Entry) -> Figure {
        if entry.gainSeconds != nil { return .saves }
        if entry.costSeconds != nil { return entry.insight.canBeFixed ? .costsUpTo : .costs }
        return .notMeasured
    }

    /// The definitions of the kinds of figure `entries` show, once each,
    /// in the order of ``Figure``.
    public static func definitions(_ entries: [Entry]) -> [String] {
        let kinds = Set(entries.map(kind))
        return Figure.allCases.filter(kinds.contains).map(\.definition)
    }

    /// The figure of an entry in words: `saves 512 µs per iteration
    /// (measured)` or `costs up to 0.80 ms per iteration`.
    /// A scan no index can serve says so: `costs 0.80 ms per iteration; no index serves it`.
    public static func figure(_ entry: Entry) -> String {
        let figure = switch kind(entry) {
        case .saves: "saves \(TimeText.seconds(entry.gainSeconds ?? 0)) per iteration (measured)"
        case .costsUpTo: "costs up to \(TimeText.seconds(entry.costSeconds ?? 0)) per iteration"
        case .costs: "costs \(TimeText.seconds(entry.costSeconds ?? 0)) per iteration"
        case .notMeasured: "cost not measured"
        }
        return entry.insight.canBeFixed ? figure : figure + "; no index serves it"
    }
}
