import Foundation
import Testing
@testable import ObjectGraph

/// A refault of an unchanged object whose snapshot the row cache still
/// holds takes its values back as they are (no lock, no lookup, its typed
/// fields kept), and counts as a hit like any other; anything that changes
/// what the cache holds sends the next refault through the lock again.
@Suite struct RowCacheGenerationTests {
    @Test func aRefaultOfAnUnchangedObjectKeepsItsValuesAndFields() throws {
        let store = try TypedFieldTests.store()
        let context = ObjectContext(store: store)
        try context.perform {
            let author = try TypedFieldTests.fetchAuthors(context)[0]
            #expect(author.name == "Writer 1")
            // The first refault takes the snapshot under the lock and notes
            // the cache's generation.
            context.refresh(author, mergeChanges: false)
            #expect(author.name == "Writer 1")
            let generation = store.rowCache.currentContentGeneration
            #expect(author.rowCacheGeneration == generation)
            let values = author.storedValues
            let before = store.rowCache.statistics
            for _ in 0..<3 {
                context.refresh(author, mergeChanges: false)
                #expect(author.isFault)
                // Still valid, though not readable in place until the fault fires.
                #expect(author.typedFields.holds(0))
                #expect(!author.typedFields.isReadable)
                #expect(author.name == "Writer 1")
                #expect(!author.isFault)
            }
            #expect(author.storedValues.sharesStorage(with: values))
            #expect(author.typedFields.canRead(0))
            #expect(store.rowCache.statistics == .init(hits: before.hits + 3, misses: before.misses))
            #expect(store.rowCache.currentContentGeneration == generation)
        }
    }

    @Test func anotherContextsSaveSendsTheRefaultThroughTheLock() throws {
        let store = try TypedFieldTests.store()
        let context = ObjectContext(store: store, name: "reader")
        let author = try context.perform {
            let author = try TypedFieldTests.fetchAuthors(context)[0]
            context.refresh(author, mergeChanges: false)
            _ = author.name
            return author
        }
        let claimed = author.rowCacheGeneration
        let writer = ObjectContext(store: store, name: "writer")
        try writer.perform {
            let same = try TypedFieldTests.fetchAuthors(writer)[0]
            same.name = "Saved by the writer"
            try writer.save()
        }
        #expect(store.rowCache.currentContentGeneration > claimed)
        context.perform {
            // Not merged, but refreshed: the refault takes the cache's new
            // snapshot (a hit), and the typed field follows.
            context.refresh(author, mergeChanges: false)
            let before = store.rowCache.statistics
            #expect(author.name == "Saved by the writer")
            #expect(store.rowCache.statistics == .init(hits: before.hits + 1, misses: before.misses))
            #expect(author.rowCacheGeneration == store.rowCache.currentContentGeneration)
        }
    }

    @Test func aChangedObjectClaimsNoSnapshot() throws {
        let store = try TypedFieldTests.store()
        let context = ObjectContext(store: store)
        try context.perform {
            let author = try TypedFieldTests.fetchAuthors(context)[0]
            context.refresh(author, mergeChanges: false)
            _ = author.name
            #expect(author.rowCacheGeneration != 0)
            author.name = "Changed"
            #expect(author.rowCacheGeneration == 0)
            // The refresh drops the change: the refault reads the cache's
            // snapshot under the lock.
            context.refresh(author, mergeChanges: false)
            #expect(author.name == "Writer 1")
            #expect(author.rowCacheGeneration == store.rowCache.currentContentGeneration)
        }
    }

    @Test func everyChangeOfTheCacheMovesItsGeneration() throws {
        let store = try TypedFieldTests.store(authors: 2)
        let cache = store.rowCache
        let context = ObjectContext(store: store)
        try context.perform {
            var generation = cache.currentContentGeneration
            func moved() -> Bool {
                let now = cache.currentContentGeneration
                defer { generation = now }
                return now > generation
            }
            // A fetch stores its rows.
            let authors = try TypedFieldTests.fetchAuthors(context)
            #expect(moved())
            // A refault under the lock changes nothing.
            context.refresh(authors[0], mergeChanges: false)
            _ = authors[0].name
            #expect(!moved())
            // A save applies its rows.
            authors[1].name = "Saved"
            try context.save()
            #expect(moved())
            // A batch update that counts its rows drops the entity's snapshots.
            _ = try store.execute(BatchUpdateRequest(entityName: "Writer", propertiesToUpdate: ["born": .value(1)], resultType: .count))
            #expect(moved())
            cache.removeAllSnapshots()
            #expect(moved())
            // The last registration of a row goes.
            context.reset()
            #expect(moved())
        }
    }

    @Test func aStalenessLimitAlwaysTakesTheLock() throws {
        let store = try TypedFieldTests.store()
        let context = ObjectContext(store: store)
        context.stalenessInterval = .seconds(3600)
        try context.perform {
            let author = try TypedFieldTests.fetchAuthors(context)[0]
            context.refresh(author, mergeChanges: false)
            _ = author.name
            // Claimed, but a context with a limit checks the snapshot's age
            // under the lock each time: still a hit.
            let before = store.rowCache.statistics
            context.refresh(author, mergeChanges: false)
            #expect(author.name == "Writer 1")
            #expect(store.rowCache.statistics == .init(hits: before.hits + 1, misses: before.misses))
            context.stalenessInterval = .zero
            context.refresh(author, mergeChanges: false)
            #expect(author.name == "Writer 1")
            #expect(store.rowCache.statistics == .init(hits: before.hits + 1, misses: before.misses + 1))
        }
    }

    @Test func anEntityWithAToOneRestoresItUnderTheLock() throws {
        let store = try TypedFieldTests.store()
        let context = ObjectContext(store: store)
        try context.perform {
            var request = FetchRequest<Memo>(sortKeys: [SortKey("text")])
            request.returnsObjectsAsFaults = false
            let note = try context.fetch(request)[0]
            context.refresh(note, mergeChanges: false)
            #expect(note.author?.name == "Writer 1")
            // No claim: the to-one slot comes from the snapshot each time.
            #expect(note.rowCacheGeneration == 0)
            context.refresh(note, mergeChanges: false)
            #expect(note.text == "Memo 1")
            #expect(note.author?.name == "Writer 1")
        }
    }
}
