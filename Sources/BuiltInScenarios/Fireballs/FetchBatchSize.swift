import Insights
import ObjectGraph
import Scenarios

extension Scenario {
    /// Walking a large fetch with and without a batch size.
    public static let fetchBatchSize = Scenario(
        name: "FetchBatchSize",
        summary: """
            Walks a fetch of every fireball, reading each one's impact energy, without a batch size (every \
            object at once: unbatchedSeconds, unbatchedPeak objects registered) and with fetchBatchSize = 100 \
            (the IDs first, then a page of rows as it is reached, only the last page held: batchedSeconds, \
            batchedPeak). The batched walk runs more statements and keeps far fewer objects alive.
            """,
        dataSet: .fireballs,
        insights: InsightSettings(intended: [.sortWithoutIndex: "a walk of every fireball in time order is what the batch size pages through"])
    ) { run in
        let instrumentation = run.store.instrumentation
        let context = run.context()
        try context.perform {
            instrumentation.resetPeak()
            let unbatched = try run.phase("unbatched") { () -> Double in
                try context.fetch(FetchRequest<Fireball>(sortKeys: [SortKey("timestamp")])).reduce(0) { $0 + $1.impactEnergy }
            }
            let unbatchedPeak = instrumentation.objectsRegisteredPeak
            context.reset()
            instrumentation.resetPeak()
            var request = FetchRequest<Fireball>(sortKeys: [SortKey("timestamp")])
            request.fetchBatchSize = 100
            let batched = try run.phase("batched") { () -> Double in
                try context.fetch(request).reduce(0) { $0 + $1.impactEnergy }
            }
            let batchedPeak = instrumentation.objectsRegisteredPeak
            try run.check(abs(unbatched - batched) < 1e-6 * max(1, abs(unbatched)), "the walks add up to \(unbatched) and \(batched)")
            run.record("unbatchedPeak", Double(unbatchedPeak))
            run.record("batchedPeak", Double(batchedPeak))
        }
    }
}
