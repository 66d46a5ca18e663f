import ObjectGraph
import Scenarios

extension Scenario {
    /// A list screen reading a to-one relationship per row: the N+1 apps hide.
    public static let toOneList = Scenario(
        name: "ToOneList",
        summary: """
            A list screen: the 50 most recent fireballs (sorted by timestamp, LIMIT 50), each shown with its \
            group's name, read through the to-one relationship group. The fireballs come in one fetch; each \
            group is a fault read on its own, one primary-key SELECT per distinct group (rows groups): the N+1 \
            that a list reading a to-one per row hides, which the n-plus-one insight finds by pattern and \
            `perf-run run ToOneList --what-if` measures the fix of (prefetching group). The sort has no index \
            to read the first rows in order (the sort-without-index insight).
            """,
        dataSet: .fireballs
    ) { run in
        let context = run.context()
        try context.perform {
            let rows = try ListScreen.rows(in: context)
            try run.check(rows.count == min(50, ListScreen.expectedRows(scale: run.scale)), "the list has \(rows.count) rows")
            run.record("rows", Double(rows.count))
            run.record("groups", Double(Set(rows.map(\.group)).count))
        }
    }
}

/// The list screen of ``Scenario/toOneList``: what an application's code
/// looks like when it reads a to-one relationship per row.
enum ListScreen {
    struct Row {
        var energy: Double
        var group: String
    }

    /// The rows, as a list screen builds them.
    static func rows(in context: ObjectContext) throws -> [Row] {
        var request = FetchRequest<Fireball>(sortKeys: [SortKey("timestamp", ascending: false)])
        request.fetchLimit = 50
        return try context.fetch(request).map { fireball in
            Row(energy: fireball.impactEnergy, group: fireball.group?.name ?? "")
        }
    }

    /// The fireballs at a scale (every one has a group).
    static func expectedRows(scale: Double) -> Int {
        DataSetKind.count(FireballsDataSet.base, scale: scale)
    }
}
