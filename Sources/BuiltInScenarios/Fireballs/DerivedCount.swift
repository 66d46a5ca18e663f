import Insights
import ObjectGraph
import Scenarios

extension Scenario {
    /// A stored count against counting a relationship.
    public static let derivedCount = Scenario(
        name: "DerivedCount",
        summary: """
            Reads every group's number of fireballs twice: from its derived fireballCount attribute, which the \
            store keeps up to date on save (derivedSeconds: one fetch, no relationship), and by counting its \
            fireballs relationship (relationshipSeconds: a relationship fault, one SELECT, per group). The totals \
            must agree; compare relationshipFaultsFired and rowsRead.
            """,
        dataSet: .fireballs,
        insights: InsightSettings(intended: [.repeatedCount: "counting the relationship is the slower way the scenario measures against the derived count"])
    ) { run in
        let context = run.context()
        try context.perform {
            let derived = try run.phase("derived") { () -> Int64 in
                try context.fetch(FetchRequest<FireballGroup>()).reduce(0) { $0 + $1.fireballCount }
            }
            context.reset()
            let counted = try run.phase("relationship") { () -> Int in
                try context.fetch(FetchRequest<FireballGroup>()).reduce(0) { $0 + $1.fireballs.count }
            }
            try run.check(Int(derived) == counted, "derived counts add up to \(derived), relationships to \(counted)")
            run.record("fireballs", Double(counted))
        }
    }
}
