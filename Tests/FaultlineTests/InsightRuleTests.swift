@testable import Faultline
import Foundation
import Insights
import ObjectGraph
import Probes
import SQLLogViewer
import Synchronization
import Testing

/// A writer of essays, for the rules' workloads.
final class Writer: ManagedObject, EntityNamed {
    static let entityName = "Writer"
    var name: String { self[attribute: "name"] }
    var essays: [Essay] { self[toMany: "essays"] }
}

/// An essay.
final class Essay: ManagedObject, EntityNamed {
    static let entityName = "Essay"
    var title: String {
        get { self[attribute: "title"] }
        set { self[attribute: "title"] = newValue }
    }
    var writer: Writer? {
        get { self[toOne: "writer"] }
        set { self[toOne: "writer"] = newValue }
    }
}

/// Each insight rule on the engine's real work: a workload that shows the
/// pattern and one that does not, each measured (`Faultline.measure`, the
/// recorder's evidence) and logged (the SQL debug log of the same work,
/// read back by `perf-run log`'s analyzer): the same insight, with the same
/// count and words, from both.
@Suite struct InsightRuleTests {
    static func model(indexingTitles: Bool = false) -> Model {
        try! Model([
            Entity("Writer", Writer.self, properties: [.attribute("name", .string), .toMany("essays", "Essay", inverse: "writer")]),
            Entity("Essay", Essay.self, properties: [
                .attribute("title", .string, indexed: indexingTitles), .attribute("words", .int32, default: 0),
                .toOne("writer", "Writer", inverse: "essays"),
            ]),
        ])
    }

    /// A store of 3 writers with 2 essays each, whose SQL debug log (level
    /// 2) is kept in memory from when the seeding ends.
    final class Fixture: @unchecked Sendable {
        /// The log's text, kept while `on`.
        final class Buffer: @unchecked Sendable {
            let text = Mutex("")
            let on = Atomic(false)
        }

        let store: Store
        let log = Buffer()

        init(indexingTitles: Bool = false) throws {
            let log = self.log
            var configuration = StoreConfiguration()
            configuration.allowsMeasurement = true
            configuration.sinks = [SQLDebugLogSink(level: 2) { line in if log.on.load(ordering: .relaxed) { log.text.withLock { $0 += line } } }]
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-rules-\(UUID().uuidString).sqlite").path
            store = try Store(model: InsightRuleTests.model(indexingTitles: indexingTitles), location: .file(path), configuration: configuration)
            let context = ObjectContext(store: store, name: "seed")
            try context.perform {
                for number in 1...3 {
                    let writer = try context.insert(entityName: "Writer")
                    try writer.setValue(.string("Writer \(number)"), forKey: "name")
                    for essay in 1...2 {
                        let object = try context.insert(Essay.self)
                        object.title = "Essay \(number).\(essay)"
                        object.writer = writer as? Writer
                    }
                }
                try context.save()
            }
            log.on.store(true, ordering: .relaxed)
        }

        /// The insights of `body`, measured and from its log.
        func observe(_ settings: InsightSettings = InsightSettings(), _ body: (ObjectContext) throws -> Void) throws -> (run: [Insight], log: [Insight]) {
            log.text.withLock { $0 = "" }
            let measured = try Faultline.measure(store, insights: settings) {
                let context = ObjectContext(store: store)
                try context.perform { try body(context) }
            }
            var analyzer = SQLLogAnalyzer(sourceName: "test.log", settings: settings)
            for line in log.text.withLock({ $0 }).split(separator: "\n") { analyzer.consume(line: Data(line.utf8)) }
            return (measured.insights, analyzer.finish().insights)
        }
    }

    /// The insights of one rule, as the parts that must agree.
    static func found(_ insights: [Insight], _ rule: InsightRuleID) -> [String] {
        insights.filter { $0.rule == rule }.map { "\($0.subject) ×\($0.count ?? -1): \($0.message)" }
    }

    /// Both sources found the same insights of `rule`, and these are them.
    static func agree(_ observed: (run: [Insight], log: [Insight]), _ rule: InsightRuleID, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        let run = found(observed.run, rule)
        #expect(run == found(observed.log, rule), "the run and the log disagree", sourceLocation: sourceLocation)
        return run
    }

    @Test func nPlusOneOfAToOneIsFoundOnThreeRows() throws {
        let fixture = try Fixture()
        let line = #line + 2
        let list = try fixture.observe { context in
            for essay in try context.fetch(FetchRequest<Essay>(sortKeys: [SortKey("title")])) { _ = essay.writer?.name }
        }
        let site = CallSite(file: "FaultlineTests/InsightRuleTests.swift", line: line)
        let insights = Self.agree(list, .nPlusOne)
        #expect(insights == [
            "n-plus-one/Essay/writer ×3: N+1: `writer` loaded one object at a time for the Essay objects of one fetch (3 queries); "
                + "prefetch it with the fetch: request.relationshipKeyPathsForPrefetching = [\"writer\"]",
        ])
        let insight = try #require(list.run.first { $0.rule == .nPlusOne })
        #expect(insight.fix == InsightFix(kind: .prefetch, entity: "Essay", keyPath: "writer", fetchSites: [site]))
        #expect(insight.callSite == site.description)
        // The first read is the line that read the typed property.
        #expect(insight.evidence.hasSuffix("(3 faults of Writer; first read at \(site))"))
        // Prefetched, or read for one row, or with a higher threshold: none.
        let prefetched = try fixture.observe { context in
            var request = FetchRequest<Essay>(sortKeys: [SortKey("title")])
            request.relationshipKeyPathsForPrefetching = ["writer"]
            for essay in try context.fetch(request) { _ = essay.writer?.name }
        }
        #expect(Self.agree(prefetched, .nPlusOne).isEmpty)
        let one = try fixture.observe { context in _ = try context.fetch(FetchRequest<Essay>()).first?.writer?.name }
        #expect(Self.agree(one, .nPlusOne).isEmpty)
        let lenient = try fixture.observe(InsightSettings(thresholds: [.nPlusOne: 4])) { context in
            for essay in try context.fetch(FetchRequest<Essay>()) { _ = essay.writer?.name }
        }
        #expect(Self.agree(lenient, .nPlusOne).isEmpty)
    }

    @Test func nPlusOneOfAToManyCountsItsRelationshipFaultsAndFaults() throws {
        let fixture = try Fixture()
        let list = try fixture.observe { context in
            for writer in try context.fetch(FetchRequest<Writer>()) {
                for essay in writer.essays { _ = essay.title }
            }
        }
        // 3 relationship faults and 6 faults of essays.
        #expect(Self.agree(list, .nPlusOne) == [
            "n-plus-one/Writer/essays ×9: N+1: `essays` loaded one object at a time for the Writer objects of one fetch (9 queries); "
                + "prefetch it with the fetch: request.relationshipKeyPathsForPrefetching = [\"essays\"]",
        ])
        // The writers' names only: no lazy load.
        let names = try fixture.observe { context in for writer in try context.fetch(FetchRequest<Writer>()) { _ = writer.name } }
        #expect(Self.agree(names, .nPlusOne).isEmpty)
    }

    @Test func repeatedCountWhenOnlyTheCountIsRead() throws {
        let fixture = try Fixture()
        let counted = try fixture.observe { context in
            _ = try context.fetch(FetchRequest<Writer>()).reduce(0) { $0 + $1.essays.count }
        }
        #expect(Self.agree(counted, .repeatedCount) == [
            "repeated-count/Writer/essays ×3: Writer.essays was loaded 3 times and none of its Essay objects was read: if only its count is "
                + "used, a derived count attribute would do; if the IDs are, one fetch of them (a SUBQUERY, or fetchObjectIDs) would",
        ])
        // Not an N+1 to prefetch: the destinations were not read.
        #expect(Self.agree(counted, .nPlusOne).isEmpty)
        // Reading the essays is the N+1's, not this rule's.
        let read = try fixture.observe { context in
            for writer in try context.fetch(FetchRequest<Writer>()) { _ = writer.essays.map(\.title) }
        }
        #expect(Self.agree(read, .repeatedCount).isEmpty)
    }

    /// A fetch by key per element, or an existing object per ID: one
    /// site running one shape with other values each time. Found at its
    /// line in a run, as a run of one statement in the log (which names no
    /// site for a statement); not for one fetch of them all, not where the
    /// N+1 rule explains the loads, not below the threshold.
    @Test func queryInLoopByShapeAndSite() throws {
        let fixture = try Fixture()
        let titles = ["Essay 1.1", "Essay 1.2", "Essay 2.1", "Essay 2.2", "Essay 3.1", "Essay 3.2"]
        let line = #line + 2
        let byKey = try fixture.observe { context in
            for title in titles { _ = try context.fetch(FetchRequest<Essay>(predicate: Key("title") == .string(title))).first?.title }
        }
        let shape = #"SELECT t0.pk, t0."title", t0."words", t0."writer_pk" FROM "Essay" t0 WHERE t0."title" = ?"#
        let run = try #require(byKey.run.first { $0.rule == .queryInLoop })
        #expect(run.identity == "query-in-loop/Essay/\(shape)@FaultlineTests/InsightRuleTests.swift:\(line)")
        #expect(run.count == 6)
        #expect(run.message == "query in a loop: the same Essay statement ran 6 times at FaultlineTests/InsightRuleTests.swift:\(line), "
            + "one value at a time; fetch them at once: one request whose predicate takes the keys (#Predicate: `keys.contains($0.key)`; "
            + "NSPredicate: `key IN %@`)")
        let logged = byKey.log.filter { $0.rule == .queryInLoop }
        #expect(logged.map(\.subject) == [run.subject] && logged.map(\.count) == [6], "\(logged)")
        // One fetch of them all.
        let once = try fixture.observe { context in
            _ = try context.fetch(FetchRequest<Essay>(predicate: try ObjectPredicate(format: "title IN %@", titles))).map(\.title)
        }
        #expect(once.run.filter { $0.rule == .queryInLoop }.isEmpty && once.log.filter { $0.rule == .queryInLoop }.isEmpty)
        // Four keys: below the threshold of 5.
        let four = try fixture.observe { context in
            for title in titles.prefix(4) { _ = try context.fetch(FetchRequest<Essay>(predicate: Key("title") == .string(title))).first }
        }
        #expect(four.run.filter { $0.rule == .queryInLoop }.isEmpty)
        // The N+1 rule's loop (the essays of one fetch read their writers)
        // is reported once, by it.
        let nPlusOne = try fixture.observe(InsightSettings(thresholds: [.queryInLoop: 3])) { context in
            for essay in try context.fetch(FetchRequest<Essay>()) { _ = essay.writer?.name }
        }
        #expect(nPlusOne.run.contains { $0.rule == .nPlusOne })
        #expect(nPlusOne.run.filter { $0.rule == .queryInLoop }.isEmpty, "\(nPlusOne.run.map(\.identity))")
    }

    /// A fetch that intends its objects' lazy loads of a key path: its N+1
    /// is intended at that site only, in the measurement and in the log;
    /// another site's N+1 of the same key path is advice; an intention
    /// that no insight matches is said.
    @Test func aFetchIntendsItsLazyLoadsAtItsSiteOnly() throws {
        let fixture = try Fixture()
        let cardsLine = #line + 5
        let listLine = #line + 6
        let observed = try fixture.observe { context in
            var cards = FetchRequest<Essay>()
            cards.intendedLazyLoads = ["writer"]
            for essay in try context.fetch(cards) { _ = essay.writer?.name }
            context.reset()
            for essay in try context.fetch(FetchRequest<Essay>()) { _ = essay.writer?.name }
        }
        for insights in [observed.run, observed.log] {
            let found = insights.filter { $0.rule == .nPlusOne }
            #expect(found.map(\.callSite) == ["FaultlineTests/InsightRuleTests.swift:\(cardsLine)", "FaultlineTests/InsightRuleTests.swift:\(listLine)"])
            #expect(found.map(\.intended) == [InsightEngine.intendedAtFetch, nil])
        }
        // An intention nothing matches: a key path read for no object.
        let fixtureStore = fixture.store
        let measured = try Faultline.measure(fixtureStore) {
            let context = ObjectContext(store: fixtureStore)
            try context.perform {
                var request = FetchRequest<Essay>()
                request.intendedLazyLoads = ["writer"]
                _ = try context.fetch(request).map(\.title)
            }
        }
        #expect(measured.unmatchedIntentions == ["Essay.writer at FaultlineTests/InsightRuleTests.swift:\(#line - 3)"])
    }

    /// `existingObject(with:)` per ID: faults of objects no fetch produced,
    /// which the N+1 rule cannot see.
    @Test func queryInLoopOfObjectsByID() throws {
        let fixture = try Fixture()
        let reader = ObjectContext(store: fixture.store, name: "ids")
        let ids = try reader.perform { try reader.fetchObjectIDs(FetchRequest<Essay>()) }
        let line = #line + 2
        let byID = try fixture.observe { context in
            for id in ids { _ = (try context.existingObject(with: id) as? Essay)?.title }
        }
        let run = try #require(byID.run.first { $0.rule == .queryInLoop }, "\(byID.run.map(\.identity))")
        #expect(run.callSite == "FaultlineTests/InsightRuleTests.swift:\(line)")
        #expect(run.count == 6)
        #expect(run.message.hasSuffix("fetch the objects at once, one request for their IDs (Key.object.isIn(ids); NSPredicate: `SELF IN %@`), "
            + "instead of faulting each by its ID"))
        #expect(byID.run.filter { $0.rule == .nPlusOne }.isEmpty)
    }

    @Test func repeatedStatementAtItsThreshold() throws {
        let fixture = try Fixture()
        let request = FetchRequest<Essay>(predicate: Key("words") > 100)
        let thrice = try fixture.observe { context in for _ in 0..<3 { _ = try context.count(for: request) } }
        #expect(Self.agree(thrice, .repeatedStatement) == [
            "repeated-statement/Essay/SELECT count(*) FROM \"Essay\" t0 WHERE t0.\"words\" > ? ×3: the same statement ran 3 times with (100); "
                + "keep its result instead of asking again",
        ])
        let twice = try fixture.observe { context in for _ in 0..<2 { _ = try context.count(for: request) } }
        #expect(Self.agree(twice, .repeatedStatement).isEmpty)
        let varied = try fixture.observe { context in
            for words in 0..<3 { _ = try context.count(for: FetchRequest<Essay>(predicate: Key("words") > .integer(Int64(words)))) }
        }
        #expect(Self.agree(varied, .repeatedStatement).isEmpty)
    }

    /// Every scan counted, however small the table (the fixture's has 6 rows).
    static let everyTable = InsightSettings(smallTableRows: 1)

    @Test func fullScanNamesTheIndexThatWouldServe() throws {
        let fixture = try Fixture()
        let lookup = try fixture.observe(Self.everyTable) { context in
            _ = try context.fetch(FetchRequest<Essay>(predicate: Key("title") == "Essay 2.1"))
        }
        #expect(Self.agree(lookup, .fullScan) == [
            "full-scan/Essay/title ×5: full table scans of Essay: 5 rows stepped in 1 execution; an index on Essay.title would serve",
        ])
        #expect(lookup.run.first { $0.rule == .fullScan }?.fix == InsightFix(kind: .index, entity: "Essay", keyPath: "title"))
        #expect(lookup.run.first { $0.rule == .fullScan }?.canBeFixed == true)
        // No index serves a pattern from a wildcard: said, and marked so.
        let contains = try fixture.observe(Self.everyTable) { context in
            _ = try context.fetch(FetchRequest<Essay>(predicate: try ObjectPredicate(format: "title CONTAINS '2.'")))
        }
        #expect(Self.agree(contains, .fullScan) == [
            "full-scan/Essay/title ×5: full table scans of Essay: 5 rows stepped in 1 execution; no index serves a pattern from a wildcard "
                + "on Essay.title: put a cheaper, selective term first, or narrow the rows another way",
        ])
        #expect(contains.run.first { $0.rule == .fullScan }?.noIndexServes == true)
        #expect(contains.log.first { $0.rule == .fullScan }?.noIndexServes == true)
        // Every row asked for, or an index that serves: no advice.
        let all = try fixture.observe(Self.everyTable) { context in _ = try context.fetch(FetchRequest<Essay>()) }
        #expect(Self.agree(all, .fullScan).isEmpty)
        let indexed = try Fixture(indexingTitles: true)
        let served = try indexed.observe(Self.everyTable) { context in
            _ = try context.fetch(FetchRequest<Essay>(predicate: Key("title") == "Essay 2.1"))
        }
        #expect(Self.agree(served, .fullScan).isEmpty)
        // A table of 6 rows is small by default: a page read either way.
        // Its scan steps through 5 rows: small below 6, not below 5.
        let small = try fixture.observe { context in _ = try context.fetch(FetchRequest<Essay>(predicate: Key("title") == "Essay 2.1")) }
        #expect(Self.agree(small, .fullScan).isEmpty)
        let belowSix = try fixture.observe(InsightSettings(smallTableRows: 6)) { context in
            _ = try context.fetch(FetchRequest<Essay>(predicate: Key("title") == "Essay 2.1"))
        }
        #expect(Self.agree(belowSix, .fullScan).isEmpty)
        let belowFive = try fixture.observe(InsightSettings(smallTableRows: 5)) { context in
            _ = try context.fetch(FetchRequest<Essay>(predicate: Key("title") == "Essay 2.1"))
        }
        #expect(Self.agree(belowFive, .fullScan).count == 1)
    }

    @Test func sortWithoutIndexWithAndWithoutLimit() throws {
        let fixture = try Fixture()
        let firstTwo = try fixture.observe(Self.everyTable) { context in
            var request = FetchRequest<Essay>(sortKeys: [SortKey("title")])
            request.fetchLimit = 2
            _ = try context.fetch(request)
        }
        #expect(Self.agree(firstTwo, .sortWithoutIndex) == [
            "sort-without-index/Essay/title ×1: Essay rows sorted by title in a temporary B-tree after a full scan for a LIMIT of them "
                + "(1 execution); an index on Essay.title would let SQLite read the first rows in order and stop",
        ])
        let all = try fixture.observe(Self.everyTable) { context in _ = try context.fetch(FetchRequest<Essay>(sortKeys: [SortKey("title")])) }
        #expect(Self.agree(all, .sortWithoutIndex).first?.hasSuffix("(it still reads every row)") == true)
        let indexed = try Fixture(indexingTitles: true)
        let served = try indexed.observe(Self.everyTable) { context in
            _ = try context.fetch(FetchRequest<Essay>(sortKeys: [SortKey("title")]))
        }
        #expect(Self.agree(served, .sortWithoutIndex).isEmpty)
        // Sorting 6 rows in memory is no mistake by default.
        let small = try fixture.observe { context in _ = try context.fetch(FetchRequest<Essay>(sortKeys: [SortKey("title")])) }
        #expect(Self.agree(small, .sortWithoutIndex).isEmpty)
    }

    @Test func saveInLoopCountsSavesFromOneCallSite() throws {
        let fixture = try Fixture()
        let line = #line + 5
        let loop = try fixture.observe { context in
            for number in 0..<3 {
                let essay = try context.insert(Essay.self)
                essay.title = "New \(number)"
                try context.save()
            }
        }
        #expect(Self.agree(loop, .saveInLoop) == [
            "save-in-loop/context ×3: 3 saves from one call site (3 objects in all), a transaction each; save once after the loop, "
                + "or use a batch insert",
        ])
        #expect(loop.run.first { $0.rule == .saveInLoop }?.callSite == "FaultlineTests/InsightRuleTests.swift:\(line)")
        // Whatever the objects per save: a writer with two essays, inserted
        // and linked (the writer's inverse is updated too), per save.
        let larger = try fixture.observe { context in
            for number in 0..<3 {
                let writer = try context.insert(Writer.self)
                try writer.setValue(.string("W\(number)"), forKey: "name")
                for essay in 0..<2 {
                    let object = try context.insert(Essay.self)
                    object.title = "E\(number).\(essay)"
                    object.writer = writer
                }
                try context.save()
            }
        }
        #expect(Self.agree(larger, .saveInLoop) == [
            "save-in-loop/context ×3: 3 saves from one call site (9 objects in all), a transaction each; save once after the loop, "
                + "or use a batch insert",
        ])
        let once = try fixture.observe { context in
            for number in 0..<3 { try context.insert(Essay.self).title = "New \(number)" }
            try context.save()
        }
        #expect(Self.agree(once, .saveInLoop).isEmpty)
        // Three saves from three lines are three actions, not a loop.
        let apart = try fixture.observe { context in
            try context.insert(Essay.self).title = "A"
            try context.save()
            try context.insert(Essay.self).title = "B"
            try context.save()
            try context.insert(Essay.self).title = "C"
            try context.save()
        }
        #expect(Self.agree(apart, .saveInLoop).isEmpty)
    }

    @Test func unusedPrefetchWhenNoObjectReadsIt() throws {
        let fixture = try Fixture()
        let unused = try fixture.observe { context in
            var request = FetchRequest<Writer>()
            request.relationshipKeyPathsForPrefetching = ["essays"]
            for writer in try context.fetch(request) { _ = writer.name }
            context.reset()
        }
        #expect(Self.agree(unused, .unusedPrefetch) == [
            "unused-prefetch/Writer/essays ×3: Writer.essays was prefetched for 3 objects and read for none; drop `essays` from the "
                + "prefetch key paths",
        ])
        let used = try fixture.observe { context in
            var request = FetchRequest<Writer>()
            request.relationshipKeyPathsForPrefetching = ["essays"]
            for writer in try context.fetch(request) { _ = writer.essays.count }
            context.reset()
        }
        #expect(Self.agree(used, .unusedPrefetch).isEmpty)
    }

    @Test func anUnusedPrefetchIsFoundAtItsSiteBesideAReadOneOfTheSameRelationship() throws {
        let fixture = try Fixture()
        let unreadLine = #line + 12
        let both = try fixture.observe { context in
            // A list prefetches the essays and reads them…
            var list = FetchRequest<Writer>()
            list.relationshipKeyPathsForPrefetching = ["essays"]
            for writer in try context.fetch(list) { _ = writer.essays.count }
            context.reset()
            // …a search prefetches them too and reads none, in another context.
            let other = ObjectContext(store: fixture.store, name: "search")
            try other.perform {
                var search = FetchRequest<Writer>(predicate: Key("name") == "Writer 2")
                search.relationshipKeyPathsForPrefetching = ["essays"]
                for writer in try other.fetch(search) { _ = writer.name }
                other.reset()
            }
        }
        #expect(Self.agree(both, .unusedPrefetch) == [
            "unused-prefetch/Writer/essays ×1: Writer.essays was prefetched for 1 objects and read for none; drop `essays` from the "
                + "prefetch key paths",
        ])
        #expect(both.run.first { $0.rule == .unusedPrefetch }?.callSite == "FaultlineTests/InsightRuleTests.swift:\(unreadLine)")
    }

    @Test func aScanAnIndexWouldServeIsNotHiddenByOneNoIndexServesOnTheSameColumn() throws {
        let fixture = try Fixture()
        let both = try fixture.observe(Self.everyTable) { context in
            _ = try context.fetch(FetchRequest<Essay>(predicate: try ObjectPredicate(format: "title CONTAINS '2.'")))
            _ = try context.fetch(FetchRequest<Essay>(predicate: Key("title") == "Essay 2.1"))
        }
        #expect(Self.agree(both, .fullScan).sorted() == [
            "full-scan/Essay/title ×5: full table scans of Essay: 5 rows stepped in 1 execution; an index on Essay.title would serve",
            "full-scan/Essay/title ×5: full table scans of Essay: 5 rows stepped in 1 execution; no index serves a pattern from a wildcard "
                + "on Essay.title: put a cheaper, selective term first, or narrow the rows another way",
        ])
        #expect(both.run.filter { $0.rule == .fullScan }.map(\.canBeFixed).sorted { !$0 && $1 } == [false, true])
    }
}
