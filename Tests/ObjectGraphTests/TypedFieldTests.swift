import Foundation
import Testing
@testable import ObjectGraph

/// A class that keeps its attributes in typed fields, as generated classes do.
final class Writer: ManagedObject, EntityNamed {
    static let entityName = "Writer"
    /// No fault hook: its refreshes take the in-place path.
    override class var hasFaultHooks: Bool { false }
    var name: String {
        get { attribute("name", at: 0, in: &_name) }
        set { setAttribute("name", at: 0, to: newValue, in: &_name) }
    }
    var born: Int16? {
        get { attribute("born", at: 1, in: &_born) }
        set { setAttribute("born", at: 1, to: newValue, in: &_born) }
    }
    /// Derived by the store: read only.
    var noteCount: Int64? { attribute("noteCount", at: 2, in: &_noteCount) }
    /// `born` read through a field whose index is not the attribute's: never cached.
    var bornMisplaced: Int16? { attribute("born", at: 0, in: &_bornMisplaced) }
    var notes: [Memo] { self[toMany: "notes"] }
    @exclusivity(unchecked) final var _name = AttributeField<String>()
    @exclusivity(unchecked) final var _born = AttributeField<Int16?>()
    @exclusivity(unchecked) final var _noteCount = AttributeField<Int64?>()
    @exclusivity(unchecked) final var _bornMisplaced = AttributeField<Int16?>()
}

/// An entity with a to-one relationship, in typed fields too.
final class Memo: ManagedObject, EntityNamed {
    static let entityName = "Memo"
    var text: String {
        get { attribute("text", at: 0, in: &_text) }
        set { setAttribute("text", at: 0, to: newValue, in: &_text) }
    }
    var author: Writer? {
        get { self[toOne: "author"] }
        set { self[toOne: "author"] = newValue }
    }
    @exclusivity(unchecked) final var _text = AttributeField<String>()
}

/// Typed fields are a cache of the object's values: every path that changes
/// the values (a set by key, a merge, a rollback, a refresh, a save's
/// derived values) is seen by the next typed read, and a read of a loaded
/// object is served by its field.
@Suite struct TypedFieldTests {
    static let model = try! Model([
        Entity("Writer", Writer.self, properties: [
            .attribute("name", .string),
            .attribute("born", .int16, optional: true),
            .derived("noteCount", .int64, .count("notes")),
            .toMany("notes", "Memo", inverse: "author"),
        ]),
        Entity("Memo", Memo.self, properties: [
            .attribute("text", .string),
            .toOne("author", "Writer", inverse: "notes"),
        ]),
    ])

    /// A store with authors "Writer 1"… born 1901…, one note each.
    static func store(authors: Int = 2) throws -> Store {
        let store = try Store(model: model, location: .file(Fixtures.storePath()))
        let context = ObjectContext(store: store, name: "setup")
        try context.perform {
            for number in 1...authors {
                let author = try context.insert(Writer.self)
                author.name = "Writer \(number)"
                author.born = Int16(1900 + number)
                let note = try context.insert(Memo.self)
                note.text = "Memo \(number)"
                note.author = author
            }
            try context.save()
        }
        return store
    }

    static func fetchAuthors(_ context: ObjectContext) throws -> [Writer] {
        var request = FetchRequest<Writer>(sortKeys: [SortKey("name")])
        request.returnsObjectsAsFaults = false
        return Array(try context.fetch(request))
    }

    @Test func aReadOfALoadedObjectIsServedByItsField() throws {
        let store = try Self.store()
        let context = ObjectContext(store: store)
        try context.perform {
            let author = try Self.fetchAuthors(context)[0]
            #expect(!author.typedFields.holds(0))
            #expect(author.name == "Writer 1")
            // The first read decoded the value into the field and let the
            // object be read in place.
            #expect(author.typedFields.canRead(0))
            #expect(author._name.value == "Writer 1")
            #expect(!author.typedFields.holds(1))
            #expect(author.born == 1901)
            #expect(author.typedFields.canRead(1))
            // Served by the field: its value is what a read returns.
            author._name.value = "from the field"
            #expect(author.name == "from the field")
        }
    }

    @Test func aSetByKeyIsSeenByTheTypedRead() throws {
        let store = try Self.store()
        let context = ObjectContext(store: store)
        try context.perform {
            let author = try Self.fetchAuthors(context)[0]
            #expect(author.name == "Writer 1")
            #expect(author.born == 1901)
            try author.setValue(.string("Renamed"), forKey: "name")
            // Only the field of the attribute set is invalid.
            #expect(!author.typedFields.holds(0))
            #expect(author.typedFields.holds(1))
            #expect(author.name == "Renamed")
            try author.setValue(.null, forKey: "born")
            #expect(author.born == nil)
            #expect(author.hasChanges)
        }
    }

    @Test func aTypedSetGoesThroughChangeTrackingAndIntoTheField() throws {
        let store = try Self.store()
        let context = ObjectContext(store: store)
        try context.perform {
            let author = try Self.fetchAuthors(context)[0]
            author.name = "Ada"
            #expect(author.typedFields.canRead(0))
            #expect(author._name.value == "Ada")
            let stored = try author.value(forKey: "name")
            #expect(stored == .string("Ada"))
            #expect(author.hasChanges)
            #expect(context.updatedObjects.map(\.objectID) == [author.objectID])
            // An unchanged value is no change.
            let second = try Self.fetchAuthors(context)[1]
            second.name = "Writer 2"
            #expect(!second.hasChanges)
            #expect(second.name == "Writer 2")
            try context.save()
        }
        let other = ObjectContext(store: store)
        try other.perform {
            let names = try Self.fetchAuthors(other).map(\.name)
            #expect(names == ["Ada", "Writer 2"])
        }
    }

    @Test func aRollbackAndARefreshDropTheChangeFromTheField() throws {
        let store = try Self.store()
        let context = ObjectContext(store: store)
        try context.perform {
            let author = try Self.fetchAuthors(context)[0]
            author.name = "Changed"
            #expect(author.name == "Changed")
            context.rollback()
            #expect(author.isFault)
            #expect(author.name == "Writer 1")
            author.name = "Changed again"
            context.refresh(author, mergeChanges: false)
            #expect(author.name == "Writer 1")
            // Merging keeps the change, and the field follows.
            author.born = 2000
            context.refresh(author, mergeChanges: true)
            #expect(author.born == 2000)
            #expect(author.name == "Writer 1")
        }
    }

    @Test func anotherContextsSaveIsSeenAfterTheMerge() throws {
        let store = try Self.store()
        let context = ObjectContext(store: store, name: "reader")
        let author = try context.perform {
            let author = try Self.fetchAuthors(context)[0]
            #expect(author.name == "Writer 1")
            return author
        }
        let writer = ObjectContext(store: store, name: "writer")
        let changes = try writer.perform {
            let author = try Self.fetchAuthors(writer)[0]
            author.name = "Written elsewhere"
            return try writer.save()
        }
        context.perform {
            // Not merged yet: the object keeps what it loaded.
            #expect(author.name == "Writer 1")
            context.merge(changes)
            #expect(author.isFault)
            #expect(author.name == "Written elsewhere")
        }
    }

    @Test func derivedValuesASaveComputesReachTheField() throws {
        let store = try Self.store()
        let context = ObjectContext(store: store)
        try context.perform {
            let author = try Self.fetchAuthors(context)[0]
            #expect(author.noteCount == 1)
            let note = try context.insert(Memo.self)
            note.text = "Another"
            note.author = author
            try context.save()
            #expect(author.noteCount == 2)
        }
    }

    @Test func aFieldAtTheWrongIndexIsNeverCached() throws {
        let store = try Self.store()
        let context = ObjectContext(store: store)
        try context.perform {
            let author = try Self.fetchAuthors(context)[0]
            #expect(author.bornMisplaced == 1901)
            #expect(author._bornMisplaced.value == nil)
            #expect(!author.typedFields.holds(0))
            #expect(author.name == "Writer 1")
            author.born = 1950
            #expect(author.bornMisplaced == 1950)
            #expect(author.name == "Writer 1")
        }
    }

    @Test func keyValueAccessAndPredicatesReadTheSameValues() throws {
        let store = try Self.store(authors: 3)
        let context = ObjectContext(store: store)
        try context.perform {
            let authors = try Self.fetchAuthors(context)
            for author in authors { _ = author.name }
            authors[2].name = "Zed"
            let values = try authors.map { try $0.value(forKey: "name") }
            #expect(values == [.string("Writer 1"), .string("Writer 2"), .string("Zed")])
            // Pending changes are evaluated in memory.
            let request = FetchRequest<Writer>(predicate: try ObjectPredicate(format: "name BEGINSWITH %@", "Z"))
            let matching = try context.fetch(request).map(\.name)
            #expect(matching == ["Zed"])
        }
    }

    @Test func aFetchThatReturnsTheObjectAgainWithdrawsTheReadInPlace() throws {
        let store = try Self.store()
        let context = ObjectContext(store: store)
        try context.perform {
            let author = try Self.fetchAuthors(context)[0]
            _ = author.name
            #expect(author.typedFields.isReadable)
            // A fetch marks the objects it returns for their first use; the
            // next read goes out of line, which notes it.
            author.unusedFetchRun = 7
            #expect(!author.typedFields.isReadable)
            #expect(author.typedFields.holds(0))
            author.unusedFetchRun = 0
            #expect(author.name == "Writer 1")
            #expect(author.typedFields.isReadable)
        }
    }

    @Test func aResetInvalidatesTheFields() throws {
        let store = try Self.store()
        let context = ObjectContext(store: store)
        let author = try context.perform {
            let author = try Self.fetchAuthors(context)[0]
            _ = author.name
            context.reset()
            return author
        }
        #expect(!author.typedFields.isReadable)
        #expect(!author.typedFields.holds(0))
        #expect(throws: ObjectGraphError.self) { try author.value(forKey: "name") }
    }

    @Test func anInsertedObjectReadsItsDefaultsAndItsSets() throws {
        let store = try Self.store()
        let context = ObjectContext(store: store)
        try context.perform {
            let note = try context.insert(Memo.self)
            note.text = "New"
            #expect(note.text == "New")
            let author = try context.insert(Writer.self)
            #expect(author.born == nil)
            author.born = 1990
            #expect(author.born == 1990)
            note.author = author
            #expect(author.notes.map(\.text) == ["New"])
        }
    }
}
