import Foundation
import ObjectGraph

/// Model.swift's `model`, under a name the enum's own `model` does not hide.
private let modelFromFile = model

/// The blog's persistence code: what its screens load and change.
public enum Blog {
    /// The model (Model.swift, imported from the Core Data model file).
    public static var model: Model { modelFromFile }

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
                let tag = try context.insert(entityName: "Tag")
                try tag.setValue(.string("tag\(number)"), forKey: "name")
                return tag
            }
            for a in 0..<authors {
                let author = try context.insert(entityName: "Author")
                try author.setValue(.string("Author \(a)"), forKey: "name")
                for p in 0..<postsPerAuthor {
                    let number = a * postsPerAuthor + p
                    let post = try context.insert(entityName: "Post")
                    try post.setValue(.string("Post \(number) by author \(a)"), forKey: "title")
                    try post.setValue(.integer(Int64(number * 7 % 100)), forKey: "likes")
                    try post.setObject(author, forKey: "author")
                    for t in 0..<2 { try post.addObject(tagObjects[(number + t) % tags], forKey: "tags") }
                    for c in 0..<3 {
                        let comment = try context.insert(entityName: "Comment")
                        try comment.setValue(.string("Comment \(c) on post \(number)"), forKey: "text")
                        try comment.setObject(post, forKey: "post")
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
            var request = FetchRequest<ManagedObject>(entityName: "Post", sortKeys: [SortKey("likes", ascending: false), SortKey("title")])
            request.fetchLimit = 50
            if prefetching { request.relationshipKeyPathsForPrefetching = ["author", "comments"] }
            return try context.fetch(request).map { post in
                let author = try post.value(forKeyPath: "author.name")
                let comments = try post.objects(forKey: "comments").map { try $0.value(forKey: "text") }
                return Row(title: "\(try post.value(forKey: "title"))", author: "\(author)", comments: comments.map { "\($0)" })
            }
        }
    }
}

/// The search box: posts whose title contains a term, in any case.
public enum Search {
    public static func posts(containing term: String, in context: ObjectContext) throws -> Int {
        try context.perform {
            try context.count(for: FetchRequest<ManagedObject>(
                entityName: "Post", predicate: try ObjectPredicate(format: "title CONTAINS[c] %@", arguments: [term])))
        }
    }
}

/// Publishing every draft, object by object or with one batch update.
public enum BulkEdit {
    public static func publishAll(in context: ObjectContext) throws -> Int {
        try context.perform {
            let drafts = try context.fetch(FetchRequest<ManagedObject>(entityName: "Post", predicate: try ObjectPredicate(format: "published == NO")))
            for post in drafts { try post.setValue(.bool(true), forKey: "published") }
            try context.save()
            return drafts.count
        }
    }

    public static func publishAllInOneUpdate(on store: Store) throws -> BatchResult {
        try store.execute(BatchUpdateRequest(
            entityName: "Post", predicate: try ObjectPredicate(format: "published == NO"), propertiesToUpdate: ["published": .value(.bool(true))],
            resultType: .count))
    }
}
