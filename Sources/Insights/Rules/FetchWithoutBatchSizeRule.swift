import Probes

extension InsightRuleID {
    /// A large fetch without a batch size whose objects are mostly never read.
    public static let fetchWithoutBatchSize = InsightRuleID("fetch-without-batch-size")
}

/// A fetch without `fetchBatchSize` that loads many objects of which the
/// application reads fewer than half (a 500-row list fetched to show 20):
/// every row was read from SQLite and every object registered, for nothing.
/// With a batch size the fetch reads the matching IDs only and loads each
/// page of rows as one of its objects is read; with a `fetchLimit` it
/// reads only the first rows. It reads the fetch usage a context reports
/// when it is reset or released (``FetchUsage``; a Core Data log does not
/// have it). A fetch none of whose objects is read is `count-by-fetch`'s.
///
/// Threshold (default 100): objects one run of the fetch left unread, when
/// they are more than half of its objects. A screen shows a few dozen
/// rows; below a hundred rows never read, the rows and objects cost little
/// next to the query itself.
struct FetchWithoutBatchSizeRule: InsightRule {
    var id: InsightRuleID { .fetchWithoutBatchSize }
    var summary: String { "a fetch without a batch size loads many objects and fewer than half of them are read" }
    var threshold: InsightThreshold {
        InsightThreshold(100, counts: "objects one run of a fetch without a batch size left unread, more than half of its objects")
    }

    func insights(in evidence: InsightEvidence, threshold: Int) -> [Insight] {
        // A fetch's own objects (a to-many's destinations are repeated-count's).
        evidence.fetchUsage.sorted { $0.key < $1.key }.compactMap { site, usage in
            guard site.keyPath.isEmpty else { return nil }
            let (unread, of) = (usage.mostUnread, usage.mostUnreadOf)
            guard unread >= threshold, unread < of, unread > of - unread else { return nil }
            return Insight(
                rule: id, entity: site.entity, keyPath: "",
                message: "a fetch of \(site.entity) without a batch size loaded \(of) objects and \(unread) of them were never read: "
                    + "set request.fetchBatchSize (about the rows a screen shows) to load rows page by page as they are read, "
                    + "or a fetchLimit if only the first are used",
                evidence: "\(of - unread) of \(of) objects read in the run that read the fewest; \(NPlusOneRule.plural(usage.runs, "run")), "
                    + "\(NPlusOneRule.plural(usage.objects, "object")), \(usage.read) read",
                callSite: site.callSite.description, count: unread)
        }
    }
}
