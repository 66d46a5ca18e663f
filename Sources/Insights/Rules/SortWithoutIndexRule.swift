import Probes

extension InsightRuleID {
    /// ORDER BY sorting a whole table in a temporary B-tree.
    public static let sortWithoutIndex = InsightRuleID("sort-without-index")
}

/// A statement with ORDER BY that steps through a whole table and sorts
/// the rows in a temporary B-tree, with or without LIMIT: an index on the
/// sort key lets SQLite read the rows in order, and with a LIMIT stop
/// after the first ones. Where the evidence has no step and sort counts (a
/// Core Data log), the query plan's `SCAN` and `USE TEMP B-TREE FOR ORDER
/// BY` stand for them.
///
/// A sort of a small table (fewer rows stepped per execution than
/// ``InsightSettings/smallTableRowLimit``, 50 by default) is no mistake:
/// sorting a few dozen rows in memory costs microseconds, and an index
/// would be one more structure to write on every insert.
struct SortWithoutIndexRule: InsightRule {
    var id: InsightRuleID { .sortWithoutIndex }
    var summary: String { "ORDER BY sorts every row of a table in a temporary B-tree, with or without LIMIT" }
    var threshold: InsightThreshold { InsightThreshold(1, counts: "executions of one statement shape that sorted a whole table") }

    func insights(in evidence: InsightEvidence, threshold: Int) -> [Insight] {
        insights(in: evidence, threshold: threshold, settings: InsightSettings())
    }

    func insights(in evidence: InsightEvidence, threshold: Int, settings: InsightSettings) -> [Insight] {
        // One insight per entity and sort key, whichever shapes sort on it.
        var groups: [String: (first: StatementAggregate, key: StatementFacts.Column, shapes: [String], sorts: Int, limited: Bool,
            nanoseconds: UInt64)] = [:]
        var order: [String] = []
        for statement in evidence.statements.sorted(by: { $0.shape < $1.shape }) {
            guard let facts = statement.facts, let key = facts.sortKeys.first else { continue }
            let sorts: Int
            if evidence.scanStepsKnown {
                guard statement.sorts > 0, statement.fullScanSteps > 0 else { continue }
                sorts = statement.sorts
            } else {
                let plan = statement.queryPlan ?? []
                guard plan.contains(where: QueryPlan.isFullScan), plan.contains(where: { $0.contains("USE TEMP B-TREE FOR ORDER BY") }) else {
                    continue
                }
                sorts = statement.count
            }
            // A small table: sorted in memory in microseconds.
            if settings.scansASmallTable(statement, stepsKnown: evidence.scanStepsKnown) { continue }
            let group = facts.entity + "\u{0}" + key.attribute
            if groups[group] == nil {
                groups[group] = (statement, key, [], 0, false, 0)
                order.append(group)
            }
            groups[group]!.shapes.append(statement.shape)
            groups[group]!.sorts.addSaturated(sorts)
            groups[group]!.limited = groups[group]!.limited || facts.hasLimit
            groups[group]!.nanoseconds &+= statement.totalNanoseconds
        }
        return order.compactMap { name in
            let group = groups[name]!
            guard group.sorts >= threshold, let entity = group.first.facts?.entity else { return nil }
            let attribute = group.key.attribute
            let advice: String
            var fix: InsightFix?
            if group.key.indexed == true {
                advice = "\(entity).\(attribute) has an index, which this query's plan does not use for ORDER BY (a filter chose another index)"
            } else if group.limited {
                advice = "an index on \(entity).\(attribute) would let SQLite read the first rows in order and stop"
                fix = InsightFix(kind: .index, entity: entity, keyPath: attribute)
            } else {
                advice = "an index on \(entity).\(attribute) would let SQLite read the rows in order instead of sorting them "
                    + "(it still reads every row)"
                fix = InsightFix(kind: .index, entity: entity, keyPath: attribute)
            }
            let limit = group.limited ? " for a LIMIT of them" : ""
            return Insight(
                rule: id, entity: entity, keyPath: attribute,
                message: "\(entity) rows sorted by \(attribute) in a temporary B-tree after a full scan\(limit) "
                    + "(\(NPlusOneRule.plural(group.sorts, "execution"))); \(advice)",
                evidence: group.shapes.joined(separator: " | "), callSite: group.first.firstCallSite.description, count: group.sorts, fix: fix,
                costSeconds: Double(group.nanoseconds) / 1e9)
        }
    }
}
