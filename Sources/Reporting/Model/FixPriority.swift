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
        /// Seconds per iteration the fix was measured to save.
        public var gainSeconds: Double?
        /// Seconds per iteration the pattern took, where no gain was measured.
        public var costSeconds: Double?

        /// The figure the entry ranks by, and whether it was measured.
        public var rankSeconds: Double { gainSeconds ?? costSeconds ?? 0 }
    }

    /// The ranked insights of `report`, at most `limit`.
    public static func rank(_ report: Report, limit: Int = 10) -> [Entry] {
        var entries: [Entry] = []
        for scenario in report.scenarios {
            for insight in scenario.insights where insight.isActionable {
                entries.append(Entry(
                    scenario: scenario.name, insight: insight, gainSeconds: insight.whatIf?.gainSeconds,
                    costSeconds: insight.whatIf?.gainSeconds == nil ? insight.costSeconds : nil))
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

    /// The figure of an entry in words: `saves 512 µs per iteration
    /// (measured)` or `costs up to 0.80 ms per iteration`.
    /// A scan no index can serve says so: `costs 0.80 ms per iteration; no index serves it`.
    public static func figure(_ entry: Entry) -> String {
        let figure: String
        if let gain = entry.gainSeconds {
            figure = "saves \(TimeText.seconds(gain)) per iteration (measured)"
        } else if let cost = entry.costSeconds {
            figure = entry.insight.canBeFixed ? "costs up to \(TimeText.seconds(cost)) per iteration" : "costs \(TimeText.seconds(cost)) per iteration"
        } else {
            figure = "cost not measured"
        }
        return entry.insight.canBeFixed ? figure : figure + "; no index serves it"
    }
}
