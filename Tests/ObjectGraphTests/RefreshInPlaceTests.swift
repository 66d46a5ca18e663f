import Foundation
import Testing
@testable import ObjectGraph
import Probes

/// A class that says it has no fault hook, though it overrides them (to
/// show that they are then not called).
final class QuietHooks: ManagedObject, EntityNamed {
    static let entityName = "Quiet"
    override class var hasFaultHooks: Bool { false }
    nonisolated(unsafe) static var calls = 0
    override func willTurnIntoFault() { Self.calls += 1 }
    override func didTurnIntoFault() { Self.calls += 1 }
    var label: String { attribute("label", at: 0, in: &_label) }
    var friends: [QuietHooks] { self[toMany: "friends"] }
    @exclusivity(unchecked) final var _label = AttributeField<String>()
}

/// The same entity shape with the default: hooks called.
final class LoudHooks: ManagedObject, EntityNamed {
    static let entityName = "Loud"
    nonisolated(unsafe) static var calls = 0
    override func willTurnIntoFault() { Self.calls += 1 }
    override func didTurnIntoFault() { Self.calls += 1 }
    var label: String { attribute("label", at: 0, in: &_label) }
    @exclusivity(unchecked) final var _label = AttributeField<String>()
}

/// A refresh of a plain unchanged object (no change, no loaded
/// relationship, no fault hook, no pending change in its context) turns it
/// into a fault in place; everything else takes the full path, and both
/// end in the same state.
@Suite(.serialized) struct RefreshInPlaceTests {
    static let model = try! Model([
        Entity("Quiet", QuietHooks.self, properties: [
            .attribute("label", .string),
            .toMany("friends", "Quiet", inverse: "friendOf"),
            .toMany("friendOf", "Quiet", inverse: "friends"),
        ]),
        Entity("Loud", LoudHooks.self, properties: [.attribute("label", .string)]),
    ])

    static func store() throws -> Store {
        let store = try Store(model: model, location: .file(Fixtures.storePath()))
        let context = ObjectContext(store: store, name: "setup")
        try context.perform {
            let first = try context.insert(entityName: "Quiet")
            try first.setValue(.string("first"), forKey: "label")
            let second = try context.insert(entityName: "Quiet")
            try second.setValue(.string("second"), forKey: "label")
            try first.setObjects([second], forKey: "friends")
            let loud = try context.insert(entityName: "Loud")
            try loud.setValue(.string("loud"), forKey: "label")
            try context.save()
        }
        return store
    }

    @Test func aClassWithoutFaultHooksIsNotAskedToRunThem() throws {
        let store = try Self.store()
        let context = ObjectContext(store: store)
        QuietHooks.calls = 0
        LoudHooks.calls = 0
        try context.perform {
            let quiet = try context.fetch(FetchRequest<QuietHooks>(sortKeys: [SortKey("label")]))[0]
            let loud = try context.fetch(FetchRequest<LoudHooks>())[0]
            #expect(quiet.label == "first")
            #expect(loud.label == "loud")
            context.refresh(quiet, mergeChanges: false)
            context.refresh(loud, mergeChanges: false)
            #expect(quiet.isFault)
            #expect(loud.isFault)
            #expect(QuietHooks.calls == 0)
            #expect(LoudHooks.calls == 2)
            #expect(quiet.label == "first")
            #expect(loud.label == "loud")
        }
    }

    @Test func aLoadedRelationshipTurnsBackIntoAFault() throws {
        let store = try Self.store()
        let context = ObjectContext(store: store)
        try context.perform {
            let first = try context.fetch(FetchRequest<QuietHooks>(sortKeys: [SortKey("label")]))[0]
            #expect(first.friends.map(\.label) == ["second"])
            #expect(!first.slots.isUnallocated)
            context.refresh(first, mergeChanges: false)
            #expect(first.isFault)
            guard case .fault = first.slots[0] else {
                Issue.record("the to-many slot is still loaded")
                return
            }
            #expect(first.friends.map(\.label) == ["second"])
        }
    }

    @Test func aPendingChangeInTheContextTakesTheFullPath() throws {
        let store = try Self.store()
        let context = ObjectContext(store: store)
        try context.perform {
            let people = Array(try context.fetch(FetchRequest<QuietHooks>(sortKeys: [SortKey("label")])))
            let (first, second) = (people[0], people[1])
            try second.setValue(.string("changed"), forKey: "label")
            #expect(context.hasChanges)
            // `first` is unchanged, but the context is not: still a fault,
            // and the other object's change stays pending.
            context.refresh(first, mergeChanges: false)
            #expect(first.isFault)
            #expect(context.updatedObjects.map(\.objectID) == [second.objectID])
            // Refreshing the changed one drops its change.
            context.refresh(second, mergeChanges: false)
            #expect(!context.hasChanges)
            #expect(second.label == "second")
            #expect(first.label == "first")
        }
    }

    @Test func aRefreshAsksTheSinkThatWantsRefreshes() throws {
        // A recorder with a buffer keeps every context change.
        let recorder = Recorder(bufferCapacity: 100)
        var configuration = StoreConfiguration()
        configuration.sinks = [recorder]
        let store = try Store(model: Self.model, location: .file(Fixtures.storePath()), configuration: configuration)
        let context = ObjectContext(store: store)
        try context.perform {
            let quiet = try context.insert(entityName: "Quiet")
            try quiet.setValue(.string("q"), forKey: "label")
            try context.save()
            recorder.reset()
            context.refresh(quiet, mergeChanges: false)
            context.refresh(quiet, mergeChanges: false)
        }
        #expect(quietRefreshes(recorder) == 2)
    }

    private func quietRefreshes(_ recorder: Recorder) -> Int {
        recorder.snapshot().events.filter { event in
            if case .context(let change) = event { return change.kind == .refresh }
            return false
        }.count
    }
}
