import Foundation
import Probes
import Reporting
import Testing

/// Each rule with events that fire it and events that must not.
@Suite struct InsightRulesTests {
    let site = CallSite(file: "App/Gallery.swift", line: 12)

    func relationshipFault(_ entity: String, _ relationship: String, to destination: String, key: Int64 = 1) -> Event {
        .relationshipFault(RelationshipFaultEvent(
            start: 0, durationNanoseconds: 0, thread: 1, context: "main", entity: entity, relationship: relationship, primaryKey: key,
            destinationEntity: destination, destinationCount: 3, source: .database, callSite: site))
    }

    func fault(_ entity: String, _ key: Int64, _ source: FaultSource) -> Event {
        .fault(FaultEvent(start: 0, durationNanoseconds: 0, thread: 1, context: "main", entity: entity, primaryKey: key, source: source, callSite: site))
    }

    func sql(_ text: String, _ arguments: [String] = [], fullScanSteps: Int = 0, purpose: String = "fetch Selfie") -> Event {
        .sql(SQLEvent(
            start: 0, durationNanoseconds: 0, thread: 1, sql: text, shape: SQLShape.normalize(text), shapeID: 0, arguments: arguments,
            rowsReturned: 1, rowsChanged: 0, fullScanSteps: fullScanSteps, sorts: 0, autoIndexes: 0, vmSteps: 0, purpose: purpose,
            queryPlan: nil, callSite: site))
    }

    func save(objects: Int) -> Event {
        .save(SaveEvent(start: 0, durationNanoseconds: 0, thread: 1, context: "importer", inserted: objects, updated: 0, deleted: 0,
                        success: true, error: "", callSite: site))
    }

    @Test func faultStorm() {
        let events = [relationshipFault("Selfie", "socialNetworks", to: "SocialNetwork")] + (1...50).map { fault("SocialNetwork", Int64($0), .database) }
        let insights = InsightRules().analyze(events)
        #expect(insights == [Insight(
            rule: "fault-storm", entity: "SocialNetwork", keyPath: "socialNetworks",
            message: "50 faults on SocialNetwork fulfilled one by one from the database; prefetch `socialNetworks`",
            evidence: "50 database faults of SocialNetwork after relationship faults of Selfie.socialNetworks",
            callSite: "App/Gallery.swift:12")])
        #expect(insights[0].identity == "fault-storm/SocialNetwork/socialNetworks")
        // Row cache hits, too few faults, or faults no relationship led to: nothing.
        #expect(InsightRules().analyze([events[0]] + (1...50).map { fault("SocialNetwork", Int64($0), .rowCache) }).isEmpty)
        #expect(InsightRules().analyze(Array(events.prefix(40))).isEmpty)
        #expect(InsightRules().analyze(Array(events.dropFirst())).isEmpty)
    }

    func staleMiss(_ entity: String, _ key: Int64) -> Event {
        .cacheMiss(CacheMissEvent(start: 0, thread: 1, entity: entity, primaryKey: key, reason: "stale"))
    }

    @Test func staleReReadsAreNotAFaultStormAPrefetchWouldFix() {
        let lead = relationshipFault("Selfie", "socialNetworks", to: "SocialNetwork")
        // 10 first reads, then 90 re-reads of stale rows (staleness 0): a
        // prefetch saves the 10 only, below the threshold.
        let first = (1...10).map { fault("SocialNetwork", Int64($0), .database) }
        var stale: [Event] = []
        for index in 1...90 {
            let key = Int64(index % 10 + 1)
            stale += [staleMiss("SocialNetwork", key), fault("SocialNetwork", key, .database)]
        }
        #expect(InsightRules().analyze([lead] + first + stale).isEmpty)
        #expect(InsightRules().analyze([lead] + stale + first).isEmpty)
        // 60 first reads and 40 stale ones: the 60 are the storm, and the evidence says the rest.
        let many = (1...60).map { fault("SocialNetwork", Int64($0), .database) }
        let insights: [Insight] = InsightRules().analyze([lead] + many + Array(stale.prefix(80)))
        #expect(insights.map { $0.message } == ["60 faults on SocialNetwork fulfilled one by one from the database; prefetch `socialNetworks`"])
        #expect(insights.map { $0.evidence } == [
            "100 database faults of SocialNetwork after relationship faults of Selfie.socialNetworks, 40 of them re-reading stale rows "
                + "(a prefetch would not save those)",
        ])
    }

    @Test func repeatedStatement() {
        let same = (0..<10).map { _ in sql("SELECT t0.pk FROM \"Selfie\" t0 WHERE t0.\"rating\" < ?", ["5"]) }
        let insights = InsightRules().analyze(same)
        #expect(insights.map(\.rule) == ["repeated-statement"])
        #expect(insights.first?.entity == "Selfie")
        #expect(insights.first?.message == "the same statement ran 10 times with (5); keep its result instead of asking again")
        // Similar statements (other values) and transactions are not repeats.
        let similar = (0..<10).map { sql("SELECT t0.pk FROM \"Selfie\" t0 WHERE t0.\"rating\" < ?", ["\($0)"]) }
        #expect(InsightRules().analyze(similar).isEmpty)
        #expect(InsightRules().analyze((0..<10).map { _ in sql("BEGIN DEFERRED", purpose: "transaction") }).isEmpty)
        // Nor writes: there is no result to keep. A read that starts with a
        // common table expression, in any case, is one.
        let update = "UPDATE \"Selfie\" SET \"rating\" = ? WHERE pk = ?"
        #expect(InsightRules().analyze((0..<10).map { _ in sql(update, ["5", "1"], purpose: "save") }).isEmpty)
        let withClause = "with recent AS (SELECT pk FROM \"Selfie\") SELECT pk FROM recent"
        #expect(InsightRules().analyze((0..<10).map { _ in sql(withClause) }).map(\.rule) == ["repeated-statement"])
    }

    @Test func fullScanNamesTheColumnToIndex() {
        let scans = (0..<2).map { _ in sql("SELECT t0.pk FROM \"Selfie\" t0 WHERE t0.\"rating\" < ?", ["5"], fullScanSteps: 600) }
        let insights = InsightRules().analyze(scans)
        #expect(insights.map { $0.message } == ["full table scans of Selfie: 1200 rows stepped in 2 executions; an index on Selfie.rating would serve"])
        #expect(insights.first?.keyPath == "rating")
        // Small tables, and fetches of everything, are fine.
        #expect(InsightRules().analyze([sql("SELECT t0.pk FROM \"Selfie\" t0 WHERE t0.\"rating\" < ?", ["5"], fullScanSteps: 99)]).isEmpty)
        #expect(InsightRules().analyze([sql("SELECT t0.pk FROM \"Selfie\" t0", fullScanSteps: 5_000)]).isEmpty)
    }

    @Test func fullScanAdvisesNoIndexThatCannotHelp() {
        // A pattern match: no index serves it.
        let matched = sql("SELECT t0.pk FROM \"Selfie\" t0 WHERE faultline_like(t0.\"name\", ?, 0) = 1", ["'*e*ie*'"], fullScanSteps: 5_000)
        #expect(InsightRules().analyze([matched]).map { $0.message } == [
            "full table scans of Selfie: 5000 rows stepped in 1 executions; no index serves a pattern match on Selfie.name: "
                + "put a cheaper, selective term first, or narrow the rows another way",
        ])
        // A GLOB from a wildcard (a suffix, a CONTAINS) cannot use an index; a prefix can.
        let suffix = sql("SELECT t0.pk FROM \"Selfie\" t0 WHERE t0.\"name\" GLOB ?", ["'*fie 1'"], fullScanSteps: 5_000)
        #expect(InsightRules().analyze([suffix]).first?.message.contains("no index serves this condition (a pattern from a wildcard") == true)
        let prefix = sql("SELECT t0.pk FROM \"Selfie\" t0 WHERE t0.\"name\" GLOB ?", ["'Sel*'"], fullScanSteps: 5_000)
        #expect(InsightRules().analyze([prefix]).first?.message.hasSuffix("an index on Selfie.name would serve") == true)
        // An index on the rating cannot serve a condition that ORs it with a match.
        let ored = sql("SELECT t0.pk FROM \"Selfie\" t0 WHERE (t0.\"rating\" < ? OR faultline_like(t0.\"name\", ?, 0) = 1)", fullScanSteps: 5_000)
        #expect(InsightRules().analyze([ored]).first?.message.hasSuffix(
            "no index serves this condition (a pattern from a wildcard, or an OR with a match): put a cheaper, selective term first, "
                + "or narrow the rows another way") == true)
        // The column is also compared directly: an index could serve that term.
        let mixed = sql("SELECT t0.pk FROM \"Selfie\" t0 WHERE faultline_like(t0.\"name\", ?, 0) = 1 AND t0.\"name\" > ?", fullScanSteps: 5_000)
        #expect(InsightRules().analyze([mixed]).first?.message.hasSuffix("an index on Selfie.name would serve") == true)
        // An index that exists is not advised again.
        let either = sql("SELECT t0.pk FROM \"Selfie\" t0 WHERE (t0.\"rating\" < ? OR t0.\"name\" = ?)", fullScanSteps: 5_000)
        #expect(InsightRules(indexedColumns: ["Selfie.rating"]).analyze([either]).first?.message.hasSuffix(
            "Selfie.rating has an index, which this condition cannot use (an OR across columns, or a function of the column)") == true)
        #expect(InsightRules(indexedColumns: ["Person.rating"]).analyze([either]).first?.message.hasSuffix(
            "an index on Selfie.rating would serve") == true)
    }

    @Test func saveInLoop() {
        let insights = InsightRules().analyze((0..<10).map { _ in save(objects: 1) })
        #expect(insights.map { $0.message } == [
            "10 saves of one or two objects each in context importer; save once after the loop, or use a batch insert"])
        #expect(InsightRules().analyze((0..<10).map { _ in save(objects: 50) }).isEmpty)
        #expect(InsightRules().analyze((0..<9).map { _ in save(objects: 1) }).isEmpty)
    }

    @Test func repeatedCount() {
        let counts = (1...20).map { relationshipFault("Group", "fireballs", to: "Fireball", key: Int64($0)) }
        let insights = InsightRules().analyze(counts)
        #expect(insights.map(\.identity) == ["repeated-count/Group/fireballs"])
        #expect(insights.first?.message == "Group.fireballs was loaded 20 times and none of its Fireball objects was read: if only its "
            + "count is used, a derived count attribute would do; if the IDs are, one fetch of them (a SUBQUERY, or fetchObjectIDs) would")
        // Reading the destinations means the relationship was needed.
        #expect(InsightRules().analyze(counts + [fault("Fireball", 1, .rowCache)]).filter { $0.rule == "repeated-count" }.isEmpty)
        // So does fetching them with their values (the book's BatchFault),
        // but not fetching them as faults, nor fetching none.
        func fetch(asFaults: Bool, count: Int = 10) -> Event {
            .fetch(FetchEvent(
                start: 0, durationNanoseconds: 0, thread: 1, context: "main", entity: "Fireball", predicate: "", sort: "",
                resultType: "objects", resultCount: count, fetchLimit: 0, fetchOffset: 0, fetchBatchSize: 0,
                returnsObjectsAsFaults: asFaults, includesPropertyValues: true, includesPendingChanges: true, prefetch: "", callSite: site))
        }
        #expect(InsightRules().analyze(counts + [fetch(asFaults: false)]).filter { $0.rule == "repeated-count" }.isEmpty)
        #expect(InsightRules().analyze(counts + [fetch(asFaults: true)]).map(\.rule) == ["repeated-count"])
        #expect(InsightRules().analyze(counts + [fetch(asFaults: false, count: 0)]).map(\.rule) == ["repeated-count"])
    }

    /// The recorder keys repetitions by the statement's interned text; an
    /// event built by hand (no text number) is keyed by its text: the same
    /// counts either way.
    @Test func repetitionsAreTheSameWithInternedTexts() {
        let texts = ["SELECT a FROM t WHERE pk = ?", "SELECT b FROM t WHERE pk = ?"]
        var plain = InsightEvidence()
        var interned = InsightEvidence()
        for i in 0..<30 {
            guard case .sql(var event) = sql(texts[i % 2], ["\(i % 3)"]) else { continue }
            plain.add(sql: event)
            event.textID = SQLShape.internText(event.sql)
            interned.add(sql: event)
        }
        let counts = { (evidence: InsightEvidence) in evidence.repetitions.mapValues { $0.mapValues(\.count) } }
        #expect(counts(plain) == counts(interned))
        #expect(counts(plain)[texts[0]] == [["0"]: 5, ["1"]: 5, ["2"]: 5])
        #expect(counts(plain)[texts[1]] == [["0"]: 5, ["1"]: 5, ["2"]: 5])
    }
}

@Suite struct AcceptedInsightsTests {
    @Test func identitiesAreReadAndMarked() throws {
        let path = NSTemporaryDirectory() + "accepted-\(UUID().uuidString).txt"
        try "# known\nfault-storm/SocialNetwork/socialNetworks   # the SingleFault demo\n\nsave-in-loop//main\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let accepted = try AcceptedInsights(contentsOf: path)
        #expect(accepted.identities == ["fault-storm/SocialNetwork/socialNetworks", "save-in-loop//main"])
        let insights = [
            Insight(rule: "fault-storm", entity: "SocialNetwork", keyPath: "socialNetworks", message: "", evidence: "", callSite: ""),
            Insight(rule: "fault-storm", entity: "Person", keyPath: "people", message: "", evidence: "", callSite: ""),
        ]
        #expect(accepted.mark(insights).map(\.accepted) == [true, false])
    }

    @Test func aBadLineNamesTheFileAndLine() throws {
        let path = NSTemporaryDirectory() + "accepted-\(UUID().uuidString).txt"
        try "fault-storm/Person/people\njust-a-rule\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ReportError("\(path):2: expected rule/entity/keyPath, got \"just-a-rule\"")) { try AcceptedInsights(contentsOf: path) }
    }
}

@Suite struct UnusedPrefetchTests {
    func usage(read: Int) -> Event {
        .context(ContextEvent(
            start: 0, thread: 1, context: "main", kind: .prefetchUsage, objectsRegistered: 0, objectsRegisteredPeak: 0,
            prefetchUsage: PrefetchUsage(
                relationship: "Selfie.people", prefetched: 500, read: read, callSite: CallSite(file: "App/Gallery.swift", line: 12))))
    }

    @Test func aPrefetchNeverReadIsReported() {
        let insights = InsightRules().analyze([usage(read: 0)])
        #expect(insights == [Insight(
            rule: "unused-prefetch", entity: "Selfie", keyPath: "people",
            message: "Selfie.people was prefetched for 500 objects and read for none; drop `people` from the prefetch key paths",
            evidence: "prefetched=500 read=0 in context main", callSite: "App/Gallery.swift:12")])
        #expect(InsightRules().analyze([usage(read: 1)]).isEmpty)
    }
}
