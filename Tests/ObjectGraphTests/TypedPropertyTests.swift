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

/// Keys that a typed property finds by comparing their bits with the
/// names' (short ones) and keys it has to look up properly: a long name,
/// and a long name built at run time. (Names are ASCII identifiers, so no
/// key equals one in another Unicode form.)
final class Named: ManagedObject, EntityNamed {
    static let entityName = "Named"
    var short: String { self[attribute: "short"] }
    var long: String { self[attribute: "aVeryLongAttributeName"] }
    /// The same long name, built at run time: its own storage.
    var longBuilt: String { self[attribute: String(repeating: "aVeryLong", count: 1) + "AttributeName"] }
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

    static let namedModel = try! Model([
        Entity(
            "Named", Named.self,
            properties: [.attribute("aVeryLongAttributeName", .string), .attribute("short", .string)]
        )
    ])

    @Test func stringBitsMatchOnlyTheSameString() {
        #expect(StringBits("short") == StringBits("sh" + "ort"))
        #expect(StringBits("short") != StringBits("shorT"))
        // Equal strings in other forms: a miss, which the caller looks up.
        #expect("caf\u{E9}" == "cafe\u{301}")
        #expect(StringBits("caf\u{E9}") != StringBits("cafe\u{301}"))
        let long = "aVeryLongAttributeName"
        #expect(StringBits(long) == StringBits(long))
    }

    @Test func keysThatDoNotMatchByBitsAreLookedUpProperly() throws {
        let store = try Store(model: Self.namedModel, location: .file(Fixtures.storePath()))
        let context = ObjectContext(store: store)
        try context.perform {
            let named = try context.insert(Named.self)
            try named.setValue(.string("s"), forKey: "short")
            try named.setValue(.string("l"), forKey: "aVeryLongAttributeName")
            try context.save()
            #expect(!named.isFault)
            #expect(named.short == "s")
            #expect(named.long == "l")
            #expect(named.longBuilt == "l")
            context.refresh(named, mergeChanges: false)
            #expect(named.longBuilt == "l")
            #expect(named.short == "s")
        }
    }

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
