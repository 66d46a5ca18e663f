// BlogModel, the model, and a class for each of its entities, as `perf-run model import --swift`
// generates them from the Core Data model: regenerate this file rather than edit it.

import Foundation
import ObjectGraph

/// The model, each entity declared with its class.
public enum BlogModel {
    /// The model, to open a `Store` with.
    public static let model = try! Model([
        Entity("Author", Author.self, properties: [
            .attribute("name", .string),
            .attribute("joined", .date, optional: true),
            .toMany("posts", "Post", inverse: "author", deleteRule: .cascade),
        ], uniquenessConstraints: [["name"]]),
        Entity("Post", Post.self, properties: [
            .attribute("title", .string),
            .attribute("body", .string, optional: true),
            .attribute("published", .bool, default: .bool(false)),
            .attribute("likes", .int32, default: .integer(0), indexed: true),
            .derived("commentCount", .int64, .count("comments")),
            .toOne("author", "Author", inverse: "posts"),
            .toMany("comments", "Comment", inverse: "post", deleteRule: .cascade),
            .toMany("tags", "Tag", inverse: "posts"),
        ]),
        Entity("Comment", Comment.self, properties: [
            .attribute("text", .string),
            .toOne("post", "Post", inverse: "comments"),
        ]),
        Entity("Tag", Tag.self, properties: [
            .attribute("name", .string, indexed: true),
            .toMany("posts", "Post", inverse: "tags"),
        ]),
    ])
}

/// A class of BlogModel: it names its entity, and the model key of each of its typed properties'
/// key paths.
public protocol BlogModelObject: EntityNamed, KeyPathNamed {}

extension BlogModelObject {
    /// A request for the objects of the class's entity and of its subentities, typed by the class
    /// it is called on (`fetchRequest()` of a class `Post` is a `FetchRequest<Post>`).
    public static func fetchRequest(predicate: ObjectPredicate? = nil, sortKeys: [SortKey] = []) -> FetchRequest<Self> {
        FetchRequest(predicate: predicate, sortKeys: sortKeys)
    }
}

/// The objects of the entity `Author`.
public final class Author: ManagedObject, BlogModelObject {
    /// The entity's name in the model.
    public class var entityName: String { "Author" }

    /// The model key of each typed property's key path (with this class as its root, inherited
    /// properties included).
    public class var keyNames: [AnyKeyPath: String] { keyNameTable }
    nonisolated(unsafe) private static let keyNameTable: [AnyKeyPath: String] = [
        \Author.name: "name",
        \Author.joined: "joined",
        \Author.posts: "posts",
    ]

    /// No fault hook (a final class whose source overrides none): refreshes skip the calls.
    override public class var hasFaultHooks: Bool { false }

    /// `name`: string.
    @inlinable public var name: String {
        get { attribute("name", at: 0, in: &_name) }
        set { setAttribute("name", at: 0, to: newValue, in: &_name) }
    }
    @usableFromInline @exclusivity(unchecked) final var _name = AttributeField<String>()

    /// `joined`: date, optional.
    @inlinable public var joined: Date? {
        get { attribute("joined", at: 1, in: &_joined) }
        set { setAttribute("joined", at: 1, to: newValue, in: &_joined) }
    }
    @usableFromInline @exclusivity(unchecked) final var _joined = AttributeField<Date?>()

    /// `posts`: to-many Post, inverse `author`, in primary-key order.
    public var posts: [Post] { self[toMany: "posts"] }

    /// Adds `value` to `posts`; its inverse follows.
    public func addToPosts(_ value: Post, file: String = #fileID, line: Int = #line) {
        do {
            try addObject(value, forKey: "posts", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).posts of \(objectID): \(error)")
        }
    }

    /// Removes `value` from `posts`; its inverse follows.
    public func removeFromPosts(_ value: Post, file: String = #fileID, line: Int = #line) {
        do {
            try removeObject(value, forKey: "posts", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).posts of \(objectID): \(error)")
        }
    }
}

/// The objects of the entity `Post`.
public final class Post: ManagedObject, BlogModelObject {
    /// The entity's name in the model.
    public class var entityName: String { "Post" }

    /// The model key of each typed property's key path (with this class as its root, inherited
    /// properties included).
    public class var keyNames: [AnyKeyPath: String] { keyNameTable }
    nonisolated(unsafe) private static let keyNameTable: [AnyKeyPath: String] = [
        \Post.title: "title",
        \Post.body: "body",
        \Post.published: "published",
        \Post.likes: "likes",
        \Post.commentCount: "commentCount",
        \Post.author: "author",
        \Post.comments: "comments",
        \Post.tags: "tags",
    ]

    /// No fault hook (a final class whose source overrides none): refreshes skip the calls.
    override public class var hasFaultHooks: Bool { false }

    /// `title`: string.
    @inlinable public var title: String {
        get { attribute("title", at: 0, in: &_title) }
        set { setAttribute("title", at: 0, to: newValue, in: &_title) }
    }
    @usableFromInline @exclusivity(unchecked) final var _title = AttributeField<String>()

    /// `body`: string, optional.
    @inlinable public var body: String? {
        get { attribute("body", at: 1, in: &_body) }
        set { setAttribute("body", at: 1, to: newValue, in: &_body) }
    }
    @usableFromInline @exclusivity(unchecked) final var _body = AttributeField<String?>()

    /// `published`: bool.
    @inlinable public var published: Bool {
        get { attribute("published", at: 2, in: &_published) }
        set { setAttribute("published", at: 2, to: newValue, in: &_published) }
    }
    @usableFromInline @exclusivity(unchecked) final var _published = AttributeField<Bool>()

    /// `likes`: int32.
    @inlinable public var likes: Int32 {
        get { attribute("likes", at: 3, in: &_likes) }
        set { setAttribute("likes", at: 3, to: newValue, in: &_likes) }
    }
    @usableFromInline @exclusivity(unchecked) final var _likes = AttributeField<Int32>()

    /// `commentCount`: int64, derived (`comments.@count`): read only.
    @inlinable public var commentCount: Int64? { attribute("commentCount", at: 4, in: &_commentCount) }
    @usableFromInline @exclusivity(unchecked) final var _commentCount = AttributeField<Int64?>()

    /// `author`: to-one Author, inverse `posts`.
    public var author: Author? {
        get { self[toOne: "author"] }
        set { self[toOne: "author"] = newValue }
    }

    /// `comments`: to-many Comment, inverse `post`, in primary-key order.
    public var comments: [Comment] { self[toMany: "comments"] }

    /// Adds `value` to `comments`; its inverse follows.
    public func addToComments(_ value: Comment, file: String = #fileID, line: Int = #line) {
        do {
            try addObject(value, forKey: "comments", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).comments of \(objectID): \(error)")
        }
    }

    /// Removes `value` from `comments`; its inverse follows.
    public func removeFromComments(_ value: Comment, file: String = #fileID, line: Int = #line) {
        do {
            try removeObject(value, forKey: "comments", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).comments of \(objectID): \(error)")
        }
    }

    /// `tags`: to-many Tag, inverse `posts`, in primary-key order.
    public var tags: [Tag] { self[toMany: "tags"] }

    /// Adds `value` to `tags`; its inverse follows.
    public func addToTags(_ value: Tag, file: String = #fileID, line: Int = #line) {
        do {
            try addObject(value, forKey: "tags", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).tags of \(objectID): \(error)")
        }
    }

    /// Removes `value` from `tags`; its inverse follows.
    public func removeFromTags(_ value: Tag, file: String = #fileID, line: Int = #line) {
        do {
            try removeObject(value, forKey: "tags", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).tags of \(objectID): \(error)")
        }
    }
}

/// The objects of the entity `Comment`.
public final class Comment: ManagedObject, BlogModelObject {
    /// The entity's name in the model.
    public class var entityName: String { "Comment" }

    /// The model key of each typed property's key path (with this class as its root, inherited
    /// properties included).
    public class var keyNames: [AnyKeyPath: String] { keyNameTable }
    nonisolated(unsafe) private static let keyNameTable: [AnyKeyPath: String] = [
        \Comment.text: "text",
        \Comment.post: "post",
    ]

    /// No fault hook (a final class whose source overrides none): refreshes skip the calls.
    override public class var hasFaultHooks: Bool { false }

    /// `text`: string.
    @inlinable public var text: String {
        get { attribute("text", at: 0, in: &_text) }
        set { setAttribute("text", at: 0, to: newValue, in: &_text) }
    }
    @usableFromInline @exclusivity(unchecked) final var _text = AttributeField<String>()

    /// `post`: to-one Post, inverse `comments`.
    public var post: Post? {
        get { self[toOne: "post"] }
        set { self[toOne: "post"] = newValue }
    }
}

/// The objects of the entity `Tag`.
public final class Tag: ManagedObject, BlogModelObject {
    /// The entity's name in the model.
    public class var entityName: String { "Tag" }

    /// The model key of each typed property's key path (with this class as its root, inherited
    /// properties included).
    public class var keyNames: [AnyKeyPath: String] { keyNameTable }
    nonisolated(unsafe) private static let keyNameTable: [AnyKeyPath: String] = [
        \Tag.name: "name",
        \Tag.posts: "posts",
    ]

    /// No fault hook (a final class whose source overrides none): refreshes skip the calls.
    override public class var hasFaultHooks: Bool { false }

    /// `name`: string.
    @inlinable public var name: String {
        get { attribute("name", at: 0, in: &_name) }
        set { setAttribute("name", at: 0, to: newValue, in: &_name) }
    }
    @usableFromInline @exclusivity(unchecked) final var _name = AttributeField<String>()

    /// `posts`: to-many Post, inverse `tags`, in primary-key order.
    public var posts: [Post] { self[toMany: "posts"] }

    /// Adds `value` to `posts`; its inverse follows.
    public func addToPosts(_ value: Post, file: String = #fileID, line: Int = #line) {
        do {
            try addObject(value, forKey: "posts", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).posts of \(objectID): \(error)")
        }
    }

    /// Removes `value` from `posts`; its inverse follows.
    public func removeFromPosts(_ value: Post, file: String = #fileID, line: Int = #line) {
        do {
            try removeObject(value, forKey: "posts", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).posts of \(objectID): \(error)")
        }
    }
}
