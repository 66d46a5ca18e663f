import Probes
import Scenarios
import Testing

/// The repetition table keeps a count and the first execution's call site,
/// purpose, shape, facts, start, duration and thread per list of values
/// (no whole event): on seeded random statements it gives what keeping
/// the first event gave, through `add(sql:)` and through the in-place
/// `countExecution` a log reader uses.
@Suite struct RepetitionEvidenceTests {

    /// The table as it was: every list's count and first event, per text,
    /// at most `limit` lists per text.
    struct Reference {
        var lists: [String: [[String]: (count: Int, first: SQLEvent)]] = [:]
        var uncounted = 0

        mutating func add(_ e: SQLEvent) {
            guard e.purpose != SQLEvent.transactionPurpose, InsightEvidence.isRead(e.sql) else { return }
            if lists[e.sql]?[e.arguments] != nil {
                lists[e.sql]![e.arguments]!.count += 1
            } else if (lists[e.sql]?.count ?? 0) < InsightEvidence.distinctArgumentListsPerStatement {
                lists[e.sql, default: [:]][e.arguments] = (1, e)
            } else {
                uncounted += 1
            }
        }
    }

    static let texts = [
        "SELECT t0.pk FROM \"T\" t0 WHERE t0.pk = ?", "select t0.a, t0.b FROM \"T\" t0 WHERE t0.a = ? AND t0.b = ?",
        "WITH c AS (SELECT 1) SELECT * FROM c", "UPDATE \"T\" SET a = ? WHERE pk = ?", "BEGIN DEFERRED",
    ]
    static let sites = [CallSite(file: "App/List.swift", line: 12), CallSite(file: "App/List.swift", line: 14), CallSite(file: "App/Detail.swift", line: 3)]
    static let facts: [StatementFacts?] = [
        nil, .keyLookup("T"),
        StatementFacts(entity: "T", filters: [.init(column: .init(attribute: "a", indexed: true), use: .comparison)], hasLimit: true),
    ]

    /// A random statement: few lists of values (so that they repeat), the
    /// context of its first execution drawn from small pools.
    static func event(_ generator: inout SeededGenerator, text: Int, key: Int? = nil) -> SQLEvent {
        let sql = texts[text]
        let parameters = sql.filter { $0 == "?" }.count
        let arguments = key.map { ["\($0)"] } ?? (0..<parameters).map { _ in ["1", "2", "'K'", "'\u{212A}'", "NULL"].randomElement(using: &generator)! }
        return SQLEvent(
            start: UInt64.random(in: 0...1_000_000, using: &generator), durationNanoseconds: UInt64.random(in: 1...9_000, using: &generator),
            thread: Int32.random(in: 1...3, using: &generator), sql: sql, shape: SQLShape.normalize(sql), shapeID: text,
            arguments: arguments, rowsReturned: 1, rowsChanged: 0, fullScanSteps: 2, sorts: 0, autoIndexes: 0, vmSteps: 9,
            purpose: sql.hasPrefix("BEGIN") ? SQLEvent.transactionPurpose : ["fetch", "fault"].randomElement(using: &generator)!,
            queryPlan: nil, callSite: sites.randomElement(using: &generator)!, textID: text,
            facts: facts.randomElement(using: &generator)!)
    }

    /// Random statements, and one text with more lists than are kept.
    static func events(seed: UInt64) -> [SQLEvent] {
        var generator = SeededGenerator(seed: seed)
        var events = (0..<3_000).map { _ in event(&generator, text: Int.random(in: 0..<texts.count, using: &generator)) }
        let keys = (0..<(InsightEvidence.distinctArgumentListsPerStatement + 300)).map { $0 % 4_500 }
        events += keys.map { event(&generator, text: 0, key: $0) }
        return events
    }

    static func expectSame(_ evidence: InsightEvidence, _ reference: Reference) {
        let repetitions = evidence.repetitions
        #expect(evidence.uncountedExecutions == reference.uncounted)
        #expect(Set(repetitions.keys) == Set(reference.lists.keys))
        for (sql, lists) in reference.lists {
            #expect(repetitions[sql]?.count == lists.count)
            for (arguments, expected) in lists {
                guard let repetition = repetitions[sql]?[arguments] else {
                    Issue.record("\(sql) with \(arguments) missing")
                    continue
                }
                #expect(repetition.count == expected.count)
                #expect(repetition.firstExecution == InsightEvidence.FirstExecution(expected.first))
            }
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func keepsWhatTheFirstEventsGave(seed: UInt64) {
        let events = Self.events(seed: seed)
        var reference = Reference()
        var added = InsightEvidence(aggregatingStatements: false)
        var countedInPlace = InsightEvidence(aggregatingStatements: false)
        for e in events {
            reference.add(e)
            added.add(sql: e)
            if !countedInPlace.countExecution(text: e.textID!, arguments: e.arguments, isTransaction: e.purpose == SQLEvent.transactionPurpose) {
                countedInPlace.add(sql: e)
            }
        }
        Self.expectSame(added, reference)
        Self.expectSame(countedInPlace, reference)
    }

    /// A text not seen yet, or a new list of values, needs the event; a
    /// known list, a write or a transaction does not.
    @Test func countingInPlaceAsksForTheEventOnlyWhenItMust() {
        var generator = SeededGenerator(seed: 9)
        var evidence = InsightEvidence(aggregatingStatements: false)
        let select = Self.event(&generator, text: 0, key: 5)
        let unseen = evidence.countExecution(text: 0, arguments: ["5"], isTransaction: false)
        evidence.add(sql: select)
        let known = evidence.countExecution(text: 0, arguments: ["5"], isTransaction: false)
        let newList = evidence.countExecution(text: 0, arguments: ["6"], isTransaction: false)
        let made = evidence.countExecution(text: 0, arguments: ArgumentList(["5"]), isTransaction: false)
        #expect(!unseen && known && !newList && made)
        #expect(evidence.repetitions[select.sql]?[["5"]]?.count == 3)
        let update = Self.event(&generator, text: 3)
        evidence.add(sql: update)
        let write = evidence.countExecution(text: 3, arguments: ["9", "9"], isTransaction: false)
        let transaction = evidence.countExecution(text: 4, arguments: [], isTransaction: true)
        #expect(write && transaction)
        #expect(evidence.repetitions[update.sql] == nil)
    }

    /// The deprecated `first` is the event made of what is kept: the
    /// figures not kept are 0, the plan nil; setting it sets what is kept.
    @Test func theDeprecatedFirstEventIsMadeOfWhatIsKept() throws {
        var generator = SeededGenerator(seed: 11)
        var e = Self.event(&generator, text: 1)
        e.queryPlan = ["SEARCH T USING INDEX a (a=?)"]
        var evidence = InsightEvidence(aggregatingStatements: false)
        evidence.add(sql: e)
        evidence.add(sql: e)
        var repetition = try #require(evidence.repetitions[e.sql]?[e.arguments])
        let legacy: any FirstEventReader = LegacyFirstEventReader()
        let first = legacy.first(of: repetition)
        #expect(repetition.count == 2)
        #expect(first.sql == e.sql && first.arguments == e.arguments && first.shape == e.shape && first.shapeID == e.shapeID)
        #expect(first.purpose == e.purpose && first.callSite == e.callSite && first.facts == e.facts && first.textID == e.textID)
        #expect(first.start == e.start && first.durationNanoseconds == e.durationNanoseconds && first.thread == e.thread)
        #expect(first.rowsReturned == 0 && first.fullScanSteps == 0 && first.vmSteps == 0 && first.queryPlan == nil)
        var other = e
        other.callSite = CallSite(file: "App/Other.swift", line: 99)
        legacy.setFirst(other, of: &repetition)
        #expect(repetition.firstExecution.callSite == other.callSite)
    }
}

/// Code written against the deprecated `Repetition.first`, called through
/// a protocol so that the suite builds without deprecation warnings.
protocol FirstEventReader {
    func first(of repetition: InsightEvidence.Repetition) -> SQLEvent
    func setFirst(_ event: SQLEvent, of repetition: inout InsightEvidence.Repetition)
}

struct LegacyFirstEventReader: FirstEventReader {
    @available(*, deprecated)
    func first(of repetition: InsightEvidence.Repetition) -> SQLEvent { repetition.first }

    @available(*, deprecated)
    func setFirst(_ event: SQLEvent, of repetition: inout InsightEvidence.Repetition) { repetition.first = event }
}
