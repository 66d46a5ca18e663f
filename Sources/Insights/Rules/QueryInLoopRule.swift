import Probes

extension InsightRuleID {
    /// One call site running one statement shape again and again.
    public static let queryInLoop = InsightRuleID("query-in-loop")
}

/// A query in a loop, found as Prosopite and Sentry find an N+1: one call
/// site running one read's shape again and again, whatever its bound
/// values (a fetch by key per element, an `object(with:)` per ID). It
/// catches loops the ``NPlusOneRule`` cannot see, whose objects came from
/// no fetch; where that rule applies (a statement that loaded an object
/// or relationship of an object whose fetch is known) it knows the key
/// path to prefetch, and this rule leaves the statement out
/// (``SiteExecutions/explained``), so a loop is reported once. A read run with one list of
/// values throughout is the ``RepeatedStatementRule``'s.
///
/// In a log that names no call site, the pattern is a run: the statement
/// again and again with at most a few others between (``SiteTallies``).
///
/// The threshold, 5 executions: a loop over a screen's rows, as Sentry's
/// N+1 detector asks for 5 repetitions; 2 would flag every pair of lookups
/// an app makes on purpose.
struct QueryInLoopRule: InsightRule {
    var id: InsightRuleID { .queryInLoop }
    var summary: String { "one call site runs one read's shape again and again, whatever the bound values" }
    var threshold: InsightThreshold { InsightThreshold(5, counts: "executions of one statement shape from one call site") }

    func insights(in evidence: InsightEvidence, threshold: Int) -> [Insight] {
        let sameValues = Self.sameValuesThroughout(evidence)
        return Self.bySite(evidence.siteExecutions).compactMap { group -> Insight? in
            guard group.isRead, Self.isApplicationRead(group.purpose) else { return nil }
            let known = group.callSite.isKnown
            let count = known && !evidence.spansIterations ? group.unexplained : group.longestRun
            guard count >= threshold else { return nil }
            if let most = sameValues[group.shape], most >= group.unexplained { return nil }
            return insight(group, count: count, known: known)
        }
        .sorted { ($0.count ?? 0, $1.identity) > ($1.count ?? 0, $0.identity) }
    }

    private func insight(_ group: SiteExecutions, count: Int, known: Bool) -> Insight {
        let entity = group.entity ?? ""
        let what = entity.isEmpty ? "the same statement" : "the same \(entity) statement"
        let place = known ? "at \(group.callSite)" : "in a row (the log names no call site)"
        let fix: String
        if group.purpose.hasPrefix("fault") {
            fix = "fetch the objects at once, one request for their IDs (Key.object.isIn(ids); NSPredicate: `SELF IN %@`), "
                + "instead of faulting each by its ID"
        } else if group.purpose.hasPrefix("fetch") || group.purpose.hasPrefix("count") {
            fix = "fetch them at once: one request whose predicate takes the keys (#Predicate: `keys.contains($0.key)`; "
                + "NSPredicate: `key IN %@`)"
        } else {
            fix = "run it once for the whole loop"
        }
        let message = "query in a loop: \(what) ran \(count) times \(place), one value at a time; \(fix)"
        return Insight(
            rule: id, entity: entity, keyPath: group.shape, message: message,
            evidence: "\(count) × \(group.shape) (\(group.purpose))", callSite: known ? group.callSite.description : "",
            count: count, costSeconds: Double(group.nanoseconds) / 1e9)
    }

    /// Whether statements of `purpose` are the application's reads (a fetch,
    /// a count, a fault) rather than the engine's own work for them (a
    /// prefetch's, a batch page's, a batch request's or a save's lookups,
    /// which follow from one call of the application's). A statement of a
    /// log that says no purpose (Core Data's) is taken as the application's.
    private static func isApplicationRead(_ purpose: String) -> Bool {
        purpose.hasPrefix("fetch ") || purpose.hasPrefix("count ") || purpose.hasPrefix("fault") || purpose.hasPrefix("relationship")
            || purpose == SQLEvent.unknownPurpose
    }

    /// The groups with their sites named, those of one shape whose sites
    /// name one line merged (two stacks can lead to one line).
    private static func bySite(_ groups: [SiteExecutions]) -> [SiteExecutions] {
        var merged: [String: SiteExecutions] = [:]
        var order: [String] = []
        for var group in groups {
            group.callSite = group.callSite.resolved
            let key = group.shape + "\u{0}" + group.callSite.description
            if var existing = merged[key] {
                existing.count.addSaturated(group.count)
                existing.explained.addSaturated(group.explained)
                existing.longestRun = max(existing.longestRun, group.longestRun)
                existing.nanoseconds &+= group.nanoseconds
                merged[key] = existing
            } else {
                merged[key] = group
                order.append(key)
            }
        }
        return order.map { merged[$0]! }
    }

    /// Per shape, the most executions of one of its texts with one list of
    /// values: a shape that ran with one list throughout repeats a result.
    private static func sameValuesThroughout(_ evidence: InsightEvidence) -> [String: Int] {
        var most: [String: Int] = [:]
        for lists in evidence.repetitions.values {
            for repetition in lists.values {
                let shape = repetition.firstExecution.shape
                most[shape] = max(most[shape] ?? 0, repetition.count)
            }
        }
        return most
    }
}
