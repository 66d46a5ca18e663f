import Foundation
import ObjectGraph
import Testing
@testable import Scenarios

/// The progress display: the iterations done (never the one under way),
/// the time since the scenario began and the time left at the pace of the
/// measured iterations done; a data set's bar with its total known from
/// its first step.
@Suite struct RunProgressTests {
    /// A printer on a clock the test moves, and what it wrote.
    final class Screen: @unchecked Sendable {
        private let lock = NSLock()
        private var written: [String] = []
        private var nanoseconds: UInt64 = 0
        func write(_ text: String) { lock.withLock { written.append(text) } }
        var text: String { lock.withLock { written.joined() } }
        var last: String { lock.withLock { written.last ?? "" } }
        func advance(seconds: Double) { lock.withLock { nanoseconds += UInt64(seconds * 1e9) } }
        var now: UInt64 { lock.withLock { nanoseconds } }

        func printer(terminal: Bool) -> ProgressPrinter {
            ProgressPrinter(quiet: false, terminal: terminal, ticks: false, write: { self.write($0) }, now: { self.now })
        }
    }

    @Test func aTerminalsBarCountsTheIterationsDoneWithTheTimeLeft() {
        let screen = Screen()
        let printer = screen.printer(terminal: true)
        printer.show(.iteration(scenario: "Prefetch", index: 1, total: 1, warmup: true))
        #expect(screen.last == "\r\u{1B}[KPrefetch        [------------------------] 0/1 warm-up done · 0.0 s elapsed")
        screen.advance(seconds: 2)
        printer.show(.iteration(scenario: "Prefetch", index: 1, total: 4, warmup: false))
        // The warm-up took 2 s; no measured iteration is done: no time left yet.
        #expect(screen.last == "\r\u{1B}[KPrefetch        [------------------------] 0/4 done · 2.0 s elapsed")
        screen.advance(seconds: 3)
        printer.show(.iteration(scenario: "Prefetch", index: 2, total: 4, warmup: false))
        #expect(screen.last == "\r\u{1B}[KPrefetch        [######------------------] 1/4 done · 5.0 s elapsed · about 9.0 s left")
        screen.advance(seconds: 3)
        printer.show(.iteration(scenario: "Prefetch", index: 4, total: 4, warmup: false))
        // The last one under way is not done.
        #expect(screen.last == "\r\u{1B}[KPrefetch        [##################------] 3/4 done · 8.0 s elapsed · about 2.0 s left")
        screen.advance(seconds: 40)
        // Drawn again as time passes (every second on a terminal).
        printer.tick()
        #expect(screen.last == "\r\u{1B}[KPrefetch        [##################------] 3/4 done · 48 s elapsed · about 15 s left")
        printer.show(.finished(scenario: "Prefetch", status: "passed"))
        #expect(screen.last == "\r\u{1B}[KPrefetch: passed in 48 s\n")
        // A kept line is not drawn again.
        printer.tick()
        #expect(screen.last == "\r\u{1B}[KPrefetch: passed in 48 s\n")
    }

    @Test func aLogGetsALinePerIteration() {
        let screen = Screen()
        let printer = screen.printer(terminal: false)
        printer.show(.iteration(scenario: "Prefetch", index: 1, total: 1, warmup: true))
        screen.advance(seconds: 1)
        printer.show(.iteration(scenario: "Prefetch", index: 1, total: 2, warmup: false))
        screen.advance(seconds: 0.5)
        printer.show(.iteration(scenario: "Prefetch", index: 2, total: 2, warmup: false))
        screen.advance(seconds: 0.5)
        printer.show(.finished(scenario: "Prefetch", status: "passed"))
        #expect(screen.text == """
            Prefetch: warm-up 1 of 1, 0 done · 0.0 s elapsed
            Prefetch: iteration 1 of 2, 0 done · 1.0 s elapsed
            Prefetch: iteration 2 of 2, 1 done · 1.5 s elapsed · about 0.5 s left
            Prefetch: passed in 2.0 s

            """)
    }

    @Test func aDataSetsBarHasItsTotalFromItsFirstStep() throws {
        var configuration = StoreConfiguration()
        configuration.sinks = []
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-progress-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try Store(model: DataSetSpecTests.model, location: .file(path), configuration: configuration)
        var steps: [(Int, Int)] = []
        // About 26,000 tags drawn at random for 200 authors, written in
        // chunks of 10,000: the pairs are drawn before the first step, so
        // its total counts their chunks already.
        try DataSetSpecTests.spec(tags: .uniform(100...160)).build(into: store, scale: 20, seed: 3) { steps.append(($0, $1)) }
        let totals = Set(steps.map(\.1))
        #expect(totals.count == 1)
        #expect((totals.first ?? 0) > 3 + 2)
        #expect(steps.map(\.0) == Array(0...(totals.first ?? 0)))
    }

    @Test(arguments: [
        (0.0, "0.0 s"), (0.04, "0.0 s"), (0.44, "0.4 s"), (9.9, "9.9 s"), (9.96, "10 s"), (59.4, "59 s"), (59.6, "1 min 00 s"),
        (185, "3 min 05 s"), (3_599, "59 min 59 s"), (3_600, "1 h 00 min"), (3_725, "1 h 02 min"),
    ])
    func elapsedTimeIsSaidAsAPersonReadsIt(seconds: Double, text: String) {
        #expect(ElapsedText(nanoseconds: UInt64(seconds * 1e9)).description == text)
    }
}
