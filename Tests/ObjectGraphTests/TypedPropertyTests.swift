import Foundation
import Testing
@testable import ObjectGraph

/// An entity of 20 attributes: more than the 16 whose names a typed
/// property compares in place, so its reads take the out-of-line path.
final class Wide: ManagedObject, EntityNamed {
    static let entityName = "Wide"
    static let attributeCount = 20
    var first: Int64 { self[attribute: "a0"] }
    var last: Int64 {
        get { self[attribute: "a19"] }
        set { self[attribute: "a19"] = newValue }
    }
    var label: String { self[attribute: "label"] }
}

/// Typed properties read the same values, fire the same faults and count
/// the same way whichever path a read takes.
@Suite(.serialized) struct TypedPropertyTests {
    static let model = try! Model([
        Entity(
            "Wide", Wide.self,
            properties: (0..<Wide.attributeCount - 1).map { .attribute("a\($0)", .int64, default: 0) } + [.attribute("label", .string)]
                + [.attribute("a19", .int64, default: 0)]
        )
    ])

    @Test func anEntityOfMoreThanSixteenAttributesReadsEveryAttribute() throws {
        #expect(Self.model.entity(named: "Wide")!.attributes.count == Wide.attributeCount + 1)
        let store = try Store(model: Self.model, location: .file(Fixtures.storePath()))
        let writer = ObjectContext(store: store)
        try writer.perform {
            for index in 1...3 {
                let wide = try writer.insert(Wide.self)
                try wide.setValue(.integer(Int64(index)), forKey: "a0")
                try wide.setValue(.string("wide \(index)"), forKey: "label")
                wide.last = Int64(index * 100)
            }
            try writer.save()
        }

        let context = ObjectContext(store: store)
        try context.perform {
            let objects = Array(try context.fetch(FetchRequest<Wide>(sortKeys: [SortKey("a0")])))
            let before = store.rowCache.statistics
            // Faults: the first read of each fires it from the row cache.
            #expect(objects.map(\.last) == [100, 200, 300])
            #expect(store.rowCache.statistics.hits == before.hits + 3)
            // Loaded: read in place, with no further fault.
            #expect(objects.map(\.first) == [1, 2, 3])
            #expect(objects.map(\.label) == ["wide 1", "wide 2", "wide 3"])
            #expect(store.rowCache.statistics.hits == before.hits + 3)
            // Written through the typed setter, read back through the getter.
            objects[0].last = 7
            #expect(objects[0].last == 7)
            #expect(try objects[0].value(forKey: "a19") == .integer(7))
            // A refreshed object is a fault again: the read fires it.
            context.refresh(objects[1], mergeChanges: false)
            #expect(objects[1].isFault)
            #expect(objects[1].last == 200)
            #expect(store.rowCache.statistics.hits == before.hits + 4)
        }
    }

    @Test func aSmallEntitysLaterAttributeReadsInPlace() throws {
        let store = try Fixtures.store()
        try Fixtures.populate(store)
        let context = ObjectContext(store: store)
        try context.perform {
            var request = FetchRequest<Selfie>(sortKeys: [SortKey("name")])
            request.returnsObjectsAsFaults = false
            let selfies = Array(try context.fetch(request))
            let statistics = store.rowCache.statistics
            let ratings = selfies.map(\.rating)
            #expect(ratings.map { Value.integer(Int64($0)) } == (try selfies.map { try $0.value(forKey: "rating") }))
            #expect(store.rowCache.statistics == statistics)
        }
    }
}
