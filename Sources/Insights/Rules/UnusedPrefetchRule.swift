import Probes

extension InsightRuleID {
    /// A prefetched relationship never read.
    public static let unusedPrefetch = InsightRuleID("unused-prefetch")
}

/// A relationship prefetched at one site for some objects and read for
/// none of them (unused eager loading): its queries and rows were for
/// nothing. One insight per site that asked for the prefetch: a screen
/// that reads what it prefetched does not hide another that does not.
struct UnusedPrefetchRule: InsightRule {
    var id: InsightRuleID { .unusedPrefetch }
    var summary: String { "a relationship is prefetched and read for none of the objects" }
    var threshold: InsightThreshold { InsightThreshold(1, counts: "objects the relationship was prefetched for") }

    func insights(in evidence: InsightEvidence, threshold: Int) -> [Insight] {
        // Per site: a prefetch read at one screen says nothing of another
        // screen's prefetch of the same relationship.
        evidence.prefetchUsageBySite.sorted { $0.key < $1.key }.compactMap { site, usage in
            guard usage.prefetched >= threshold, usage.read == 0 else { return nil }
            let key = site.relationship
            let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return nil }
            return Insight(
                rule: id, entity: parts[0], keyPath: parts[1],
                message: "\(key) was prefetched for \(usage.prefetched) objects and read for none; drop `\(parts[1])` from the prefetch key paths",
                evidence: "prefetched=\(usage.prefetched) read=0 in context \(usage.context)", callSite: usage.callSite, count: usage.prefetched)
        }
    }
}
