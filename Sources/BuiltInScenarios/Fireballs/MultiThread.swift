import Dispatch
import Foundation
import Insights
import ObjectGraph
import Scenarios
import Synchronization

extension Scenario {
    /// A writer and a reader on two threads.
    public static let multiThread = Scenario(
        name: "MultiThread",
        summary: """
            A writer context saves max(1, round(10,000 × scale)) fireballs one save each on one thread while a \
            reader context on another counts them until it sees 100%. The reader's progress reports \
            (progressReports) and every counter depend on timing, so all are advisory; what must hold is that the \
            reader never sees the count go down and ends at the total.
            """,
        dataSet: .fireballs,
        writes: true,
        needsFileStore: "the writer and the reader need connections of their own",
        timingDependent: true,
        repeatsStatements: "the reader polls the count on purpose, to report progress while the writer saves",
        insights: InsightSettings(intended: [.saveInLoop: "the writer saves one fireball at a time, for the reader to see progress"])
    ) { run in
        let store = run.store
        let total = DataSetKind.count(10_000, scale: run.scale)
        let initial = try run.context("start").perform { try run.context("count").count(for: FetchRequest<Fireball>()) }
        let failure = Mutex<String?>(nil)
        let group = DispatchGroup()
        let seed = run.seed
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            let writer = ObjectContext(store: store, name: "writer")
            var rng = SeededGenerator(seed: seed &+ 41)
            writer.perform {
                do {
                    for number in 0..<total {
                        let fireball = try writer.insert(entityName: "Fireball")
                        for (key, value) in FireballsDataSet.values(&rng, number: 200_000 + number) { try fireball.setValue(value, forKey: key) }
                        try writer.save()
                    }
                } catch {
                    failure.withLock { $0 = "writer: \(error)" }
                }
            }
        }
        let reports = Mutex(0)
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            let reader = ObjectContext(store: store, name: "reader")
            reader.perform {
                var last = 0
                while failure.withLock({ $0 }) == nil {
                    do {
                        let seen = try reader.count(for: FetchRequest<Fireball>()) - initial
                        if seen < last { failure.withLock { $0 = "the reader's count went from \(last) down to \(seen)" } }
                        if seen > last { reports.withLock { $0 += 1 } }
                        last = seen
                        if seen >= total { break }
                    } catch {
                        failure.withLock { $0 = "reader: \(error)" }
                    }
                }
            }
        }
        group.wait()
        if let message = failure.withLock({ $0 }) { throw ScenarioFailure(message) }
        run.record("saved", Double(total))
        run.record("progressReports", Double(reports.withLock { $0 }))
    }
}
