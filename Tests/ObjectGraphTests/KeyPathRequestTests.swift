import Foundation
import Testing
@testable import ObjectGraph

/// Prefetching and batch updates named by key paths, as the string-keyed
/// forms they stand for.
@Suite struct KeyPathRequestTests {
    @Test func prefetchByKeyPathIsPrefetchByName() throws {
        var request = FetchRequest<Post>()
        try request.prefetch(\.author, \.comments)
        #expect(request.relationshipKeyPathsForPrefetching == ["author", "comments"])
        // A property the class does not name is refused where it is named.
        var other = FetchRequest<Post>()
        let error = #expect(throws: ObjectGraphError.self) { try other.prefetch(\.excerpt) }
        #expect(error?.description.hasPrefix("invalid fetch request: prefetch: Post.keyNames does not list its key path to String") == true)
        // The prefetch runs: the posts, their authors and comments, no fault after.
        let (_, context, log) = try BlogFixtures.savedStore()
        try context.perform {
            let posts = try context.fetch(request)
            #expect(log.selects().count == 3)
            #expect(posts.compactMap { $0.author?.name }.sorted() == ["Ada", "Ada", "zoë", "Émile", "Émile"])
            #expect(posts.reduce(0) { $0 + $1.comments.count } == 6)
            #expect(log.selects().isEmpty)
        }
    }

    @Test func intendedLazyLoadsByKeyPathAreByName() throws {
        var request = FetchRequest<Post>()
        try request.intendLazyLoads(\.author)
        #expect(request.intendedLazyLoads == ["author"])
        var other = FetchRequest<Post>()
        let error = #expect(throws: ObjectGraphError.self) { try other.intendLazyLoads(\.excerpt) }
        #expect(error?.description.hasPrefix("invalid fetch request: intendLazyLoads: Post.keyNames does not list its key path") == true)
    }

    @Test func aTypedBatchUpdateIsTheNamedOne() throws {
        let typed = try BatchUpdateRequest(
            Post.self, where: #Predicate { !$0.published }, setting: [\.published: .value(.bool(true))], resultType: .count)
        #expect(typed.entityName == "Post")
        #expect(typed.predicate?.description == (try ObjectPredicate(format: "NOT published == YES")).description)
        #expect(typed.propertiesToUpdate == ["published": .value(.bool(true))])
        let (store, _, _) = try BlogFixtures.savedStore()
        #expect(try store.execute(typed) == .count(3))
        #expect(throws: ObjectGraphError.self) {
            try BatchUpdateRequest(Post.self, setting: [\.excerpt: .value(.string("x"))])
        }
    }
}
