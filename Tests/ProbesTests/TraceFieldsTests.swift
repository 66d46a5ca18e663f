import ObjectGraph
@_spi(FastPath) @testable import Probes
import Synchronization
import Testing

/// What the LTTng sink writes into fields: call sites' files interned (a
/// number per file, its text traced with the first event of the number
/// only) and statements' bound values lent as they are.
@Suite struct TraceFieldsTests {
    @Test func eachFileGetsANumberWhoseTextIsTracedOnce() {
        var files = TracedFiles()
        #expect(files.number(of: "App/Loop.swift") == (0, true))
        #expect(files.number(of: "App/Loop.swift") == (0, false))
        #expect(files.number(of: "App/Other.swift") == (1, true))
        // Back to the first file: known, though it was not the last one.
        #expect(files.number(of: "App/Loop.swift") == (0, false))
        #expect(files.number(of: "App/Other.swift") == (1, false))
    }

    /// A new session is told every file again, each with the number it
    /// had: a session stopped and started again keeps one file per number.
    @Test func aNewSessionIsToldEachFileWithItsNumber() {
        var files = TracedFiles()
        #expect(files.number(of: "App/Loop.swift") == (0, true))
        #expect(files.number(of: "App/Other.swift") == (1, true))
        files.forgetTold()
        #expect(files.number(of: "App/Other.swift") == (1, true))
        #expect(files.number(of: "App/Other.swift") == (1, false))
        #expect(files.number(of: "App/Loop.swift") == (0, true))
        #expect(files.number(of: "App/New.swift") == (2, true))
    }

    /// The same text in another string (a call site named from the stack
    /// is a string of its own) is the same file.
    @Test func aFileIsKnownByItsTextNotItsString() {
        var files = TracedFiles()
        let literal = "App/Loop.swift"
        let made = String(["App/", "Loop.swift"].joined())
        #expect(files.number(of: literal) == (0, true))
        #expect(files.number(of: made) == (0, false))
        #expect(files.number(of: "?") == (1, true))
        #expect(files.number(of: made) == (0, false))
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
        let parts = StatementParts(
            shapeID: 1, textID: 1, durationNanoseconds: 5, rowsReturned: 1, rowsChanged: 0, fullScanSteps: 0, sorts: 0,
            autoIndexes: 0, vmSteps: 3, isTransaction: false, hasDetails: true)
        let site = CallSite(file: "App/Loop.swift", line: 7)
        func lend(to sink: TextsSink) {
            sink.receiveStatement(
                parts, sql: "SELECT ?", shape: "SELECT ?", sqlIsShape: true, arguments: arguments, purpose: "fetch", queryPlan: nil,
                callSite: site
            ) { fatalError("no event is made") }
        }
        lend(to: TextsSink(readsTexts: false))
        #expect(values.renders.load(ordering: .relaxed) == 0)
        let withTexts = TextsSink(readsTexts: true)
        lend(to: withTexts)
        #expect(values.renders.load(ordering: .relaxed) == 1)
        #expect(withTexts.texts.withLock { $0.map(\.arguments) } == ["1, 'x'"])
        #expect(withTexts.texts.withLock { $0.map(\.callSite) } == [site])
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
        _ parts: StatementParts, sql: String, shape: String, sqlIsShape: Bool, arguments: StatementArguments, purpose: String,
        queryPlan: [String]?, callSite: CallSite, event: () -> SQLEvent
    ) {
        let lent = Lent(sql: sql, sqlIsShape: sqlIsShape, arguments: arguments.text, purpose: purpose, callSite: callSite)
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
