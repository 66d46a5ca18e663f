import Foundation
import Insights
import ObjectGraph
import Scenarios

extension Scenario {
    /// Merging a background import through persistent history.
    public static let historyMerge = Scenario(
        name: "HistoryMerge",
        summary: """
            A view context holds every fireball; a background context (author "import") saves new and changed \
            fireballs while another author saves too. The view merges only the import's transactions, fetched \
            from persistent history after its token (historySeconds, mergedObjects), against resetting and \
            fetching everything again (refreshAllSeconds). Compare rowsRead: history touches only what changed.
            """,
        dataSet: .fireballs,
        writes: true,
        needsFileStore: "the view and the import work through connections of their own",
        persistentHistory: true,
        insights: InsightSettings(intended: [
            .sortWithoutIndex: "the view lists every fireball in time order",
            .fetchWithoutBatchSize: "the view holds every fireball, as a list would, for the merge to refresh",
        ])
    ) { run in
        let store = run.store
        let view = run.context("view")
        let changed = max(1, DataSetKind.count(100, scale: run.scale))
        let held = try view.perform { Array(try view.fetch(FetchRequest<Fireball>(sortKeys: [SortKey("timestamp")]))) }
        let token = try store.currentHistoryToken()
        let background = run.context("import")
        background.transactionAuthor = "import"
        var rng = SeededGenerator(seed: run.seed &+ 29)
        try background.perform {
            var oldest = FetchRequest<Fireball>(sortKeys: [SortKey("timestamp")])
            oldest.fetchLimit = changed
            let fireballs = Array(try background.fetch(oldest))
            for fireball in fireballs { try fireball.setValue(.double(0.5), forKey: "impactEnergy") }
            for number in 0..<changed {
                let fireball = try background.insert(entityName: "Fireball")
                for (key, value) in FireballsDataSet.values(&rng, number: 100_000 + number) { try fireball.setValue(value, forKey: key) }
            }
            try background.save()
        }
        let other = run.context("other")
        other.transactionAuthor = "other"
        try other.perform {
            var latest = FetchRequest<Fireball>(sortKeys: [SortKey("timestamp", ascending: false)])
            latest.fetchLimit = 1
            let fireball = try other.fetch(latest)[0]
            try fireball.setValue(.double(99), forKey: "velocity")
            try other.save()
        }
        let merged = try run.phase("history") { () -> Int in
            let transactions = try store.fetchHistory(after: token, author: "import")
            view.perform {
                view.merge(transactions)
                for fireball in held.prefix(changed) { _ = fireball.impactEnergy }
            }
            return transactions.reduce(0) { $0 + $1.changes.inserted.count + $1.changes.updated.count }
        }
        try view.perform { try run.check(held[0].impactEnergy == 0.5, "the merged change is not visible") }
        let count = try run.phase("refreshAll") { () -> Int in
            try view.perform {
                view.reset()
                let all = try view.fetch(FetchRequest<Fireball>())
                for fireball in all { _ = fireball.impactEnergy }
                return all.count
            }
        }
        try run.check(count == held.count + changed, "the view sees \(count) fireballs, not \(held.count + changed)")
        run.record("mergedObjects", Double(merged))
    }
}
