import Probes

extension InsightRuleID {
    /// Saves of one or two objects, one after another.
    public static let saveInLoop = InsightRuleID("save-in-loop")
}

/// Several saves of one or two objects each in one context: a save per
/// object in a loop, a transaction (and a commit) each.
struct SaveInLoopRule: InsightRule {
    var id: InsightRuleID { .saveInLoop }
    var summary: String { "one context saves one or two objects at a time, again and again" }
    var threshold: InsightThreshold { InsightThreshold(3, counts: "saves of one or two objects in one context") }

    func insights(in evidence: InsightEvidence, threshold: Int) -> [Insight] {
        evidence.smallSaves.sorted { $0.key < $1.key }.compactMap { context, saves in
            guard saves.count >= threshold else { return nil }
            return Insight(
                rule: id, entity: "", keyPath: context,
                message: "\(saves.count) saves of one or two objects each in context \(context); save once after the loop, or use a batch insert",
                evidence: "\(saves.count) saves, \(saves.objects) objects in all", callSite: saves.first.callSite.description,
                count: saves.count)
        }
    }
}
