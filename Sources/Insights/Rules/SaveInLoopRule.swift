import Probes

extension InsightRuleID {
    /// Saves from one call site, again and again.
    public static let saveInLoop = InsightRuleID("save-in-loop")
}

/// One call site saving again and again within one iteration, one
/// `measure` block or one logged run, whatever the objects per save: a
/// save per element of a loop, each a transaction with its commit (and its
/// history, notifications and merges). Only saves that succeeded count: a
/// failed save wrote nothing.
///
/// Threshold (default 3): saves that succeeded from one call site. Two
/// saves from one line can be two separate actions (an edit, then its
/// undo); a third is a loop. A long import that saves every thousand
/// objects on purpose is flagged too: raise the threshold, or accept the
/// insight at that site.
struct SaveInLoopRule: InsightRule {
    var id: InsightRuleID { .saveInLoop }
    var summary: String { "one call site saves again and again, whatever the objects per save" }
    var threshold: InsightThreshold { InsightThreshold(3, counts: "saves that succeeded from one call site") }

    func insights(in evidence: InsightEvidence, threshold: Int) -> [Insight] {
        evidence.saves.sorted { ($0.key.file, $0.key.line) < ($1.key.file, $1.key.line) }.compactMap { site, saves in
            guard saves.count >= threshold else { return nil }
            let context = saves.first.context
            return Insight(
                rule: id, entity: "", keyPath: context,
                message: "\(saves.count) saves from one call site (\(NPlusOneRule.plural(saves.objects, "object")) in all), a transaction each; "
                    + "save once after the loop, or use a batch insert",
                evidence: "\(saves.count) saves, \(saves.objects) objects in all, in context \(context) first",
                callSite: site.description, count: saves.count)
        }
    }
}
