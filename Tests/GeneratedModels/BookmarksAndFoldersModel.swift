// BookmarksAndFoldersModel, the model, and a class for each of its entities, as `perf-run model import --swift`
// generates them from the Core Data model: regenerate this file rather than edit it.

import ObjectGraph

/// The model, each entity declared with its class.
public enum BookmarksAndFoldersModel {
    /// The model, to open a `Store` with.
    public static let model = try! Model([
        Entity("BookmarkFolderManagedObject", BookmarkFolderManagedObject.self, parent: "BookmarkItemManagedObject", properties: [
            .toMany("children", "BookmarkItemManagedObject", inverse: "parent", deleteRule: .cascade),
        ]),
        Entity("BookmarkItemManagedObject", BookmarkItemManagedObject.self, abstract: true, properties: [
            .attribute("isFavorite", .bool),
            .attribute("title", .string, optional: true),
            .toOne("parent", "BookmarkFolderManagedObject", inverse: "children"),
        ]),
        Entity("BookmarkManagedObject", BookmarkManagedObject.self, parent: "BookmarkItemManagedObject", properties: [
            .attribute("url", .string),
        ]),
    ])
}

/// A class of BookmarksAndFoldersModel: it names its entity, and the model key of each of its typed properties'
/// key paths.
public protocol BookmarksAndFoldersModelObject: EntityNamed, KeyPathNamed {}

extension BookmarksAndFoldersModelObject {
    /// A request for the objects of the class's entity and of its subentities, typed by the class
    /// it is called on (`fetchRequest()` of a class `Post` is a `FetchRequest<Post>`).
    public static func fetchRequest(predicate: ObjectPredicate? = nil, sortKeys: [SortKey] = []) -> FetchRequest<Self> {
        FetchRequest(predicate: predicate, sortKeys: sortKeys)
    }
}

/// The objects of the entity `BookmarkFolderManagedObject`.
public final class BookmarkFolderManagedObject: BookmarkItemManagedObject {
    /// The entity's name in the model.
    override public class var entityName: String { "BookmarkFolderManagedObject" }

    /// The model key of each typed property's key path (with this class as its root, inherited
    /// properties included).
    override public class var keyNames: [AnyKeyPath: String] { keyNameTable }
    nonisolated(unsafe) private static let keyNameTable: [AnyKeyPath: String] = [
        \BookmarkFolderManagedObject.isFavorite: "isFavorite",
        \BookmarkFolderManagedObject.title: "title",
        \BookmarkFolderManagedObject.parent: "parent",
        \BookmarkFolderManagedObject.children: "children",
    ]

    /// No fault hook (a final class whose source overrides none): refreshes skip the calls.
    override public class var hasFaultHooks: Bool { false }

    /// `children`: to-many BookmarkItemManagedObject, inverse `parent`, in primary-key order.
    public var children: [BookmarkItemManagedObject] { self[toMany: "children"] }

    /// Adds `value` to `children`; its inverse follows.
    public func addToChildren(_ value: BookmarkItemManagedObject, file: String = #fileID, line: Int = #line) {
        do {
            try addObject(value, forKey: "children", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).children of \(objectID): \(error)")
        }
    }

    /// Removes `value` from `children`; its inverse follows.
    public func removeFromChildren(_ value: BookmarkItemManagedObject, file: String = #fileID, line: Int = #line) {
        do {
            try removeObject(value, forKey: "children", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).children of \(objectID): \(error)")
        }
    }
}

/// The objects of the entity `BookmarkItemManagedObject` (abstract: only its subentities' objects can be inserted).
public class BookmarkItemManagedObject: ManagedObject, BookmarksAndFoldersModelObject {
    /// The entity's name in the model.
    public class var entityName: String { "BookmarkItemManagedObject" }

    /// The model key of each typed property's key path (with this class as its root, inherited
    /// properties included).
    public class var keyNames: [AnyKeyPath: String] { keyNameTable }
    nonisolated(unsafe) private static let keyNameTable: [AnyKeyPath: String] = [
        \BookmarkItemManagedObject.isFavorite: "isFavorite",
        \BookmarkItemManagedObject.title: "title",
        \BookmarkItemManagedObject.parent: "parent",
    ]

    /// `isFavorite`: bool.
    @inlinable public final var isFavorite: Bool {
        get { attribute("isFavorite", at: 0, in: &_isFavorite) }
        set { setAttribute("isFavorite", at: 0, to: newValue, in: &_isFavorite) }
    }
    @usableFromInline @exclusivity(unchecked) final var _isFavorite = AttributeField<Bool>()

    /// `title`: string, optional.
    @inlinable public final var title: String? {
        get { attribute("title", at: 1, in: &_title) }
        set { setAttribute("title", at: 1, to: newValue, in: &_title) }
    }
    @usableFromInline @exclusivity(unchecked) final var _title = AttributeField<String?>()

    /// `parent`: to-one BookmarkFolderManagedObject, inverse `children`.
    public final var parent: BookmarkFolderManagedObject? {
        get { self[toOne: "parent"] }
        set { self[toOne: "parent"] = newValue }
    }
}

/// The objects of the entity `BookmarkManagedObject`.
public final class BookmarkManagedObject: BookmarkItemManagedObject {
    /// The entity's name in the model.
    override public class var entityName: String { "BookmarkManagedObject" }

    /// The model key of each typed property's key path (with this class as its root, inherited
    /// properties included).
    override public class var keyNames: [AnyKeyPath: String] { keyNameTable }
    nonisolated(unsafe) private static let keyNameTable: [AnyKeyPath: String] = [
        \BookmarkManagedObject.isFavorite: "isFavorite",
        \BookmarkManagedObject.title: "title",
        \BookmarkManagedObject.parent: "parent",
        \BookmarkManagedObject.url: "url",
    ]

    /// No fault hook (a final class whose source overrides none): refreshes skip the calls.
    override public class var hasFaultHooks: Bool { false }

    /// `url`: string.
    @inlinable public var url: String {
        get { attribute("url", at: 2, in: &_url) }
        set { setAttribute("url", at: 2, to: newValue, in: &_url) }
    }
    @usableFromInline @exclusivity(unchecked) final var _url = AttributeField<String>()
}
