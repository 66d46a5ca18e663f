import Faultline
import GeneratedModels
import ObjectGraph
import Testing

/// The BookmarksAndFolders corpus model's generated classes: an abstract
/// entity's class (`BookmarkItemManagedObject`) with two subclasses, a
/// to-many relationship to the abstract entity (a folder's children) and
/// its to-one inverse (an item's parent), used from another module.
@Suite struct BookmarksClassTests {
    /// Root (a folder) holding the bookmark Swift (a favourite) and the
    /// folder Later, which holds the bookmark SQLite; inserted in that order
    /// (keys 1 to 4 in the hierarchy's one table).
    static func populatedStore() throws -> Store {
        let store = try GeneratedStore.make(BookmarksAndFoldersModel.model)
        let context = ObjectContext(store: store, name: "populate")
        try context.perform {
            let root = try context.insert(BookmarkFolderManagedObject.self)
            root.title = "Root"
            root.isFavorite = false
            let swift = try context.insert(BookmarkManagedObject.self)
            swift.title = "Swift"
            swift.url = "https://swift.org"
            swift.isFavorite = true
            let later = try context.insert(BookmarkFolderManagedObject.self)
            later.title = "Later"
            later.isFavorite = false
            root.addToChildren(swift)
            root.addToChildren(later)
            let sqlite = try context.insert(BookmarkManagedObject.self)
            sqlite.title = "SQLite"
            sqlite.url = "https://sqlite.org"
            sqlite.isFavorite = false
            sqlite.parent = later
            try context.save()
        }
        return store
    }

    /// The model keys of a class's key paths, read through the protocol as
    /// a `#Predicate` translator reads them.
    static func keyNames<T: KeyPathNamed>(of type: T.Type) -> [AnyKeyPath: String] { T.keyNames }

    @Test func subclassesNameTheirOwnEntityAndTheirInheritedKeyPaths() {
        #expect(BookmarkItemManagedObject.entityName == "BookmarkItemManagedObject")
        #expect(BookmarkManagedObject.entityName == "BookmarkManagedObject")
        let folder: BookmarkItemManagedObject.Type = BookmarkFolderManagedObject.self
        #expect(folder.entityName == "BookmarkFolderManagedObject")

        #expect(Self.keyNames(of: BookmarkItemManagedObject.self) == [
            \BookmarkItemManagedObject.isFavorite: "isFavorite", \BookmarkItemManagedObject.title: "title",
            \BookmarkItemManagedObject.parent: "parent",
        ])
        #expect(Self.keyNames(of: BookmarkManagedObject.self) == [
            \BookmarkManagedObject.isFavorite: "isFavorite", \BookmarkManagedObject.title: "title",
            \BookmarkManagedObject.parent: "parent", \BookmarkManagedObject.url: "url",
        ])
        // The subclass's table, even through its superclass's type.
        #expect(folder.keyNames == [
            \BookmarkFolderManagedObject.isFavorite: "isFavorite", \BookmarkFolderManagedObject.title: "title",
            \BookmarkFolderManagedObject.parent: "parent", \BookmarkFolderManagedObject.children: "children",
        ])
        #expect(BookmarkManagedObject.fetchRequest().entityName == "BookmarkManagedObject")
        #expect(BookmarkItemManagedObject.fetchRequest().entityName == "BookmarkItemManagedObject")
    }

    @Test func theAbstractClassCannotBeInserted() throws {
        let store = try GeneratedStore.make(BookmarksAndFoldersModel.model)
        let context = ObjectContext(store: store, name: "main")
        let error = context.perform {
            #expect(throws: ObjectGraphError.self) { try context.insert(BookmarkItemManagedObject.self) }
        }
        #expect(error == .abstractEntity("BookmarkItemManagedObject"))
    }

    @Test func aFetchOfTheAbstractClassReturnsEachObjectOfItsOwnClass() throws {
        let store = try Self.populatedStore()
        let context = ObjectContext(store: store, name: "reader")
        let (items, measurement) = try Faultline.measure(store) {
            try context.perform {
                let items: FetchedResults<BookmarkItemManagedObject> = try context.fetch(
                    BookmarkItemManagedObject.fetchRequest(sortKeys: [SortKey("title")]))
                return items.map { "\(type(of: $0)) \($0.title ?? "")" }
            }
        }
        #expect(items == [
            "BookmarkFolderManagedObject Later", "BookmarkFolderManagedObject Root", "BookmarkManagedObject SQLite",
            "BookmarkManagedObject Swift",
        ])
        // BEGIN DEFERRED and one SELECT of the hierarchy's table; each
        // fault fired from the rows it cached.
        #expect(measurement.exactCounters == counters(fetches: 1, faultsFired: 4, cacheHits: 4, sqlStatements: 2, rowsRead: 4))

        let (urls, subentity) = try Faultline.measure(store) {
            try context.perform {
                let request = BookmarkManagedObject.fetchRequest(
                    predicate: try ObjectPredicate(format: "isFavorite == YES OR parent.title == %@", "Later"),
                    sortKeys: [SortKey("url", ascending: false)])
                let bookmarks: FetchedResults<BookmarkManagedObject> = try context.fetch(request)
                return bookmarks.map(\.url)
            }
        }
        #expect(urls == ["https://swift.org", "https://sqlite.org"])
        // One SELECT (the read transaction is still open); the first
        // fetch's objects are gone with its results, so the two bookmarks
        // are new faults, fired from the rows this fetch cached.
        #expect(subentity.exactCounters == counters(fetches: 1, faultsFired: 2, cacheHits: 2, sqlStatements: 1, rowsRead: 2))
    }

    @Test func aFoldersChildrenAreFaultsOfEachItsOwnClass() throws {
        let store = try Self.populatedStore()
        let context = ObjectContext(store: store, name: "reader")
        try context.perform {
            let roots = try context.fetch(BookmarkFolderManagedObject.fetchRequest(predicate: try ObjectPredicate(format: "parent == nil")))
            let root = try #require(roots.first)
            #expect(roots.count == 1)
            let (children, measurement) = try Faultline.measure(store) {
                let children = root.children
                #expect(children.allSatisfy { $0.isFault })
                return children.map { "\(type(of: $0)) \($0.title ?? "")" }
            }
            #expect(children == ["BookmarkManagedObject Swift", "BookmarkFolderManagedObject Later"])
            // The root fired from the row cache; one query for its
            // children's keys and entities; each child fired from SQLite.
            #expect(measurement.exactCounters == counters(
                faultsFired: 3, relationshipFaultsFired: 1, cacheHits: 1, cacheMisses: 3, sqlStatements: 3, rowsRead: 4))

            let later = try #require(root.children.last as? BookmarkFolderManagedObject)
            let sqlite = try #require(later.children.first as? BookmarkManagedObject)
            #expect(later.children.count == 1)
            #expect(sqlite.url == "https://sqlite.org")
            #expect(sqlite.parent === later)
            #expect(later.parent === root)
            #expect(root.parent == nil)

            // A refreshed object is a fault again, fired from the row cache.
            context.refresh(sqlite, mergeChanges: false)
            #expect(sqlite.isFault)
            let refault = try Faultline.measure(store) { #expect(sqlite.title == "SQLite") }
            #expect(refault.exactCounters == counters(faultsFired: 1, cacheHits: 1))
        }
    }

    @Test func addingAndRemovingChildrenMovesThemBetweenFolders() throws {
        let store = try Self.populatedStore()
        let context = ObjectContext(store: store, name: "editor")
        let measurement = try Faultline.measure(store) {
            try context.perform {
                let folders = try context.fetch(BookmarkFolderManagedObject.fetchRequest(sortKeys: [SortKey("title")]))
                let (later, root) = (folders[0], folders[1])
                let sqlite = try #require(later.children.first as? BookmarkManagedObject)
                root.addToChildren(sqlite)
                #expect(sqlite.parent === root)
                #expect(later.children.isEmpty)
                let swift = try #require(root.children.first as? BookmarkManagedObject)
                root.removeFromChildren(swift)
                #expect(swift.parent == nil)
                #expect(root.children.map { $0.title ?? "" } == ["Later", "SQLite"])
                swift.isFavorite = false
                try context.save()
            }
        }
        // Reads: BEGIN DEFERRED, the folders' fetch (2 rows, both fired
        // from the row cache), the children of Later and of Root (2
        // relationship faults, 3 rows), SQLite and Swift fired from SQLite
        // as their parent changes (2 rows). The save: BEGIN IMMEDIATE,
        // SQLite's and Swift's rows updated, COMMIT.
        #expect(measurement.exactCounters == counters(
            fetches: 1, faultsFired: 4, relationshipFaultsFired: 2, cacheHits: 2, cacheMisses: 4, sqlStatements: 10, rowsRead: 7,
            rowsWritten: 2, saves: 1))

        let reader = ObjectContext(store: store, name: "reader")
        try reader.perform {
            let loose = try reader.fetch(BookmarkItemManagedObject.fetchRequest(
                predicate: try ObjectPredicate(format: "parent == nil"), sortKeys: [SortKey("title")]))
            #expect(loose.map { $0.title ?? "" } == ["Root", "Swift"])
            let inRoot = BookmarkItemManagedObject.fetchRequest(predicate: try ObjectPredicate(format: "parent.title == %@", "Root"))
            #expect(try reader.count(for: inRoot) == 2)
            let favourites = BookmarkManagedObject.fetchRequest(predicate: try ObjectPredicate(format: "isFavorite == YES"))
            #expect(try reader.count(for: favourites) == 0)
        }
    }
}
