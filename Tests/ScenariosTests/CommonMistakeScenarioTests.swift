@testable import BuiltInScenarios
import Foundation
import Insights
import ObjectGraph
import Scenarios
import Testing

/// The rules for a save per element, counting by fetch, a large fetch
/// without a batch size and an unused to-one prefetch, in a scenario run
/// (the recorder's evidence of its iteration) and in the SQL debug log the
/// run wrote: each fires on the mistake, with the same identity, count and
/// words from both, and not on its fix.
@Suite(.serialized) struct CommonMistakeScenarioTests {
    /// The insights of `rule` in a run of a scenario doing `body` on
    /// `dataSet`, as the run and its log agree on them.
    static func found(
        _ rule: InsightRuleID, on dataSet: DataSetKind = .selfies, writes: Bool = false, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: @escaping @Sendable (ObjectContext) throws -> Void
    ) throws -> [String] {
        let scenario = Scenario(name: "Mistake", summary: "a common mistake, or its fix", dataSet: dataSet, writes: writes) { run in
            let context = run.context()
            try context.perform { try body(context) }
        }
        let (run, log) = try InsightAgreementTests.runAndLog(scenario)
        let described = { (insights: [Insight]) in
            insights.filter { $0.rule == rule }.map { "\($0.identity) ×\($0.count ?? -1): \($0.message)" }
        }
        #expect(described(run) == described(log), "the run and the log disagree", sourceLocation: sourceLocation)
        return described(run)
    }

    static let site = "ScenariosTests/CommonMistakeScenarioTests.swift"

    @Test func aSavePerElementIsFoundAndOneSaveIsNot() throws {
        let line = #line + 5
        let loop = try Self.found(.saveInLoop, writes: true) { context in
            for number in 0..<4 {
                let selfie = try context.insert(Selfie.self)
                try selfie.setValue(.string("New \(number)"), forKey: "name")
                try context.save()
            }
        }
        #expect(loop == [
            "save-in-loop/main@\(Self.site):\(line) ×4: 4 saves from one call site (4 objects in all), a transaction each; "
                + "save once after the loop, or use a batch insert",
        ])
        let once = try Self.found(.saveInLoop, writes: true) { context in
            for number in 0..<4 { try context.insert(Selfie.self).setValue(.string("New \(number)"), forKey: "name") }
            try context.save()
        }
        #expect(once.isEmpty)
    }

    @Test func countingByFetchIsFoundAndACountRequestIsNot() throws {
        let line = #line + 2
        let counted = try Self.found(.countByFetch) { context in
            _ = try context.fetch(FetchRequest<Selfie>()).count
        }
        #expect(counted == [
            "count-by-fetch/Selfie@\(Self.site):\(line) ×10: the fetch of Selfie returned 10 objects and none was read: if only "
                + "their number is used, a count request gives it without loading them (context.count(for: request)); "
                + "if their IDs, context.fetchObjectIDs(request)",
        ])
        let request = try Self.found(.countByFetch) { context in _ = try context.count(for: FetchRequest<Selfie>()) }
        #expect(request.isEmpty)
        let read = try Self.found(.countByFetch) { context in
            for selfie in try context.fetch(FetchRequest<Selfie>()) { _ = selfie.name }
        }
        #expect(read.isEmpty)
    }

    @Test func aLargeFetchShowingAFewRowsIsFoundAndABatchedOneIsNot() throws {
        let line = #line + 2
        let list = try Self.found(.fetchWithoutBatchSize, on: .fireballs) { context in
            let fireballs = try context.fetch(FetchRequest<Fireball>(sortKeys: [SortKey("timestamp")]))
            for fireball in fireballs.prefix(20) { _ = fireball.impactEnergy }
        }
        #expect(list == [
            "fetch-without-batch-size/Fireball@\(Self.site):\(line) ×180: a fetch of Fireball without a batch size loaded 200 objects "
                + "and 180 of them were never read: set request.fetchBatchSize (about the rows a screen shows) to load rows page by page "
                + "as they are read, or a fetchLimit if only the first are used",
        ])
        let batched = try Self.found(.fetchWithoutBatchSize, on: .fireballs) { context in
            var request = FetchRequest<Fireball>(sortKeys: [SortKey("timestamp")])
            request.fetchBatchSize = 20
            for fireball in try context.fetch(request).prefix(20) { _ = fireball.impactEnergy }
        }
        #expect(batched.isEmpty)
        let limited = try Self.found(.fetchWithoutBatchSize, on: .fireballs) { context in
            var request = FetchRequest<Fireball>(sortKeys: [SortKey("timestamp")])
            request.fetchLimit = 20
            for fireball in try context.fetch(request) { _ = fireball.impactEnergy }
        }
        #expect(limited.isEmpty)
    }

    @Test func anUnusedToOnePrefetchIsFoundAndAUsedOneIsNot() throws {
        let line = #line + 4
        let unused = try Self.found(.unusedPrefetch, on: .fireballs) { context in
            var request = FetchRequest<Fireball>()
            request.relationshipKeyPathsForPrefetching = ["group"]
            for fireball in try context.fetch(request) { _ = fireball.impactEnergy }
        }
        #expect(unused == [
            "unused-prefetch/Fireball/group@\(Self.site):\(line) ×200: Fireball.group was prefetched for 200 objects and read for none; "
                + "drop `group` from the prefetch key paths",
        ])
        let used = try Self.found(.unusedPrefetch, on: .fireballs) { context in
            var request = FetchRequest<Fireball>()
            request.relationshipKeyPathsForPrefetching = ["group"]
            for fireball in try context.fetch(request) { _ = fireball.group?.name }
        }
        #expect(used.isEmpty)
    }
}
