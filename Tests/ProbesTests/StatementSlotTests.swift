import Foundation
import ObjectGraph
@_spi(FastPath) import Probes
import Synchronization
import Testing

/// What the engine keeps per prepared statement and per connection for its
/// SQL events: its own data beside the statement's `annotation`, which stays
/// the application's, and whether the statements run now are a
/// transaction's, known without reading their purpose's text.
@Suite struct StatementSlotTests {
    final class Mark: Sendable {}

    /// Statements' figures as a sink gets them, with their purposes.
    final class PartsSink: FastPathEventSink {
        let seen = Mutex<[(isTransaction: Bool, purpose: String)]>([])
        var details: EventDetails { [] }
        var possibleDetails: EventDetails { [] }
        func receive(_ event: Event) {}
        func receiveStatement(_ parts: StatementParts, texts: () -> StatementTexts, event: () -> SQLEvent) {
            let purpose = texts().purpose
            seen.withLock { $0.append((parts.isTransaction, purpose)) }
        }
    }

    /// A fault loop, a save and a fault loop again: the reader's
    /// transaction ends and begins again, the writer's begins and commits.
    private static func workload(_ store: Store) throws {
        for round in 0..<2 {
            let context = ObjectContext(store: store, name: "round \(round)")
            try context.perform {
                let selfies = Array(try context.fetch(FetchRequest<ManagedObject>(entityName: "Selfie")))
                context.reset()
                for selfie in selfies { _ = try context.object(with: selfie.objectID).value(forKey: "name") }
                try context.object(with: selfies[0].objectID).setValue(.integer(Int64(round + 2)), forKey: "rating")
                try context.save()
            }
        }
    }

    /// A mark the application's statement hook puts in a statement's
    /// annotation is there at the statement's next execution while a
    /// recorder records: the engine keeps its own data elsewhere.
    @Test func theAnnotationStaysTheApplicationsWhileSinksRecord() throws {
        let path = try Workload.populate(people: 1, selfies: 3, networks: 1)
        let counts = Mutex((placed: 0, kept: 0))
        var configuration = StoreConfiguration()
        configuration.sinks = [Recorder(tracksArguments: true)]
        configuration.statementHook = { executed in
            if executed.statement.annotation is Mark {
                counts.withLock { $0.kept += 1 }
            } else {
                executed.statement.annotation = Mark()
                counts.withLock { $0.placed += 1 }
            }
        }
        try Self.workload(Store(model: Workload.model, location: .file(path), configuration: configuration))
        let (placed, kept) = counts.withLock { $0 }
        // One mark per prepared statement, found again at every later
        // execution: the key lookup runs three times a round.
        #expect(placed > 0)
        #expect(kept >= 4)
    }

    /// Every statement reaches a sink marked as a transaction's exactly
    /// when its purpose is the transaction purpose (the readers' and the
    /// writer's BEGIN and COMMIT); faults and saves are not marked.
    @Test func aTransactionsStatementsAreKnownAsSuch() throws {
        let path = try Workload.populate(people: 1, selfies: 3, networks: 1)
        let sink = PartsSink()
        var configuration = StoreConfiguration()
        configuration.sinks = [sink]
        try Self.workload(Store(model: Workload.model, location: .file(path), configuration: configuration))
        let seen = sink.seen.withLock { $0 }
        let transactions = seen.filter { $0.purpose == SQLEvent.transactionPurpose }
        // BEGIN and COMMIT of the readers and of the writer, in both rounds.
        #expect(transactions.count >= 6)
        #expect(seen.allSatisfy { $0.isTransaction == ($0.purpose == SQLEvent.transactionPurpose) })
        #expect(seen.contains { $0.purpose == "fault" && !$0.isTransaction })
        #expect(seen.contains { $0.purpose == "save" && !$0.isTransaction })
    }
}
