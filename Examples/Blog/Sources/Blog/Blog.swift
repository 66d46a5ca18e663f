import Foundation
import ObjectGraph

/// The blog's persistence code: what its screens load and change, written
/// on the classes `perf-run model import --swift` generated from the Core
/// Data model (Model.swift) and Foundation's `#Predicate`, as Core Data or
/// SwiftData code is.
public enum Blog {
    /// The model (Model.swift, imported from the Core Data model file).
    public static var model: Model { BlogModel.model }

    /// Opens (or creates) the blog's store.
    public static func open(_ path: String, configuration: StoreConfiguration = StoreConfiguration()) throws -> Store {
        try Store(model: model, location: .file(path), configuration: configuration)
    }

    /// `authors` authors with `postsPerAuthor` posts each, three comments a
    /// post, and posts tagged with two of `tags` tags.
    public static func seed(_ store: Store, authors: Int = 20, postsPerAuthor: Int = 5, tags: Int = 10) throws {
        try seed(store, authors: authors, postsPerAuthor: postsPerAuthor, tags: tags, step: { _, _ in })
    }

    /// The same, calling `step(done, total)` after each author.
    public static func seed(
        _ store: Store, authors: Int, postsPerAuthor: Int, tags: Int, step: (Int, Int) throws -> Void
    ) throws {
        let context = ObjectContext(store: store, name: "seed")
        try context.perform {
            let tagObjects = try (0..<tags).map { number in
                let tag = try context.insert(Tag.self)
                tag.name = "tag\(number)"
                return tag
            }
            for a in 0..<authors {
                let author = try context.insert(Author.self)
                author.name = "Author \(a)"
                for p in 0..<postsPerAuthor {
                    let number = a * postsPerAuthor + p
                    let post = try context.insert(Post.self)
                    post.title = "Post \(number) by author \(a)"
                    post.likes = Int32(number * 7 % 100)
                    post.author = author
                    for t in 0..<2 { post.addToTags(tagObjects[(number + t) % tags]) }
                    for c in 0..<3 {
                        let comment = try context.insert(Comment.self)
                        comment.text = "Comment \(c) on post \(number)"
                        comment.post = post
                    }
                }
                try step(a + 1, authors)
            }
            try context.save()
        }
    }
}

/// The list screen: the 50 most liked posts, each with its author's name
/// and the text of its comments.
public enum PostList {
    public struct Row: Sendable, Equatable {
        public var title: String
        public var author: String
        public var comments: [String]
    }

    /// Loads the rows. Without prefetching each post's author and comments
    /// are faulted one by one (an N+1); with it, two more queries load them all.
    public static func load(in context: ObjectContext, prefetching: Bool) throws -> [Row] {
        try context.perform {
            var request = FetchRequest<Post>(sortBy: [SortDescriptor(\.likes, order: .reverse), SortDescriptor(\.title)])
            request.fetchLimit = 50
            if prefetching { try request.prefetch(\.author, \.comments) }
            return try context.fetch(request).map { post in
                Row(title: post.title, author: post.author?.name ?? "", comments: post.comments.map(\.text))
            }
        }
    }
}

/// The search box: posts whose title contains a term, in any case.
public enum Search {
    public static func posts(containing term: String, in context: ObjectContext) throws -> Int {
        try context.perform {
            try context.count(for: FetchRequest<Post>(predicate: #Predicate { $0.title.localizedStandardContains(term) }))
        }
    }
}

/// Moderation: the posts fewer people liked go to the authors in turn,
/// for a fresh look. Setting each post's author makes the engine load the
/// old and the new author's posts to keep `posts` in step: its own
/// bookkeeping, no N+1 of the screen's.
public enum Moderation {
    /// Gives the posts with fewer than `likes` likes to the authors in name
    /// order, one each in turn; returns how many moved.
    public static func spreadUnliked(below likes: Int32, in context: ObjectContext) throws -> Int {
        try context.perform {
            let authors = Array(try context.fetch(FetchRequest<Author>(sortBy: [SortDescriptor(\.name)])))
            let posts = Array(try context.fetch(FetchRequest<Post>(predicate: #Predicate { $0.likes < likes })))
            for (index, post) in posts.enumerated() { post.author = authors[index % authors.count] }
            try context.save()
            return posts.count
        }
    }
}

/// Publishing every draft, object by object or with one batch update.
public enum BulkEdit {
    public static func publishAll(in context: ObjectContext) throws -> Int {
        try context.perform {
            let drafts = try context.fetch(FetchRequest<Post>(predicate: #Predicate { !$0.published }))
            for post in drafts { post.published = true }
            try context.save()
            return drafts.count
        }
    }

    public static func publishAllInOneUpdate(on store: Store) throws -> BatchResult {
        try store.execute(BatchUpdateRequest(
            Post.self, where: #Predicate { !$0.published }, setting: [\.published: .value(.bool(true))], resultType: .count))
    }
}
