import Foundation
import ObjectGraph
import Probes
import Testing

/// A cache miss is a field of the fault that reads the database, not an
/// event: the engine sends none, every fault from the database says why
/// the row cache missed, and the recorder's `cacheMisses` is exactly those
/// faults.
@Suite struct CacheMissFieldTests {
    @Test func aMissIsItsFaultsReasonAndNoEventOfItsOwn() throws {
        let path = try Workload.populate(people: 3, selfies: 4, networks: 2)
        let sink = InMemorySink(details: [])
        let recorder = Recorder()
        let store = try Workload.store(path, sinks: [sink, recorder])
        let context = ObjectContext(store: store, name: "main")
        try context.perform {
            // The selfies' rows go to the row cache and stay there while
            // the context holds them; refreshed, with a staleness interval
            // of 0, each is too old: four stale misses.
            let selfies = Array(try context.fetch(FetchRequest<ManagedObject>(entityName: "Selfie")))
            context.stalenessInterval = .zero
            for selfie in selfies { context.refresh(selfie, mergeChanges: false) }
            for selfie in selfies { _ = try selfie.value(forKey: "name") }
            context.stalenessInterval = nil
            // One relationship fault from the database, then three people
            // the row cache never held: three absent misses.
            let people = try selfies[0].objects(forKey: "people")
            for person in people { _ = try person.value(forKey: "name") }
            // Read again: hits in the context, no fault.
            for person in people { _ = try person.value(forKey: "name") }
        }
        let events = sink.events
        let faults = events.compactMap { event -> FaultEvent? in
            if case .fault(let e) = event { return e }
            return nil
        }
        let relationshipFaults = events.compactMap { event -> RelationshipFaultEvent? in
            if case .relationshipFault(let e) = event { return e }
            return nil
        }
        let database = faults.filter { $0.source == .database }
        #expect(database.map(\.missReason) == Array(repeating: .stale, count: 4) + Array(repeating: .absent, count: 3))
        #expect(faults.filter { $0.source != .database }.allSatisfy { $0.missReason == nil })
        #expect(relationshipFaults.map(\.source) == [.database])
        #expect(relationshipFaults.map(\.missReason) == [.absent])
        #expect(recorder.counters.cacheMisses == 8)
        #expect(recorder.counters.cacheMisses == database.count + relationshipFaults.filter { $0.source == .database }.count)
    }
}
