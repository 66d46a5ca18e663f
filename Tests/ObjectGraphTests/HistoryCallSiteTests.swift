import Foundation
import Probes
import Testing
@testable import ObjectGraph

/// The statements of persistent history run at the application's line that
/// asked for them, never at no site (`?:0` in earlier reports).
@Suite struct HistoryCallSiteTests {
    /// The SQL events' sites of `body`'s statements, in order.
    private func sites(_ store: Store, _ recorder: Recorder, _ body: () throws -> Void) throws -> [(purpose: String, site: String)] {
        _ = recorder.snapshotAndReset()
        try body()
        return recorder.snapshot().events.compactMap { event in
            guard case .sql(let e) = event, e.purpose != SQLEvent.transactionPurpose else { return nil }
            return (e.purpose, e.callSite.description)
        }
    }

    @Test func historyStatementsRunAtTheLineThatAskedForThem() throws {
        let recorder = Recorder(bufferCapacity: 1_000)
        let store = try Fixtures.store {
            $0.persistentHistoryTracking = true
            $0.sinks = [recorder]
        }
        let context = ObjectContext(store: store, name: "main")
        try context.perform {
            let person = try context.insert(Person.self)
            person.name = "Ada"
            try context.save()
        }
        let tokenLine = #line + 1
        let token = try sites(store, recorder) { _ = try store.currentHistoryToken() }
        #expect(token.map(\.site) == ["ObjectGraphTests/HistoryCallSiteTests.swift:\(tokenLine)"])
        #expect(token.map(\.purpose) == ["history"])

        let fetchLine = #line + 1
        let fetched = try sites(store, recorder) { _ = try store.fetchHistory(after: nil) }
        // The transactions, then the changes of the one transaction.
        #expect(fetched.map(\.site) == Array(repeating: "ObjectGraphTests/HistoryCallSiteTests.swift:\(fetchLine)", count: 2))

        let all = try store.fetchHistory(after: nil)
        let deleteLine = #line + 1
        let deleted = try sites(store, recorder) { _ = try store.deleteHistory(through: all[0].token) }
        #expect(deleted.map(\.site) == Array(repeating: "ObjectGraphTests/HistoryCallSiteTests.swift:\(deleteLine)", count: 2))
        #expect(!deleted.contains { $0.site.contains("?") })
    }
}
