@_spi(FastPath) import Probes
import Synchronization
import Testing

/// What sinks carry from an async `perform`'s task to the context's queue.
@Suite struct TaskContextCarrierTests {
    /// What the carriers and the body did, in order.
    final class Log: Sendable {
        private let entries = Mutex<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    /// A sink that carries something, noting when its carrier runs.
    final class CarryingSink: FastPathEventSink {
        let name: String
        let log: Log
        let carries: Bool

        init(_ name: String, log: Log, carries: Bool = true) {
            self.name = name
            self.log = log
            self.carries = carries
        }

        func receive(_ event: Event) {}

        func carryTaskContext() -> TaskContextCarrier? {
            guard carries else { return nil }
            return { [name, log] body in
                log.add("\(name) in")
                body()
                log.add("\(name) out")
            }
        }
    }

    @Test func aSinkCarriesNothingByDefault() {
        #expect(NoOpSink().fastPath.carryTaskContext() == nil)
        #expect(Recorder().carryTaskContext() == nil)
        #expect(MultiplexSink([NoOpSink(), Recorder()]).carryTaskContext() == nil)
    }

    /// Several carriers nest, the first sink's outermost, and the body runs once.
    @Test func multiplexedCarriersNestInOrder() {
        let log = Log()
        let sink = MultiplexSink([
            CarryingSink("a", log: log), CarryingSink("skipped", log: log, carries: false), CarryingSink("b", log: log),
        ])
        guard let carrier = sink.carryTaskContext() else {
            Issue.record("no carrier")
            return
        }
        carrier { log.add("body") }
        #expect(log.all == ["a in", "b in", "body", "b out", "a out"])
    }

    /// One carrier is handed on as it is.
    @Test func aLoneCarrierIsHandedOn() {
        let log = Log()
        let sink = MultiplexSink([NoOpSink(), CarryingSink("a", log: log)])
        guard let carrier = sink.carryTaskContext() else {
            Issue.record("no carrier")
            return
        }
        carrier { log.add("body") }
        #expect(log.all == ["a in", "body", "a out"])
    }
}
