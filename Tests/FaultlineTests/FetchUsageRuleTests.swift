@testable import Faultline
import Foundation
import Insights
import ObjectGraph
import Probes
import Testing

/// The rules that read what the application did with a fetch's objects
/// (count-by-fetch, fetch-without-batch-size), the unused-prefetch rule on
/// to-one relationships, and which saves save-in-loop counts: each on the
/// engine's real work, measured (`Faultline.measure`) and logged (the SQL
/// debug log read back), the same insight from both.
@Suite struct FetchUsageRuleTests {
    typealias Fixture = InsightRuleTests.Fixture

    static func agree(_ observed: (run: [Insight], log: [Insight]), _ rule: InsightRuleID, sourceLocation: SourceLocation = #_sourceLocation)
        -> [String]
    {
        InsightRuleTests.agree(observed, rule, sourceLocation: sourceLocation)
    }

    // MARK: count-by-fetch

    @Test func aFetchWhoseObjectsAreOnlyCountedIsACountRequest() throws {
        let fixture = try Fixture()
        let line = #line + 2
        let counted = try fixture.observe { context in
            let essays = try context.fetch(FetchRequest<Essay>())
            #expect(essays.count == 6)
        }
        #expect(Self.agree(counted, .countByFetch) == [
            "count-by-fetch/Essay ×6: the fetch of Essay returned 6 objects and none was read: if only their number is used, "
                + "a count request gives it without loading them (context.count(for: request)); if their IDs, context.fetchObjectIDs(request)",
        ])
        let insight = try #require(counted.run.first { $0.rule == .countByFetch })
        #expect(insight.callSite == "FaultlineTests/FetchUsageRuleTests.swift:\(line)")
        #expect(insight.evidence == "1 run, 6 objects, 0 read; 1 run read none, up to 6 objects")
        // Twice in a loop, once read: the runs read none are said.
        let twice = try fixture.observe { context in
            for pass in 0..<3 {
                let essays = try context.fetch(FetchRequest<Essay>())
                if pass == 2 { _ = essays.first?.title }
            }
        }
        #expect(Self.agree(twice, .countByFetch).first?.contains("none was read (in 2 of its 3 runs)") == true)
    }

    @Test func aFetchWhoseObjectsAreUsedIsNoCountByFetch() throws {
        let fixture = try Fixture()
        // Counted with a count request: no objects.
        let count = try fixture.observe { context in _ = try context.count(for: FetchRequest<Essay>()) }
        #expect(Self.agree(count, .countByFetch).isEmpty)
        // One object read is enough: the fetch was for its objects.
        let read = try fixture.observe { context in _ = try context.fetch(FetchRequest<Essay>()).first?.title }
        #expect(Self.agree(read, .countByFetch).isEmpty)
        // Deleted, set as a relationship's value, or filtered in memory: used.
        let deleted = try fixture.observe { context in
            for essay in try context.fetch(FetchRequest<Essay>()) { try context.delete(essay) }
        }
        #expect(Self.agree(deleted, .countByFetch).isEmpty)
        let linked = try fixture.observe { context in
            let essay = try context.insert(Essay.self)
            for writer in try context.fetch(FetchRequest<Writer>()) { essay.writer = writer }
        }
        #expect(Self.agree(linked, .countByFetch).isEmpty)
        let filtered = try fixture.observe { context in
            _ = try context.filter(Array(try context.fetch(FetchRequest<Essay>())), Key("title") == "Essay 1.1")
        }
        #expect(Self.agree(filtered, .countByFetch).isEmpty)
        // One object not read is a lookup (the threshold is 2 objects).
        let lookup = try fixture.observe { context in
            _ = try context.fetch(FetchRequest<Writer>(predicate: Key("name") == "Writer 1")).first?.objectID
        }
        #expect(Self.agree(lookup, .countByFetch).isEmpty)
        // The engine's own loads are not the application's: a to-one
        // prefetch reads its sources, and they stay unread.
        let prefetched = try fixture.observe { context in
            var request = FetchRequest<Essay>()
            request.relationshipKeyPathsForPrefetching = ["writer"]
            _ = try context.fetch(request).count
        }
        #expect(Self.agree(prefetched, .countByFetch).count == 1)
    }

    // MARK: fetch-without-batch-size

    @Test func aLargeFetchMostlyUnreadWantsABatchSize() throws {
        let fixture = try Fixture()
        // 150 more essays: 156 in all.
        let seed = ObjectContext(store: fixture.store, name: "more")
        try seed.perform {
            for number in 0..<150 { try seed.insert(Essay.self).title = "More \(number)" }
            try seed.save()
        }
        let line = #line + 2
        let list = try fixture.observe { context in
            let essays = try context.fetch(FetchRequest<Essay>(sortKeys: [SortKey("title")]))
            for essay in essays.prefix(20) { _ = essay.title }
        }
        #expect(Self.agree(list, .fetchWithoutBatchSize) == [
            "fetch-without-batch-size/Essay ×136: a fetch of Essay without a batch size loaded 156 objects and 136 of them were never read: "
                + "set request.fetchBatchSize (about the rows a screen shows) to load rows page by page as they are read, "
                + "or a fetchLimit if only the first are used",
        ])
        #expect(list.run.first { $0.rule == .fetchWithoutBatchSize }?.callSite == "FaultlineTests/FetchUsageRuleTests.swift:\(line)")
        #expect(Self.agree(list, .countByFetch).isEmpty)
        // With a batch size, the same screen: no insight.
        let batched = try fixture.observe { context in
            var request = FetchRequest<Essay>(sortKeys: [SortKey("title")])
            request.fetchBatchSize = 20
            let essays = try context.fetch(request)
            for essay in essays.prefix(20) { _ = essay.title }
        }
        #expect(Self.agree(batched, .fetchWithoutBatchSize).isEmpty)
        // Most of them read: no insight.
        let most = try fixture.observe { context in
            let essays = try context.fetch(FetchRequest<Essay>(sortKeys: [SortKey("title")]))
            for essay in essays.prefix(100) { _ = essay.title }
        }
        #expect(Self.agree(most, .fetchWithoutBatchSize).isEmpty)
    }

    @Test func theBatchSizeThresholdIsData() throws {
        let fixture = try Fixture()
        let settings = InsightSettings(thresholds: [.fetchWithoutBatchSize: 4])
        let four = try fixture.observe(settings) { context in _ = try context.fetch(FetchRequest<Essay>()).first?.title }
        #expect(Self.agree(four, .fetchWithoutBatchSize).map { $0.hasPrefix("fetch-without-batch-size/Essay ×5: ") } == [true])
        let half = try fixture.observe(settings) { context in
            for essay in try context.fetch(FetchRequest<Essay>()).prefix(3) { _ = essay.title }
        }
        #expect(Self.agree(half, .fetchWithoutBatchSize).isEmpty)
        // Objects loaded with their values are read in place by a typed
        // property: the first read of each counts, once.
        let loaded = try fixture.observe(InsightSettings(thresholds: [.fetchWithoutBatchSize: 2])) { context in
            var request = FetchRequest<Essay>(sortKeys: [SortKey("title")])
            request.returnsObjectsAsFaults = false
            let essays = try context.fetch(request)
            for _ in 0..<3 { for essay in essays.prefix(2) { _ = essay.title } }
        }
        #expect(Self.agree(loaded, .fetchWithoutBatchSize).map { $0.hasPrefix("fetch-without-batch-size/Essay ×4: ") } == [true])
        #expect(Self.agree(loaded, .countByFetch).isEmpty)
        // Below the threshold by default.
        let small = try fixture.observe { context in _ = try context.fetch(FetchRequest<Essay>()).first?.title }
        #expect(Self.agree(small, .fetchWithoutBatchSize).isEmpty)
    }

    // MARK: unused-prefetch of a to-one

    @Test func anUnusedToOnePrefetchIsFoundAndAUsedOneIsNot() throws {
        let fixture = try Fixture()
        let unused = try fixture.observe { context in
            var request = FetchRequest<Essay>()
            request.relationshipKeyPathsForPrefetching = ["writer"]
            for essay in try context.fetch(request) { _ = essay.title }
        }
        #expect(Self.agree(unused, .unusedPrefetch) == [
            "unused-prefetch/Essay/writer ×6: Essay.writer was prefetched for 6 objects and read for none; drop `writer` from the "
                + "prefetch key paths",
        ])
        let used = try fixture.observe { context in
            var request = FetchRequest<Essay>()
            request.relationshipKeyPathsForPrefetching = ["writer"]
            for essay in try context.fetch(request) { _ = essay.writer?.name }
        }
        #expect(Self.agree(used, .unusedPrefetch).isEmpty)
        #expect(Self.agree(used, .nPlusOne).isEmpty)
        // Read for one essay of six: used.
        let once = try fixture.observe { context in
            var request = FetchRequest<Essay>()
            request.relationshipKeyPathsForPrefetching = ["writer"]
            _ = try context.fetch(request).first?.writer
        }
        #expect(Self.agree(once, .unusedPrefetch).isEmpty)
    }

    // MARK: save-in-loop counts saves that succeeded

    @Test func onlySavesThatSucceededAreEvidence() {
        let site = CallSite(file: "App/Import.swift", line: 20)
        func save(_ success: Bool) -> Event {
            .save(SaveEvent(
                start: 0, durationNanoseconds: 0, thread: 0, context: "main", inserted: 1, updated: 0, deleted: 0, success: success,
                error: success ? "" : "constraint failed", callSite: site))
        }
        let failed = InsightEvidence([save(false), save(false), save(false), save(true)])
        #expect(failed.saves[site]?.count == 1)
        #expect(InsightEngine().insights(failed).filter { $0.rule == .saveInLoop }.isEmpty)
        let succeeded = InsightEvidence([save(true), save(false), save(true), save(true)])
        #expect(succeeded.saves[site]?.count == 3)
        #expect(InsightEngine().insights(succeeded).filter { $0.rule == .saveInLoop }.map(\.identity) == [
            "save-in-loop/main@App/Import.swift:20",
        ])
    }
}
