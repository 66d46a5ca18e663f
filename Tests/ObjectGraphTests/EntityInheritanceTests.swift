import Foundation
import Testing
@testable import ObjectGraph

/// Entity inheritance, as Core Data stores it: one table per inheritance
/// root with an entity column, abstract entities, inherited properties,
/// relationships to a parent holding any subentity, fetches of a parent
/// returning its subentities.
@Suite struct EntityInheritanceTests {
    class LibraryItem: ManagedObject {}
    final class Book: LibraryItem {}
    final class Folder: LibraryItem {}

    /// LibraryItem (abstract) ← Folder, Book ← Audiobook; Bookmark → any
    /// item; Tag ↔ items (many-to-many); Shelf → favourites without an
    /// inverse.
    static let model = try! Model([
        Entity("LibraryItem", LibraryItem.self, abstract: true, properties: [
            .attribute("title", .string, indexed: true),
            .toOne("folder", "Folder", inverse: "items"),
            .toMany("bookmarks", "Bookmark", inverse: "item", deleteRule: .cascade),
            .toMany("tags", "Tag", inverse: "items"),
        ]),
        Entity("Folder", Folder.self, parent: "LibraryItem", properties: [
            .toMany("items", "LibraryItem", inverse: "folder", deleteRule: .cascade),
            .attribute("duration", .string, optional: true),
        ]),
        Entity("Book", Book.self, parent: "LibraryItem", properties: [
            .attribute("pages", .int32, default: 0),
            .attribute("duration", .int64, optional: true),
            .derived("bookmarkCount", .int64, .count("bookmarks")),
        ], uniquenessConstraints: [["title"]]),
        Entity("Audiobook", Book.self, parent: "Book", properties: [
            .attribute("minutes", .double, default: 0),
        ]),
        Entity("Bookmark", properties: [
            .attribute("note", .string),
            .toOne("item", "LibraryItem", inverse: "bookmarks"),
        ]),
        Entity("Tag", properties: [
            .attribute("name", .string),
            .toMany("items", "LibraryItem", inverse: "tags"),
        ]),
        Entity("Shelf", properties: [
            .attribute("name", .string),
            .toMany("favourites", "LibraryItem", inverse: nil),
        ]),
    ])

    struct Library {
        let store: Store
        let log: StatementLog
        let path: String
    }

    /// A root folder holding a book, an audiobook and a subfolder; two
    /// bookmarks (on the audiobook and the folder); a tag on the book and
    /// the audiobook; a shelf whose favourites are the audiobook and the
    /// subfolder.
    static func library() throws -> Library {
        let log = StatementLog()
        let path = Fixtures.storePath()
        var configuration = StoreConfiguration()
        configuration.statementHook = log.hook
        let store = try Store(model: model, location: .file(path), configuration: configuration)
        let context = ObjectContext(store: store, name: "populate")
        try context.perform {
            let root = try context.insert(entityName: "Folder")
            try root.setValue("Root", forKey: "title")
            let book = try context.insert(entityName: "Book")
            try book.setValue("Dune", forKey: "title")
            try book.setValue(.integer(412), forKey: "pages")
            let audiobook = try context.insert(entityName: "Audiobook")
            try audiobook.setValue("Emma", forKey: "title")
            try audiobook.setValue(.double(95), forKey: "minutes")
            let subfolder = try context.insert(entityName: "Folder")
            try subfolder.setValue("Later", forKey: "title")
            try root.setObjects([book, audiobook, subfolder], forKey: "items")
            for (note, item) in [("chapter 3", audiobook), ("tidy", subfolder)] {
                let bookmark = try context.insert(entityName: "Bookmark")
                try bookmark.setValue(.string(note), forKey: "note")
                try bookmark.setObject(item, forKey: "item")
            }
            let tag = try context.insert(entityName: "Tag")
            try tag.setValue("novel", forKey: "name")
            try tag.setObjects([book, audiobook], forKey: "items")
            let shelf = try context.insert(entityName: "Shelf")
            try shelf.setValue("favourites", forKey: "name")
            try shelf.setObjects([audiobook, subfolder], forKey: "favourites")
            try context.save()
        }
        log.clear()
        return Library(store: store, log: log, path: path)
    }

    static func titles(_ objects: [ManagedObject]) throws -> [String] {
        try objects.map { object in
            guard case .string(let title) = try object.value(forKey: "title") else { return "\(object.entity.name):-" }
            return "\(object.entity.name):\(title)"
        }
    }

    @Test func aHierarchyLivesInOneTableWithAnEntityColumn() throws {
        let statements = SchemaSQL.createStatements(for: Self.model)
        let table = try #require(statements.first { $0.hasPrefix("CREATE TABLE \"LibraryItem\"") })
        #expect(table == """
            CREATE TABLE "LibraryItem" (pk INTEGER PRIMARY KEY, ent INTEGER NOT NULL, "title" TEXT NOT NULL, \
            "duration" TEXT, "pages" INTEGER, "duration_Book" INTEGER, "bookmarkCount" INTEGER, "minutes" REAL, "folder_pk" INTEGER)
            """)
        #expect(!statements.contains { $0.hasPrefix("CREATE TABLE \"Book\"") || $0.hasPrefix("CREATE TABLE \"Folder\"") })
        #expect(statements.contains("CREATE INDEX \"LibraryItem_ent\" ON \"LibraryItem\" (ent)"))
        // A subentity's uniqueness holds among its own family's rows.
        #expect(statements.contains("CREATE UNIQUE INDEX \"LibraryItem_Book_unique_0\" ON \"LibraryItem\" (\"title\") WHERE ent IN (2, 3)"))
        #expect(statements.contains { $0.hasPrefix("CREATE TABLE \"Shelf_favourites\"") })
        let audiobook = try #require(Self.model.entity(named: "Audiobook"))
        #expect(audiobook.attributes.map(\.name) == ["title", "pages", "duration", "bookmarkCount", "minutes"])
        #expect(audiobook.relationships.map(\.name) == ["folder", "bookmarks", "tags"])
        #expect(audiobook.parentName == "Book")
        #expect(Self.model.entity(named: "LibraryItem")?.subentityNames == ["Folder", "Book"])
    }

    @Test func anAbstractEntityCannotBeInserted() throws {
        let library = try Self.library()
        let context = ObjectContext(store: library.store)
        context.perform {
            #expect(throws: ObjectGraphError.abstractEntity("LibraryItem")) { try context.insert(entityName: "LibraryItem") }
            #expect(throws: ObjectGraphError.abstractEntity("LibraryItem")) {
                try library.store.execute(BatchInsertRequest(entityName: "LibraryItem", objects: [["title": "x"]]))
            }
        }
    }

    @Test func aFetchOfAParentReturnsEverySubentityInOneSelect() throws {
        let library = try Self.library()
        let context = ObjectContext(store: library.store)
        try context.perform {
            let all = try context.fetch(FetchRequest<ManagedObject>(entityName: "LibraryItem", sortKeys: [SortKey("title")]))
            #expect(try Self.titles(Array(all)) == ["Book:Dune", "Audiobook:Emma", "Folder:Later", "Folder:Root"])
            #expect(all.map { String(describing: type(of: $0)) } == ["Book", "Book", "Folder", "Folder"])
            let sql = library.log.selects()
            #expect(sql.count == 1)
            #expect(sql[0].hasSuffix("FROM \"LibraryItem\" t0 ORDER BY t0.\"title\""))

            let books = try context.fetch(FetchRequest<ManagedObject>(entityName: "Book", sortKeys: [SortKey("title")]))
            #expect(try Self.titles(Array(books)) == ["Book:Dune", "Audiobook:Emma"])
            #expect(library.log.selects().last?.contains("FROM \"LibraryItem\" t0 WHERE t0.ent IN (2, 3) ORDER BY") == true)

            var exact = FetchRequest<ManagedObject>(entityName: "Book")
            exact.includesSubentities = false
            #expect(try Self.titles(Array(context.fetch(exact))) == ["Book:Dune"])
            #expect(library.log.selects().last?.contains("WHERE t0.ent = 2") == true)
            #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Book")) == 2)
            #expect(try context.count(for: exact) == 1)
            let ids = try context.fetchObjectIDs(FetchRequest<ManagedObject>(entityName: "LibraryItem"))
            #expect(ids.map(\.entityName).sorted() == ["Audiobook", "Book", "Folder", "Folder"])
        }
    }

    @Test func inheritedPropertiesReadAndWriteThroughTheSharedTable() throws {
        let library = try Self.library()
        let context = ObjectContext(store: library.store)
        try context.perform {
            let audiobook = try #require(try context.fetch(FetchRequest<ManagedObject>(
                entityName: "Audiobook", predicate: try ObjectPredicate(format: "title == 'Emma'"))).first)
            #expect(try audiobook.value(forKey: "minutes") == .double(95))
            #expect(try audiobook.value(forKey: "pages") == .integer(0))
            #expect(try audiobook.object(forKey: "folder")?.value(forKey: "title") == .string("Root"))
            try audiobook.setValue(.integer(7), forKey: "duration")
            try audiobook.setValue(.integer(300), forKey: "pages")
            try context.save()
        }
        let rows = try dumpTables(library.path)["LibraryItem"] ?? []
        // pk, ent, title, duration (Folder's), pages, duration_Book, bookmarkCount, minutes, folder_pk
        #expect(rows.contains { $0[1] == .integer(3) && $0[2] == .text("Emma") && $0[4] == .integer(300) && $0[5] == .integer(7) })
    }

    @Test func aRelationshipToAParentHoldsAnySubentity() throws {
        let library = try Self.library()
        let context = ObjectContext(store: library.store)
        try context.perform {
            // To-one: the destination's entity is read with the row.
            let bookmarks = try context.fetch(FetchRequest<ManagedObject>(entityName: "Bookmark", sortKeys: [SortKey("note")]))
            #expect(try bookmarks.map { try $0.object(forKey: "item")?.entity.name } == ["Audiobook", "Folder"])
            #expect(library.log.selects().first?.contains("(SELECT e.ent FROM \"LibraryItem\" e WHERE e.pk = t0.\"item_pk\")") == true)
            // To-many by foreign key: each destination's own entity.
            let root = try #require(try context.fetch(FetchRequest<ManagedObject>(
                entityName: "Folder", predicate: try ObjectPredicate(format: "title == 'Root'"))).first)
            #expect(try Self.titles(try root.objects(forKey: "items")) == ["Book:Dune", "Audiobook:Emma", "Folder:Later"])
            // Many-to-many: the join table joined to the destinations' table.
            let tag = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Tag")).first)
            library.log.clear()
            #expect(try tag.objects(forKey: "items").map(\.entity.name) == ["Book", "Audiobook"])
            #expect(library.log.selects() == ["""
                SELECT j.source, d.ent FROM "LibraryItem_tags" j JOIN "LibraryItem" d ON d.pk = j.source \
                WHERE j.destination = ? ORDER BY j.source
                """])
            // Without an inverse.
            let shelf = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Shelf")).first)
            #expect(try Self.titles(try shelf.objects(forKey: "favourites")) == ["Audiobook:Emma", "Folder:Later"])
            // The inverse side of a relationship declared on the parent.
            #expect(try root.objects(forKey: "items")[1].objects(forKey: "tags").map { try $0.value(forKey: "name") } == [.string("novel")])
        }
    }

    @Test func prefetchingThroughAParentMakesEachObjectOfItsEntity() throws {
        let library = try Self.library()
        let context = ObjectContext(store: library.store)
        try context.perform {
            var request = FetchRequest<ManagedObject>(entityName: "Tag")
            request.relationshipKeyPathsForPrefetching = ["items", "items.bookmarks"]
            let tags = try context.fetch(request)
            // The tags, the (tag, item) pairs with each item's entity, the
            // items' rows, their bookmarks.
            #expect(library.log.selects().count == 4)
            let items = try tags[0].objects(forKey: "items")
            #expect(items.map(\.entity.name) == ["Book", "Audiobook"])
            #expect(try items[1].objects(forKey: "bookmarks").map { try $0.value(forKey: "note") } == [.string("chapter 3")])
            #expect(library.log.selects().isEmpty)
        }
    }

    @Test func aDerivedCountOverAnInheritedRelationshipIsKept() throws {
        let library = try Self.library()
        let context = ObjectContext(store: library.store)
        try context.perform {
            let audiobook = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Audiobook")).first)
            #expect(try audiobook.value(forKey: "bookmarkCount") == .integer(1))
            let bookmark = try context.insert(entityName: "Bookmark")
            try bookmark.setValue("epilogue", forKey: "note")
            try bookmark.setObject(audiobook, forKey: "item")
            try context.save()
            #expect(try audiobook.value(forKey: "bookmarkCount") == .integer(2))
        }
    }

    /// A bookmark on a folder changes no book's count, and writes nothing
    /// into the folder's row (which has no such attribute).
    @Test func aSubentitysDerivedCountLeavesItsSiblingsRowsAlone() throws {
        let library = try Self.library()
        let context = ObjectContext(store: library.store)
        let changes = try context.perform {
            let later = try #require(try context.fetch(FetchRequest<ManagedObject>(
                entityName: "Folder", predicate: try ObjectPredicate(format: "title == 'Later'"))).first)
            let bookmark = try context.insert(entityName: "Bookmark")
            try bookmark.setValue("again", forKey: "note")
            try bookmark.setObject(later, forKey: "item")
            return try context.save()
        }
        #expect(!changes.updated.contains { $0.entityName == "Book" || $0.entityName == "Audiobook" })
        let rows = try dumpTables(library.path)["LibraryItem"] ?? []
        // pk, ent, title, duration, pages, duration_Book, bookmarkCount, …: folders (ent 1) have no count.
        #expect(rows.filter { $0[1] == .integer(1) }.allSatisfy { $0[6] == .null })
    }

    @Test func entityInAPredicateIsTheObjectsOwnEntity() throws {
        let library = try Self.library()
        let context = ObjectContext(store: library.store)
        try context.perform {
            let notBooks = try context.fetch(FetchRequest<ManagedObject>(
                entityName: "LibraryItem", predicate: try ObjectPredicate(format: "entity != 'Book'"), sortKeys: [SortKey("title")]))
            #expect(try Self.titles(Array(notBooks)) == ["Audiobook:Emma", "Folder:Later", "Folder:Root"])
            let entry = try #require(library.log.take().last)
            #expect(entry.sql.contains("WHERE t0.ent <> ?"))
            #expect(entry.arguments == [.integer(2)])
            // Pending changes are evaluated in memory with the same meaning.
            let book = try context.insert(entityName: "Book")
            try book.setValue("Zed", forKey: "title")
            let books = try context.fetch(FetchRequest<ManagedObject>(
                entityName: "LibraryItem", predicate: try ObjectPredicate(format: "entity IN {'Book', 'Folder'}"), sortKeys: [SortKey("title")]))
            #expect(try Self.titles(Array(books)) == ["Book:Dune", "Folder:Later", "Folder:Root", "Book:Zed"])
            #expect(throws: ObjectGraphError.unknownEntity("Boat")) {
                try context.fetch(FetchRequest<ManagedObject>(entityName: "LibraryItem", predicate: try ObjectPredicate(format: "entity == 'Boat'")))
            }
        }
    }

    @Test func batchRequestsOnAParentReachEverySubentityAndNoOther() throws {
        let library = try Self.library()
        let updated = try library.store.execute(
            BatchUpdateRequest(entityName: "Book", propertiesToUpdate: ["pages": .value(.integer(1))], resultType: .objectIDs))
        #expect(updated.objectIDs?.map(\.description) == ["Book/p2", "Audiobook/p3"])
        let deleted = try library.store.execute(
            BatchDeleteRequest(entityName: "LibraryItem", predicate: try ObjectPredicate(format: "title == 'Root'"), resultType: .objectIDs))
        // The root folder cascades to its items and their bookmarks: each by its own entity's rules.
        #expect(deleted.objectIDs?.map(\.description) == ["Folder/p1", "Folder/p4", "Book/p2", "Audiobook/p3"])
        let rows = try dumpTables(library.path)
        #expect(rows["LibraryItem"]?.isEmpty == true)
        #expect(rows["Bookmark"]?.isEmpty == true)
    }

    @Test func pagesRelationshipsAndDeletesFollowEachObjectsEntity() throws {
        let library = try Self.library()
        let context = ObjectContext(store: library.store)
        try context.perform {
            // Pages of a parent's fetch load each row as its own entity.
            var request = FetchRequest<ManagedObject>(entityName: "LibraryItem", sortKeys: [SortKey("title")])
            request.fetchBatchSize = 2
            let items = try context.fetch(request)
            #expect(try Self.titles(Array(items)) == ["Book:Dune", "Audiobook:Emma", "Folder:Later", "Folder:Root"])
            // A relationship declared on the parent, set on a subentity, and
            // a predicate through a to-one to the parent.
            let later = items[2]
            try items[0].setObject(later, forKey: "folder")
            try context.save()
            let inLater = try context.fetch(FetchRequest<ManagedObject>(
                entityName: "LibraryItem", predicate: try ObjectPredicate(format: "folder.title == 'Later'")))
            #expect(try Self.titles(Array(inLater)) == ["Book:Dune"])
            let marked = try context.fetch(FetchRequest<ManagedObject>(
                entityName: "Bookmark", predicate: try ObjectPredicate(format: "item.title == 'Emma'")))
            #expect(try marked.map { try $0.value(forKey: "note") } == [.string("chapter 3")])
            // Deleting a subentity's object applies the delete rules it
            // inherits (bookmarks cascade).
            try context.delete(items[1])
            try context.save()
        }
        let rows = try dumpTables(library.path)
        #expect(rows["Bookmark"]?.count == 1)
        #expect(rows["LibraryItem"]?.count == 3)
    }

    @Test func aBrokenHierarchyIsRefusedWithItsReason() {
        #expect(throws: ObjectGraphError.invalidModel("entity A: parent entity Z does not exist")) {
            try Model([Entity("A", parent: "Z", properties: [])])
        }
        #expect(throws: ObjectGraphError.invalidModel("entity A names itself as its parent entity")) {
            try Model([Entity("A", parent: "A", properties: [])])
        }
        #expect(throws: ObjectGraphError.invalidModel(
            "entities A → B → A inherit from each other: parent entities must not form a cycle")) {
            try Model([Entity("A", parent: "B", properties: []), Entity("B", parent: "A", properties: [])])
        }
        // A to-many whose inverse is declared above its destination would
        // read the destination's siblings as its own.
        #expect(throws: ObjectGraphError.invalidModel(
            "Author.books: inverse author is declared by Item, above Book: a to-many's inverse must be declared by its destination")) {
            try Model([
                Entity("Item", properties: [.toOne("author", "Author", inverse: "books")]),
                Entity("Book", parent: "Item", properties: []), Entity("Magazine", parent: "Item", properties: []),
                Entity("Author", properties: [.toMany("books", "Book", inverse: "author")]),
            ])
        }
        #expect(throws: ObjectGraphError.invalidModel("B.n is inherited from A: a subentity cannot declare it again")) {
            try Model([Entity("A", properties: [.attribute("n", .int32)]), Entity("B", parent: "A", properties: [.attribute("n", .int64)])])
        }
    }

    @Test func aFlatModelKeepsItsSchemaAndHash() throws {
        // A model without inheritance gets the statements and hash it always
        // had: stores made before entity inheritance still open.
        let model = try Model([Entity("A", properties: [.attribute("n", .int32), .toOne("b", "B", inverse: "as")]),
                               Entity("B", properties: [.toMany("as", "A", inverse: "b")])])
        #expect(SchemaSQL.createStatements(for: model).contains("CREATE TABLE \"A\" (pk INTEGER PRIMARY KEY, \"n\" INTEGER NOT NULL, \"b_pk\" INTEGER)"))
        #expect(model.canonicalDescription.contains("entity A"))
        #expect(model.entity(named: "A")?.sql.snapshotColumns == "t0.pk, t0.\"n\", t0.\"b_pk\"")
    }
}

extension StatementLog {
    /// The SELECTs since the last `take` (not the transactions around
    /// them), and forgets every statement.
    func selects() -> [String] { takeSQL().filter { $0.hasPrefix("SELECT") } }
}
