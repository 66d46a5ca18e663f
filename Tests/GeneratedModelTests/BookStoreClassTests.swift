import Faultline
import GeneratedModels
import ObjectGraph
import Testing

/// The BookStore corpus model's generated classes (its `Publication`
/// entity's class is `Book`, as its representedClassName says) used as an
/// application uses them, from another module: inserts, a save, fetches
/// with a predicate and a sort, faults, to-one and to-many reads, adds and
/// removes, with what each costs counted exactly.
@Suite struct BookStoreClassTests {
    /// Two categories, three books and six pages, saved:
    /// Fiction: Dune (9.5, 3 pages), Emma (12, 2 pages); Science: Cosmos (20, 1 page).
    static func populatedStore() throws -> Store {
        let store = try GeneratedStore.make(BookStoreModel.model)
        let context = ObjectContext(store: store, name: "populate")
        try context.perform {
            let fiction = try context.insert(BookCategory.self)
            fiction.name = "Fiction"
            let science = try context.insert(BookCategory.self)
            science.name = "Science"
            for (title, price, category, pages) in [("Dune", 9.5, fiction, 3), ("Emma", 12.0, fiction, 2), ("Cosmos", 20.0, science, 1)] {
                let book = try context.insert(Book.self)
                book.title = title
                book.price = price
                book.category = category
                for number in 1...pages {
                    let page = try context.insert(Page.self)
                    page.text = "\(title) page \(number)"
                    book.addToPages(page)
                }
            }
            try context.save()
        }
        return store
    }

    @Test func theClassesNameTheirEntitiesAndKeyPaths() {
        #expect(Book.entityName == "Publication")
        #expect(BookCategory.entityName == "BookCategory")
        #expect(Page.entityName == "Page")
        #expect(Book.keyNames.count == 7)
        #expect(Book.keyNames[\Book.title] == "title")
        #expect(Book.keyNames[\Book.price] == "price")
        #expect(Book.keyNames[\Book.category] == "category")
        #expect(Book.keyNames[\Book.pages] == "pages")
        #expect(BookCategory.keyNames == [\BookCategory.name: "name", \BookCategory.books: "books"])
        #expect(Page.keyNames == [\Page.text: "text", \Page.book: "book"])
        #expect(Book.fetchRequest().entityName == "Publication")
        #expect(BookStoreModel.model.entity(named: "Publication")?.objectType == Book.self)
    }

    @Test func insertingAndSavingThroughTheClasses() throws {
        let store = try GeneratedStore.make(BookStoreModel.model)
        let context = ObjectContext(store: store, name: "main")
        let measurement = try Faultline.measure(store) {
            try context.perform {
                let fiction = try context.insert(BookCategory.self)
                fiction.name = "Fiction"
                let dune = try context.insert(Book.self)
                dune.title = "Dune"
                #expect(dune.price == 0)   // the model's default
                dune.price = 9.5
                dune.category = fiction
                let page = try context.insert(Page.self)
                page.text = "Dune page 1"
                dune.addToPages(page)
                // Each inverse follows in memory.
                #expect(fiction.books.count == 1 && fiction.books.first === dune)
                #expect(page.book === dune)
                #expect(dune.pages.count == 1 && dune.pages.first === page)
                try context.save()
            }
        }
        // BEGIN, three INSERTs (one per object: its to-one keys are its
        // columns), COMMIT.
        #expect(measurement.exactCounters == counters(sqlStatements: 5, rowsWritten: 3, saves: 1))

        let reader = ObjectContext(store: store, name: "reader")
        try reader.perform {
            let books = try reader.fetch(Book.fetchRequest())
            #expect(books.map(\.title) == ["Dune"])
            #expect(books.map(\.price) == [9.5])
            #expect(books.first?.category?.name == "Fiction")
            #expect(books.first?.pages.map(\.text) == ["Dune page 1"])
        }
    }

    @Test func fetchingWithAPredicateAndASortFiresFaultsFromTheRowCache() throws {
        let store = try Self.populatedStore()
        let context = ObjectContext(store: store, name: "reader")
        let (titles, measurement) = try Faultline.measure(store) {
            try context.perform {
                let request = Book.fetchRequest(
                    predicate: try ObjectPredicate(format: "price < %@ AND category.name == %@", 15.0, "Fiction"),
                    sortKeys: [SortKey("title", ascending: false)])
                let books: FetchedResults<Book> = try context.fetch(request)
                #expect(books.allSatisfy { $0.isFault })
                let titles = books.map { $0.title ?? "" }
                #expect(books.allSatisfy { !$0.isFault })
                return titles
            }
        }
        #expect(titles == ["Emma", "Dune"])
        // The reader's read transaction (BEGIN DEFERRED) and one SELECT, the
        // category's name read by a join; each fault fired from the rows the
        // fetch cached.
        #expect(measurement.exactCounters == counters(fetches: 1, faultsFired: 2, cacheHits: 2, sqlStatements: 2, rowsRead: 2))
    }

    @Test func readingRelationshipsFiresTheirFaults() throws {
        let store = try Self.populatedStore()
        let context = ObjectContext(store: store, name: "reader")
        try context.perform {
            let dune = try #require(try context.fetch(Book.fetchRequest(predicate: try ObjectPredicate(format: "title == %@", "Dune"))).first)
            #expect(dune.title == "Dune")
            let toOne = try Faultline.measure(store) {
                // The category's key is in the book's row: its object is a
                // fault, fired from SQLite (no context held its row).
                let category = try #require(dune.category)
                #expect(category.isFault)
                #expect(category.name == "Fiction")
            }
            #expect(toOne.exactCounters == counters(faultsFired: 1, cacheMisses: 1, sqlStatements: 1, rowsRead: 1))

            let toMany = try Faultline.measure(store) {
                // One query for the pages' keys; each page is a fault, fired
                // from SQLite one by one.
                let pages = dune.pages
                #expect(pages.count == 3)
                #expect(pages.allSatisfy { $0.isFault })
                #expect(pages.map { $0.text ?? "" } == ["Dune page 1", "Dune page 2", "Dune page 3"])
                #expect(pages.allSatisfy { $0.book === dune })
            }
            #expect(toMany.exactCounters == counters(
                faultsFired: 3, relationshipFaultsFired: 1, cacheMisses: 4, sqlStatements: 4, rowsRead: 6))

            // The inverse of a to-one holds the same objects (uniquing).
            let fiction = try #require(dune.category)
            let books = fiction.books
            #expect(books.map { $0.title ?? "" } == ["Dune", "Emma"])
            #expect(books.first === dune)
        }
    }

    @Test func addingAndRemovingMovesObjectsAndTheirInverses() throws {
        let store = try Self.populatedStore()
        let context = ObjectContext(store: store, name: "editor")
        let measurement = try Faultline.measure(store) {
            try context.perform {
                let categories = try context.fetch(BookCategory.fetchRequest(sortKeys: [SortKey("name")]))
                let (fiction, science) = (categories[0], categories[1])
                let emma = try #require(fiction.books.first { $0.title == "Emma" })
                science.addToBooks(emma)
                #expect(emma.category === science)
                #expect(fiction.books.map(\.title) == ["Dune"])
                #expect(science.books.map(\.title) == ["Emma", "Cosmos"])

                let dune = try #require(fiction.books.first)
                let last = try #require(dune.pages.last)
                dune.removeFromPages(last)
                #expect(last.book == nil)
                #expect(dune.pages.count == 2)
                try context.save()
            }
        }
        // Reads: BEGIN DEFERRED and the categories' fetch (2 rows; both
        // fired from the row cache when their books are read); the books
        // of each category (2 relationship faults, 3 rows) and Dune's pages
        // (1, 3 rows); the three books and the page removed fired from
        // SQLite (4 rows). The save: BEGIN IMMEDIATE, Emma's category and
        // the page's book updated (2 rows), COMMIT.
        #expect(measurement.exactCounters == counters(
            fetches: 1, faultsFired: 6, relationshipFaultsFired: 3, cacheHits: 2, cacheMisses: 7, sqlStatements: 13, rowsRead: 12,
            rowsWritten: 2, saves: 1))

        let reader = ObjectContext(store: store, name: "reader")
        try reader.perform {
            let science = try reader.fetch(Book.fetchRequest(predicate: try ObjectPredicate(format: "category.name == %@", "Science"), sortKeys: [SortKey("title")]))
            #expect(science.map(\.title) == ["Cosmos", "Emma"])
            let loose = try reader.fetch(Page.fetchRequest(predicate: try ObjectPredicate(format: "book == nil")))
            #expect(loose.map(\.text) == ["Dune page 3"])
            #expect(try reader.count(for: Page.fetchRequest(predicate: try ObjectPredicate(format: "book.title == %@", "Dune"))) == 2)
        }
    }
}
