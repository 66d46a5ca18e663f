import ObjectGraph
@_spi(FastPath) @testable import Probes
import Synchronization
import Testing

/// What the LTTng sink writes into fields: call sites interned (a number
/// per site, its text traced once per session in a `call_site` event,
/// ``TracedCallSites``) and statements' bound values lent as they are.
@Suite struct TraceFieldsTests {
    /// What a sink told: each number with its site, in order.
    private final class Told {
        var sites: [(UInt64, CallSite)] = []
        var recording = true
        func tell(_ number: UInt64, _ site: CallSite) -> Bool {
            guard recording else { return false }
            sites.append((number, site))
            return true
        }
    }

    @Test func eachSiteIsToldOnceAndKeepsItsNumber() {
        var traced = TracedCallSites()
        let told = Told()
        let list = CallSite(file: "App/List.swift", line: 12)
        let detail = CallSite(file: "App/Detail.swift", line: 12)
        let store = CallSite(noSiteBecause: .storeWork)
        var numbers: [UInt64] = []
        for site in [list, list, detail, list, store, detail, store] {
            numbers.append(traced.number(of: site, tell: told.tell))
        }
        #expect(numbers == [0, 0, 1, 0, 2, 1, 2])
        #expect(told.sites.map(\.0) == [0, 1, 2])
        #expect(told.sites.map(\.1) == [list, detail, store])
        #expect(traced.sites == [list, detail, store])
        // A site equal to one seen, from another string: the same number.
        let copy = CallSite(file: String("App/List.swift".reversed().reversed()), line: 12)
        #expect(traced.number(of: copy, tell: told.tell) == 0)
        #expect(told.sites.count == 3)
    }

    /// More sites than the table has slots, sharing lines and file lengths
    /// (so sharing slots): each keeps its own number, told once.
    @Test func sitesSharingASlotKeepTheirNumbers() {
        var traced = TracedCallSites()
        let told = Told()
        let sites = (0..<300).map { CallSite(file: "App/File\($0 % 10).swift", line: 1 + $0 / 10) }
        for _ in 0..<3 {
            for (index, site) in sites.enumerated() { #expect(traced.number(of: site, tell: told.tell) == UInt64(index)) }
        }
        #expect(told.sites.count == 300)
        #expect(Set(told.sites.map(\.0)).count == 300)
    }

    /// After a session ends, each site is told again with its number; a
    /// session that does not record `call_site` is told nothing, and the
    /// next one that does is told each site it uses.
    @Test func aLaterSessionIsToldEachSiteAgain() {
        var traced = TracedCallSites()
        let told = Told()
        let list = CallSite(file: "App/List.swift", line: 12)
        let detail = CallSite(file: "App/Detail.swift", line: 30)
        _ = traced.number(of: list, tell: told.tell)
        _ = traced.number(of: detail, tell: told.tell)
        traced.forgetTold()
        told.recording = false
        #expect(traced.number(of: detail, tell: told.tell) == 1)
        #expect(traced.number(of: detail, tell: told.tell) == 1)
        told.recording = true
        #expect(traced.number(of: detail, tell: told.tell) == 1)
        #expect(traced.number(of: detail, tell: told.tell) == 1)
        #expect(traced.number(of: list, tell: told.tell) == 0)
        #expect(told.sites.map(\.0) == [0, 1, 1, 0])
    }

    /// A key lookup's one integer is written as its digits without a
    /// `String`, as `String(value)` would write it.
    @Test func anIntegerArgumentIsWrittenAsItsDigits() {
        for value: Int64 in [0, 7, -7, 42, 1_000_000, .max, .min] {
            let written = StatementArguments.integer(value).withCString { String(cString: $0) }
            #expect(written == String(value))
            #expect(StatementArguments.integer(value).text == String(value))
        }
        #expect(StatementArguments.none.withCString { String(cString: $0) } == "")
        #expect(StatementArguments.rendered("'a', 2").withCString { String(cString: $0) } == "'a', 2")
        #expect(StatementArguments.rendered("'a', 2").text == "'a', 2")
    }

    /// Bound values other than a lone integer are rendered only when a
    /// sink reads them: a sink of the older entry point gets them in its
    /// texts, made only if it asks.
    @Test func boundValuesAreRenderedOnlyWhenRead() {
        let values = CountingValues()
        let arguments = StatementArguments.values(values)
        #expect(values.renders.load(ordering: .relaxed) == 0)
        let site = CallSite(file: "App/Loop.swift", line: 7)
        let parts = StatementParts(
            shapeID: 1, textID: 1, durationNanoseconds: 5, rowsReturned: 1, rowsChanged: 0, fullScanSteps: 0, sorts: 0,
            autoIndexes: 0, vmSteps: 3, isTransaction: false, hasDetails: true, callSite: site)
        func lend(to sink: TextsSink) {
            sink.receiveStatement(
                parts, sql: "SELECT ?", sqlIsShape: true, arguments: arguments, purpose: "fetch", queryPlan: nil
            ) { fatalError("no event is made") }
        }
        lend(to: TextsSink(readsTexts: false))
        #expect(values.renders.load(ordering: .relaxed) == 0)
        let withTexts = TextsSink(readsTexts: true)
        lend(to: withTexts)
        #expect(values.renders.load(ordering: .relaxed) == 1)
        #expect(withTexts.texts.withLock { $0.map(\.arguments) } == ["1, 'x'"])
        #expect(withTexts.texts.withLock { $0.map(\.callSite) } == [site])
        #expect(withTexts.texts.withLock { $0.map(\.shape) } == ["SELECT ?"])
    }

    /// The one question per statement: nil while the sink wants no SQL
    /// event, else its details, by default from the two questions it
    /// stands for.
    @Test func statementDetailsAreNilUntilTheSinkWantsStatements() {
        let sink = SwitchedSink()
        #expect(sink.statementDetails == nil)
        sink.wantsSQL.store(true, ordering: .relaxed)
        #expect(sink.statementDetails == [.sqlArguments, .queryPlans])
    }

    /// A statement whose text is not its shape's is lent without the
    /// shape's text: a sink that makes the texts finds it by the shape's
    /// number.
    @Test func aLentStatementsShapeIsFoundByItsNumber() {
        let sql = "SELECT * FROM lent_shape WHERE id = 42"
        let (shape, shapeID) = SQLShape.intern(sql)
        #expect(shape != sql)
        #expect(SQLShape.text(ofShape: shapeID) == shape)
        let parts = StatementParts(
            shapeID: shapeID, textID: 1, durationNanoseconds: 5, rowsReturned: 1, rowsChanged: 0, fullScanSteps: 0, sorts: 0,
            autoIndexes: 0, vmSteps: 3, isTransaction: false, hasDetails: false)
        let sink = TextsSink(readsTexts: true)
        sink.receiveStatement(parts, sql: sql, sqlIsShape: false, arguments: .none, purpose: "fetch", queryPlan: nil) {
            fatalError("no event is made")
        }
        #expect(sink.texts.withLock { $0.map(\.shape) } == [shape])
        #expect(sink.texts.withLock { $0.map(\.sql) } == [sql])
    }
}

extension TraceFieldsTests {
    /// The engine lends a statement's texts to a sink that takes them so
    /// (and only then: others get them made on demand), beside whole events
    /// for a sink that needs those: the same statements, texts and values.
    @Test func theEngineLendsStatementTextsToASinkThatTakesThem() throws {
        let path = try Workload.populate(people: 3, selfies: 4, networks: 1)
        let lending = LendingSink()
        let whole = InMemorySink(details: [.sqlArguments])
        #expect(MultiplexSink([lending, whole]).takesLentStatementTexts)
        #expect(!MultiplexSink([whole, TextsSink(readsTexts: true)]).takesLentStatementTexts)
        let store = try Workload.store(path, sinks: [lending, whole])
        let context = ObjectContext(store: store, name: "lent")
        try context.perform {
            for selfie in try context.fetch(FetchRequest<ManagedObject>(entityName: "Selfie")) { _ = try selfie.value(forKey: "name") }
            context.reset()
            let selfies = Array(try context.fetch(FetchRequest<ManagedObject>(entityName: "Selfie", predicate: Key("rating") < 5)))
            for selfie in selfies { _ = try selfie.value(forKey: "name") }
            _ = try context.fetch(FetchRequest<ManagedObject>(
                entityName: "Person", predicate: Key("name").like("*e*ie*")))
        }
        let statements = whole.statements
        let lent = lending.statements.withLock { $0 }
        #expect(!statements.isEmpty)
        #expect(lent.map(\.sql) == statements.map(\.sql))
        #expect(lent.map(\.sqlIsShape) == statements.map { $0.sql == $0.shape })
        #expect(lent.contains { !$0.sqlIsShape } && lent.contains { $0.sqlIsShape })
        #expect(lent.map(\.arguments) == statements.map { StatementTexts.joined($0.arguments) })
        #expect(lent.contains { $0.arguments.isEmpty } && lent.contains { !$0.arguments.isEmpty })
        #expect(lent.map(\.purpose) == statements.map(\.purpose))
        #expect(lent.map(\.callSite) == statements.map(\.callSite))
        #expect(lending.oldEntryPointCalls.load(ordering: .relaxed) == 0)
    }
}

/// A sink that takes statements' texts lent and keeps what it was lent.
private final class LendingSink: FastPathEventSink {
    struct Lent: Sendable {
        var sql: String
        var sqlIsShape: Bool
        var arguments: String
        var purpose: String
        var callSite: CallSite
    }
    let statements = Mutex<[Lent]>([])
    let oldEntryPointCalls = Atomic<Int>(0)
    var details: EventDetails { [.sqlArguments] }
    var takesLentStatementTexts: Bool { true }
    func receive(_ event: Event) {}
    func receiveStatement(_ parts: StatementParts, texts: () -> StatementTexts, event: () -> SQLEvent) {
        oldEntryPointCalls.add(1, ordering: .relaxed)
    }
    func receiveStatement(
        _ parts: StatementParts, sql: String, sqlIsShape: Bool, arguments: StatementArguments, purpose: String,
        queryPlan: [String]?, event: () -> SQLEvent
    ) {
        let lent = Lent(sql: sql, sqlIsShape: sqlIsShape, arguments: arguments.text, purpose: purpose, callSite: parts.callSite)
        statements.withLock { $0.append(lent) }
    }
}

private final class CountingValues: BoundValues {
    let renders = Atomic<Int>(0)
    var renderedText: String {
        renders.add(1, ordering: .relaxed)
        return "1, 'x'"
    }
}

/// A sink of the older entry point: figures and texts made on demand.
private final class TextsSink: FastPathEventSink {
    let readsTexts: Bool
    let texts = Mutex<[StatementTexts]>([])
    init(readsTexts: Bool) { self.readsTexts = readsTexts }
    func receive(_ event: Event) {}
    func receiveStatement(_ parts: StatementParts, texts: () -> StatementTexts, event: () -> SQLEvent) {
        guard readsTexts else { return }
        let made = texts()
        self.texts.withLock { $0.append(made) }
    }
}

/// A sink whose wish for SQL events is switched by hand.
private final class SwitchedSink: FastPathEventSink {
    let wantsSQL = Atomic<Bool>(false)
    var details: EventDetails { [.sqlArguments, .queryPlans] }
    func isEnabled(_ kind: EventKind) -> Bool { kind == .sql && wantsSQL.load(ordering: .relaxed) }
    func receive(_ event: Event) {}
}
