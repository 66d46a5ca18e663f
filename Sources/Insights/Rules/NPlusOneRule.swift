import Probes

extension InsightRuleID {
    /// Objects of one fetch each loading something with a query of their own.
    public static let nPlusOne = InsightRuleID("n-plus-one")
}

/// N+1, found by pattern as Bullet and nplusone find it: several objects
/// that came from one run of a fetch each load a relationship (a to-one's
/// object, a to-many's destinations) or their own values with a query of
/// their own. No absolute count is needed: three posts reading their
/// authors one by one are enough. The fix is to load them with the fetch:
/// prefetch the key path that led there, or load the values.
///
/// One insight per fetch site, entity and key path: two screens that load
/// the same key path one by one are two insights (one may be accepted, the
/// other a regression). Re-reads of rows a staleness interval made stale are
/// left out (a prefetch would not save them), and so are relationship
/// faults whose destinations are never read (``RepeatedCountRule``'s
/// advice fits those).
struct NPlusOneRule: InsightRule {
    var id: InsightRuleID { .nPlusOne }
    var summary: String { "objects of one fetch each load a relationship or their values with a query of their own" }
    var threshold: InsightThreshold { InsightThreshold(2, counts: "lazy loads of one kind for the objects of one run of one fetch") }

    func insights(in evidence: InsightEvidence, threshold: Int) -> [Insight] {
        var groups: [String: (path: LazyLoadPath, sites: [CallSite], total: LazyLoads, count: Int, executions: Int)] = [:]
        for (path, loads) in evidence.lazyLoads.sorted(by: { LazyLoadPath.precedes($0.key, $1.key) }) {
            let (count, executions) = loads.loads(inExecutionsWithAtLeast: threshold)
            guard count > 0 else { continue }
            if loads.objectFaults == 0, RepeatedCountRule.destinationsUnread(path, loads, in: evidence) { continue }
            let key = path.fetchEntity + "\u{0}" + path.keyPath + "\u{0}" + path.fetchSite.description
            if var group = groups[key] {
                group.sites.append(path.fetchSite)
                group.total.objectFaults.addSaturated(loads.objectFaults)
                group.total.relationshipFaults.addSaturated(loads.relationshipFaults)
                group.total.staleReReads.addSaturated(loads.staleReReads)
                group.total.nanoseconds &+= loads.nanoseconds
                group.count = group.count.addingReportingOverflow(count).overflow ? .max : group.count + count
                group.executions.addSaturated(executions)
                groups[key] = group
            } else {
                groups[key] = (path, [path.fetchSite], loads, count, executions)
            }
        }
        return groups.values.sorted { LazyLoadPath.precedes($0.path, $1.path) }.map { group in
            insight(group.path, sites: group.sites, loads: group.total, count: group.count, executions: group.executions)
        }
    }

    private func insight(_ path: LazyLoadPath, sites: [CallSite], loads: LazyLoads, count: Int, executions: Int) -> Insight {
        let fetches = sites.map(\.description).joined(separator: ", ")
        let fetch = "the fetch of \(path.fetchEntity) at \(fetches)"
        let runs = executions == 1 ? "one run of \(fetch)" : "\(executions) runs of \(fetch)"
        var figures: [String] = []
        if loads.objectFaults > 0 { figures.append(Self.plural(loads.objectFaults, "fault") + " of \(loads.destinationEntity)") }
        if loads.relationshipFaults > 0 {
            figures.append(Self.plural(loads.relationshipFaults, "relationship fault") + " of \(loads.relationship)")
        }
        var detail = "\(Self.plural(count, "query", "queries")) for the objects of \(runs) (\(figures.joined(separator: ", ")); "
            + "first read at \(loads.firstRead))"
        if loads.staleReReads > 0 {
            detail += ", and \(Self.plural(loads.staleReReads, "re-read")) of stale rows (a prefetch would not save those)"
        }
        let queries = Self.plural(count, "query", "queries")
        let message: String
        let fix: InsightFix?
        if path.keyPath.isEmpty {
            let fixing = InsightFix(kind: .loadValues, entity: path.fetchEntity, keyPath: "", fetchSites: sites)
            message = "N+1: \(path.fetchEntity) objects of one fetch read their values with a query each (\(queries)); "
                + "load them with the fetch: \(fixing.code)"
            fix = fixing
        } else if path.isKeyPathKnown {
            let fixing = InsightFix(kind: .prefetch, entity: path.fetchEntity, keyPath: path.keyPath, fetchSites: sites)
            message = "N+1: `\(path.keyPath)` loaded one object at a time for the \(path.fetchEntity) objects of one fetch "
                + "(\(queries)); prefetch it with the fetch: \(fixing.code)"
            fix = fixing
        } else {
            message = "N+1: \(loads.destinationEntity) objects loaded one at a time for the \(path.fetchEntity) objects of one fetch "
                + "(\(queries)); prefetch the relationship of \(path.fetchEntity) that leads to them"
            fix = nil
        }
        return Insight(
            rule: id, entity: path.fetchEntity, keyPath: path.keyPath, message: message, evidence: detail,
            callSite: path.fetchSite.description, count: count, fix: fix, costSeconds: Double(loads.nanoseconds) / 1e9)
    }

    static func plural(_ count: Int, _ one: String, _ many: String? = nil) -> String {
        "\(count) \(count == 1 ? one : many ?? one + "s")"
    }
}

extension LazyLoadPath {
    /// A stable order: entity, key path, then call site.
    static func precedes(_ a: LazyLoadPath, _ b: LazyLoadPath) -> Bool {
        (a.fetchEntity, a.keyPath, a.fetchSite.file, a.fetchSite.line) < (b.fetchEntity, b.keyPath, b.fetchSite.file, b.fetchSite.line)
    }
}
