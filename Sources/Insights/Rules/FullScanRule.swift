import Probes

extension InsightRuleID {
    /// A filtered statement that steps through a whole table.
    public static let fullScan = InsightRuleID("full-scan")
}

/// A statement that asks for some rows (a WHERE clause) and steps through
/// a whole table to find them, passing over rows it does not return: the
/// index it lacks, or why none can serve the condition. A statement that
/// asks for every row (no WHERE) scans on purpose and is never flagged,
/// and neither is a scan of a small table (fewer rows stepped per
/// execution than ``InsightSettings/smallTableRowLimit``, 50 by default:
/// SQLite reads a page or two either way).
///
/// A scan no index can serve (CONTAINS, LIKE with a leading wildcard, a
/// function of the column such as case folding, an OR with such a term) is
/// reported as such (``Insight/noIndexServes``): true, but no index fixes
/// it, so it ranks below what can be fixed.
///
/// Where the evidence has no step counts (a Core Data log), a query plan
/// that scans the table stands for them, and the count is the executions;
/// no table is known to be small there.
struct FullScanRule: InsightRule {
    var id: InsightRuleID { .fullScan }
    var summary: String { "a statement that asks for some rows steps through a whole table to find them" }
    var threshold: InsightThreshold {
        InsightThreshold(1, counts: "rows one statement shape stepped through in full scans, over its executions (a log without step counts: its executions)")
    }

    func insights(in evidence: InsightEvidence, threshold: Int) -> [Insight] {
        insights(in: evidence, threshold: threshold, settings: InsightSettings())
    }

    func insights(in evidence: InsightEvidence, threshold: Int, settings: InsightSettings) -> [Insight] {
        // One insight per entity and attribute (and whether an index would
        // serve), whichever shapes scan for it.
        var groups: [String: (first: StatementAggregate, advice: Advice, shapes: [String], steps: Int, executions: Int, nanoseconds: UInt64)] = [:]
        var order: [String] = []
        for statement in evidence.statements.sorted(by: { $0.shape < $1.shape }) {
            guard let facts = statement.facts, facts.filtersRows else { continue }
            if evidence.scanStepsKnown {
                // Rows stepped past that were not returned: an index would skip them.
                guard statement.fullScanSteps > 0, statement.fullScanSteps > statement.rowsReturned else { continue }
            } else {
                guard statement.queryPlan?.contains(where: QueryPlan.isFullScan) == true else { continue }
            }
            // A small table: a page or two read either way.
            if settings.scansASmallTable(statement, stepsKnown: evidence.scanStepsKnown) { continue }
            let advice = Self.advice(facts)
            // A scan an index would serve and one no index serves are two
            // findings, even on one column: the first is fixed by the
            // index, the second ranks last, and neither hides the other.
            let key = facts.entity + "\u{0}" + advice.attribute + (advice.noIndexServes ? "\u{0}unserved" : "")
            if groups[key] == nil {
                groups[key] = (statement, advice, [], 0, 0, 0)
                order.append(key)
            }
            groups[key]!.shapes.append(statement.shape)
            groups[key]!.steps = groups[key]!.steps.addingReportingOverflow(statement.fullScanSteps).overflow ? .max
                : groups[key]!.steps + statement.fullScanSteps
            groups[key]!.executions.addSaturated(statement.count)
            groups[key]!.nanoseconds &+= statement.totalNanoseconds
        }
        return order.compactMap { key in
            let group = groups[key]!
            let count = evidence.scanStepsKnown ? group.steps : group.executions
            guard count >= threshold, let entity = group.first.facts?.entity else { return nil }
            let figures = evidence.scanStepsKnown
                ? "\(group.steps) rows stepped in \(NPlusOneRule.plural(group.executions, "execution"))"
                : "\(NPlusOneRule.plural(group.executions, "execution")) (the plan scans the table; the log gives no step count)"
            var insight = Insight(
                rule: id, entity: entity, keyPath: group.advice.attribute,
                message: "full table scans of \(entity): \(figures); \(group.advice.advice)", evidence: group.shapes.joined(separator: " | "),
                callSite: group.first.firstCallSite.description, count: count, fix: group.advice.fix,
                costSeconds: Double(group.nanoseconds) / 1e9)
            if group.advice.noIndexServes { insight.noIndexServes = true }
            return insight
        }
    }

    /// What to say of a scan: the attribute it is about, the advice, the
    /// fix when an index would serve, and whether no index can serve it.
    struct Advice {
        var attribute: String
        var advice: String
        var fix: InsightFix?
        var noIndexServes = false
    }

    /// The attribute the advice is about, the advice, and the fix when an
    /// index would serve: the first condition an index on an unindexed
    /// column could serve; else why no index serves.
    static func advice(_ facts: StatementFacts) -> Advice {
        let entity = facts.entity
        let unserved = facts.filters.filter { !$0.use.indexable }
        // An OR with a term no index serves reads every row whatever the other terms' indexes.
        let orWithUnserved = facts.hasDisjunction && !unserved.isEmpty
        if !orWithUnserved, let candidate = facts.filters.first(where: { $0.use.indexable && $0.column.indexed != true }) {
            let attribute = candidate.column.attribute
            return Advice(
                attribute: attribute, advice: "an index on \(entity).\(attribute) would serve",
                fix: InsightFix(kind: .index, entity: entity, keyPath: attribute))
        }
        if orWithUnserved {
            let first = unserved[0]
            return Advice(
                attribute: first.column.attribute,
                advice: "no index serves this condition (an OR with a \(first.use.rawValue) on \(entity).\(first.column.attribute)): "
                    + "put a cheaper, selective term first, or narrow the rows another way", noIndexServes: true)
        }
        if let indexed = facts.filters.first(where: { $0.use.indexable && $0.column.indexed == true }) {
            let attribute = indexed.column.attribute
            return Advice(attribute: attribute, advice: "\(entity).\(attribute) has an index, which this condition cannot use (an OR across columns)")
        }
        if let first = facts.filters.first {
            return Advice(
                attribute: first.column.attribute,
                advice: "no index serves a \(first.use.rawValue) on \(entity).\(first.column.attribute): put a cheaper, selective term "
                    + "first, or narrow the rows another way", noIndexServes: true)
        }
        return Advice(attribute: "", advice: "an index on the columns it filters would serve")
    }
}
