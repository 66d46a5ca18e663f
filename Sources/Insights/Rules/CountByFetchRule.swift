import Probes

extension InsightRuleID {
    /// A fetch whose objects are never read: only counted.
    public static let countByFetch = InsightRuleID("count-by-fetch")
}

/// A fetch of objects none of which the application then reads (no
/// property read or set, no fault fired, not deleted, not set as a
/// relationship's value): it can only have counted them, tested whether
/// there are any, or taken their IDs, and a count request
/// (`context.count(for:)`: one `SELECT count(*)`, no rows, no objects) or
/// `fetchObjectIDs` does that without loading them. It reads the fetch
/// usage a context reports when it is reset or released
/// (``FetchUsage``; a Core Data log does not have it).
///
/// Threshold (default 2): objects of one run of the fetch, none of them
/// read. A single object fetched and not read is most often a lookup whose
/// object is passed on by ID or only tested for existence; two or more
/// objects only counted is the pattern.
struct CountByFetchRule: InsightRule {
    var id: InsightRuleID { .countByFetch }
    var summary: String { "a fetch returns objects and the application reads none of them" }
    var threshold: InsightThreshold { InsightThreshold(2, counts: "objects of one run of a fetch, none of them read") }

    func insights(in evidence: InsightEvidence, threshold: Int) -> [Insight] {
        // A fetch's own objects (a to-many's destinations are repeated-count's).
        evidence.fetchUsage.sorted { $0.key < $1.key }.compactMap { site, usage in
            guard site.keyPath.isEmpty else { return nil }
            guard usage.runsReadNone > 0, usage.largestReadNone >= threshold else { return nil }
            let runs = usage.runsReadNone == 1 ? "" : " (in \(usage.runsReadNone) of its \(usage.runs) runs)"
            return Insight(
                rule: id, entity: site.entity, keyPath: "",
                message: "the fetch of \(site.entity) returned \(NPlusOneRule.plural(usage.largestReadNone, "object")) and none was read\(runs): "
                    + "if only their number is used, a count request gives it without loading them (context.count(for: request)); "
                    + "if their IDs, context.fetchObjectIDs(request)",
                evidence: "\(NPlusOneRule.plural(usage.runs, "run")), \(NPlusOneRule.plural(usage.objects, "object")), \(usage.read) read; "
                    + "\(NPlusOneRule.plural(usage.runsReadNone, "run")) read none, up to \(NPlusOneRule.plural(usage.largestReadNone, "object"))",
                callSite: site.callSite.description, count: usage.largestReadNone)
        }
    }
}
