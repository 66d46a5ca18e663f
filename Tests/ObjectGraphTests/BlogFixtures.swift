import Foundation
@testable import ObjectGraph

// A blog's model with hand-written KeyPathNamed classes, as
// `perf-run model import --swift` generates them: for typed predicates
// (#Predicate) and sort descriptors.

final class Author: ManagedObject, EntityNamed, KeyPathNamed {
    static let entityName = "Author"
    static var keyNames: [AnyKeyPath: String] {
        [\Author.name: "name", \Author.age: "age", \Author.joined: "joined", \Author.posts: "posts"]
    }
    var name: String {
        get { self[attribute: "name"] }
        set { self[attribute: "name"] = newValue }
    }
    var age: Int16? {
        get { self[attribute: "age"] }
        set { self[attribute: "age"] = newValue }
    }
    var joined: Date? {
        get { self[attribute: "joined"] }
        set { self[attribute: "joined"] = newValue }
    }
    var posts: [Post] { self[toMany: "posts"] }
}

final class Post: ManagedObject, EntityNamed, KeyPathNamed {
    static let entityName = "Post"
    static var keyNames: [AnyKeyPath: String] {
        [
            \Post.title: "title", \Post.body: "body", \Post.published: "published", \Post.likes: "likes", \Post.rating: "rating",
            \Post.author: "author", \Post.comments: "comments", \Post.tags: "tags",
        ]
    }
    var title: String {
        get { self[attribute: "title"] }
        set { self[attribute: "title"] = newValue }
    }
    var body: String? {
        get { self[attribute: "body"] }
        set { self[attribute: "body"] = newValue }
    }
    var published: Bool {
        get { self[attribute: "published"] }
        set { self[attribute: "published"] = newValue }
    }
    var likes: Int32 {
        get { self[attribute: "likes"] }
        set { self[attribute: "likes"] = newValue }
    }
    var rating: Double? {
        get { self[attribute: "rating"] }
        set { self[attribute: "rating"] = newValue }
    }
    var author: Author? {
        get { self[toOne: "author"] }
        set { self[toOne: "author"] = newValue }
    }
    var comments: [Comment] { self[toMany: "comments"] }
    var tags: [Tag] {
        get { self[toMany: "tags"] }
        set { self[toMany: "tags"] = newValue }
    }
    /// A property the class does not name in keyNames.
    var excerpt: String { String(title.prefix(3)) }
}

final class Comment: ManagedObject, EntityNamed, KeyPathNamed {
    static let entityName = "Comment"
    static var keyNames: [AnyKeyPath: String] { [\Comment.text: "text", \Comment.likes: "likes", \Comment.post: "post"] }
    var text: String {
        get { self[attribute: "text"] }
        set { self[attribute: "text"] = newValue }
    }
    var likes: Int32 {
        get { self[attribute: "likes"] }
        set { self[attribute: "likes"] = newValue }
    }
    var post: Post? {
        get { self[toOne: "post"] }
        set { self[toOne: "post"] = newValue }
    }
}

final class Tag: ManagedObject, EntityNamed, KeyPathNamed {
    static let entityName = "Tag"
    static var keyNames: [AnyKeyPath: String] { [\Tag.name: "name", \Tag.posts: "posts"] }
    var name: String {
        get { self[attribute: "name"] }
        set { self[attribute: "name"] = newValue }
    }
    var posts: [Post] { self[toMany: "posts"] }
}

enum BlogFixtures {
    static let model: Model = try! Model([
        Entity("Author", Author.self, properties: [
            .attribute("name", .string, indexed: true),
            .attribute("age", .int16, optional: true),
            .attribute("joined", .date, optional: true),
            .toMany("posts", "Post", inverse: "author"),
        ]),
        Entity("Post", Post.self, properties: [
            .attribute("title", .string),
            .attribute("body", .string, optional: true),
            .attribute("published", .bool, default: .bool(false)),
            .attribute("likes", .int32, default: .integer(0), indexed: true),
            .attribute("rating", .double, optional: true),
            .toOne("author", "Author", inverse: "posts"),
            .toMany("comments", "Comment", inverse: "post", deleteRule: .cascade),
            .toMany("tags", "Tag", inverse: "posts"),
        ]),
        Entity("Comment", Comment.self, properties: [
            .attribute("text", .string),
            .attribute("likes", .int32, default: .integer(0)),
            .toOne("post", "Post", inverse: "comments"),
        ]),
        Entity("Tag", Tag.self, properties: [
            .attribute("name", .string),
            .toMany("posts", "Post", inverse: "tags"),
        ]),
    ])

    /// A store on a new file, with a statement log.
    static func store(log: StatementLog? = nil, configure: (inout StoreConfiguration) -> Void = { _ in }) throws -> Store {
        var configuration = StoreConfiguration()
        if let log { configuration.statementHook = log.hook }
        configure(&configuration)
        return try Store(model: model, location: .file(Fixtures.storePath()), configuration: configuration)
    }

    /// Ada joined on this date (2001-01-01 plus 10 days).
    static let adaJoined = Date(timeIntervalSinceReferenceDate: 864_000)

    /// Inserts the data set in `context` (saved or not is the caller's
    /// choice): three authors, six posts (one without an author, one with
    /// an empty title, titles in several scripts), comments and tags.
    ///
    /// | title | likes | published | rating | body | author | comment likes | tags |
    /// | --- | --- | --- | --- | --- | --- | --- | --- |
    /// | "Faults in Core Data" | 12 | yes | 4.5 | "About faults" | Ada | 5, 1 | swift, coredata |
    /// | "Prefetching" | 3 | no | nil | nil | Émile | 0 | coredata |
    /// | "caffè & café" | 25 | yes | 2.0 | "Ünïcode" | zoë | | |
    /// | "Untitled" | 0 | no | nil | "" | nil | 7, 9 | swift |
    /// | "Batch [*] requests" | 10 | yes | 5.0 | "x" | Ada | 2 | swift, sqlite |
    /// | "" | 11 | no | 1.0 | nil | Émile | | |
    ///
    /// Ada is 36 and joined on ``adaJoined``, Émile's age is nil, zoë is 70.
    static func insert(into context: ObjectContext) throws {
        let ada = try context.insert(Author.self)
        ada.name = "Ada"
        ada.age = 36
        ada.joined = adaJoined
        let emile = try context.insert(Author.self)
        emile.name = "Émile"
        let zoe = try context.insert(Author.self)
        zoe.name = "zoë"
        zoe.age = 70
        var tags: [String: Tag] = [:]
        for name in ["swift", "coredata", "sqlite"] {
            let tag = try context.insert(Tag.self)
            tag.name = name
            tags[name] = tag
        }
        let posts: [(String, Int32, Bool, Double?, String?, Author?, [Int32], [String])] = [
            ("Faults in Core Data", 12, true, 4.5, "About faults", ada, [5, 1], ["swift", "coredata"]),
            ("Prefetching", 3, false, nil, nil, emile, [0], ["coredata"]),
            ("caffè & café", 25, true, 2.0, "Ünïcode", zoe, [], []),
            ("Untitled", 0, false, nil, "", nil, [7, 9], ["swift"]),
            ("Batch [*] requests", 10, true, 5.0, "x", ada, [2], ["swift", "sqlite"]),
            ("", 11, false, 1.0, nil, emile, [], []),
        ]
        for (title, likes, published, rating, body, author, commentLikes, tagNames) in posts {
            let post = try context.insert(Post.self)
            post.title = title
            post.likes = likes
            post.published = published
            post.rating = rating
            post.body = body
            post.author = author
            post.tags = tagNames.compactMap { tags[$0] }
            for (index, likes) in commentLikes.enumerated() {
                let comment = try context.insert(Comment.self)
                comment.text = "Comment \(index + 1) on \(title)"
                comment.likes = likes
                comment.post = post
            }
        }
    }

    /// A store with the data set saved, its statement log (empty) and a context.
    static func savedStore() throws -> (Store, ObjectContext, StatementLog) {
        let log = StatementLog()
        let store = try store(log: log)
        let setup = ObjectContext(store: store, name: "setup")
        try setup.perform {
            try insert(into: setup)
            try setup.save()
        }
        log.clear()
        return (store, ObjectContext(store: store, name: "main"), log)
    }

    /// An empty store and a context holding the data set as unsaved
    /// inserts: its fetches answer from memory (pending changes).
    static func pendingStore() throws -> (Store, ObjectContext, StatementLog) {
        let log = StatementLog()
        let store = try store(log: log)
        let context = ObjectContext(store: store, name: "pending")
        try context.perform { try insert(into: context) }
        log.clear()
        return (store, context, log)
    }
}
