import Probes

extension InsightRuleID {
    /// A to-many relationship loaded for its count or keys only.
    public static let repeatedCount = InsightRuleID("repeated-count")
}

/// A to-many relationship loaded, a query each, for several objects of one
/// fetch, and none of its destinations ever read: only the count (or the
/// keys) can have been used, which a derived count attribute, or one fetch
/// of the keys, gives without a query per object.
struct RepeatedCountRule: InsightRule {
    var id: InsightRuleID { .repeatedCount }
    var summary: String { "a to-many relationship is loaded for several objects of one fetch and none of its destinations is read" }
    var threshold: InsightThreshold { InsightThreshold(2, counts: "relationship faults for the objects of one run of one fetch") }

    func insights(in evidence: InsightEvidence, threshold: Int) -> [Insight] {
        evidence.lazyLoads.sorted { LazyLoadPath.precedes($0.key, $1.key) }.compactMap { path, loads in
            guard loads.relationshipFaults > 0, loads.objectFaults == 0, Self.destinationsUnread(path, loads, in: evidence) else { return nil }
            let count = loads.relationshipFaults(inExecutionsWithAtLeast: threshold)
            guard count > 0 else { return nil }
            let relationship = "\(path.fetchEntity).\(path.keyPath)"
            return Insight(
                rule: id, entity: path.fetchEntity, keyPath: path.keyPath,
                message: "\(relationship) was loaded \(count) times and none of its \(loads.destinationEntity) objects was read: "
                    + "if only its count is used, a derived count attribute would do; if the IDs are, one fetch of them "
                    + "(a SUBQUERY, or fetchObjectIDs) would",
                evidence: "\(NPlusOneRule.plural(count, "relationship fault")) of \(relationship) for the objects of the fetch at "
                    + "\(path.fetchSite), no fault of \(loads.destinationEntity)",
                callSite: path.fetchSite.description, count: count, costSeconds: Double(loads.nanoseconds) / 1e9)
        }
    }

    /// Whether none of the destinations the relationship faults of `path`
    /// loaded was read. Where the engine reported what became of them (the
    /// fetch usage of the path's destinations, ``FetchUsage/keyPath``), by
    /// that: a destination read anywhere else is not one of these. Where it
    /// did not (a Core Data log), by their entity: no fault of it fired and
    /// no fetch loaded it with its values.
    static func destinationsUnread(_ path: LazyLoadPath, _ loads: LazyLoads, in evidence: InsightEvidence) -> Bool {
        let site = FetchUsage.Site(entity: path.fetchEntity, callSite: path.fetchSite, keyPath: path.keyPath)
        if !path.keyPath.isEmpty, let usage = evidence.fetchUsage[site] { return usage.read == 0 }
        return !evidence.faultedEntities.contains(loads.destinationEntity) && !evidence.fetchedWithValues.contains(loads.destinationEntity)
    }
}
