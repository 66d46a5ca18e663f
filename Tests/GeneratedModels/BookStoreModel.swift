// BookStoreModel, the model, and a class for each of its entities, as `perf-run model import --swift`
// generates them from the Core Data model: regenerate this file rather than edit it.

import ObjectGraph

/// The model, each entity declared with its class.
public enum BookStoreModel {
    /// The model, to open a `Store` with.
    public static let model = try! Model([
        Entity("BookCategory", BookCategory.self, properties: [
            .attribute("name", .string, optional: true),
            .toMany("books", "Publication", inverse: "category"),
        ]),
        Entity("Page", Page.self, properties: [
            .attribute("text", .string, optional: true),
            .toOne("book", "Publication", inverse: "pages"),
        ]),
        Entity("Publication", Book.self, properties: [
            .attribute("firstName", .string, optional: true),
            .attribute("lastName", .string, optional: true),
            .attribute("price", .double, optional: true, default: .double(0.0)),
            .attribute("synopsis", .string, optional: true),
            .attribute("title", .string, optional: true),
            .toOne("category", "BookCategory", inverse: "books"),
            .toMany("pages", "Page", inverse: "book"),
        ]),
    ])
}

/// A class of BookStoreModel: it names its entity, and the model key of each of its typed properties'
/// key paths.
public protocol BookStoreModelObject: EntityNamed, KeyPathNamed {}

extension BookStoreModelObject {
    /// A request for the objects of the class's entity and of its subentities, typed by the class
    /// it is called on (`fetchRequest()` of a class `Post` is a `FetchRequest<Post>`).
    public static func fetchRequest(predicate: ObjectPredicate? = nil, sortKeys: [SortKey] = []) -> FetchRequest<Self> {
        FetchRequest(predicate: predicate, sortKeys: sortKeys)
    }
}

/// The objects of the entity `BookCategory`.
public final class BookCategory: ManagedObject, BookStoreModelObject {
    /// The entity's name in the model.
    public class var entityName: String { "BookCategory" }

    /// The model key of each typed property's key path (with this class as its root, inherited
    /// properties included).
    public class var keyNames: [AnyKeyPath: String] { keyNameTable }
    nonisolated(unsafe) private static let keyNameTable: [AnyKeyPath: String] = [
        \BookCategory.name: "name",
        \BookCategory.books: "books",
    ]

    /// No fault hook (a final class whose source overrides none): refreshes skip the calls.
    override public class var hasFaultHooks: Bool { false }

    /// `name`: string, optional.
    @inlinable public var name: String? {
        get { attribute("name", at: 0, in: &_name) }
        set { setAttribute("name", at: 0, to: newValue, in: &_name) }
    }
    @usableFromInline @exclusivity(unchecked) final var _name = AttributeField<String?>()

    /// `books`: to-many Publication, inverse `category`, in primary-key order.
    public var books: [Book] { self[toMany: "books"] }

    /// Adds `value` to `books`; its inverse follows.
    public func addToBooks(_ value: Book, file: String = #fileID, line: Int = #line) {
        do {
            try addObject(value, forKey: "books", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).books of \(objectID): \(error)")
        }
    }

    /// Removes `value` from `books`; its inverse follows.
    public func removeFromBooks(_ value: Book, file: String = #fileID, line: Int = #line) {
        do {
            try removeObject(value, forKey: "books", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).books of \(objectID): \(error)")
        }
    }
}

/// The objects of the entity `Page`.
public final class Page: ManagedObject, BookStoreModelObject {
    /// The entity's name in the model.
    public class var entityName: String { "Page" }

    /// The model key of each typed property's key path (with this class as its root, inherited
    /// properties included).
    public class var keyNames: [AnyKeyPath: String] { keyNameTable }
    nonisolated(unsafe) private static let keyNameTable: [AnyKeyPath: String] = [
        \Page.text: "text",
        \Page.book: "book",
    ]

    /// No fault hook (a final class whose source overrides none): refreshes skip the calls.
    override public class var hasFaultHooks: Bool { false }

    /// `text`: string, optional.
    @inlinable public var text: String? {
        get { attribute("text", at: 0, in: &_text) }
        set { setAttribute("text", at: 0, to: newValue, in: &_text) }
    }
    @usableFromInline @exclusivity(unchecked) final var _text = AttributeField<String?>()

    /// `book`: to-one Publication, inverse `pages`.
    public var book: Book? {
        get { self[toOne: "book"] }
        set { self[toOne: "book"] = newValue }
    }
}

/// The objects of the entity `Publication`.
public final class Book: ManagedObject, BookStoreModelObject {
    /// The entity's name in the model.
    public class var entityName: String { "Publication" }

    /// The model key of each typed property's key path (with this class as its root, inherited
    /// properties included).
    public class var keyNames: [AnyKeyPath: String] { keyNameTable }
    nonisolated(unsafe) private static let keyNameTable: [AnyKeyPath: String] = [
        \Book.firstName: "firstName",
        \Book.lastName: "lastName",
        \Book.price: "price",
        \Book.synopsis: "synopsis",
        \Book.title: "title",
        \Book.category: "category",
        \Book.pages: "pages",
    ]

    /// No fault hook (a final class whose source overrides none): refreshes skip the calls.
    override public class var hasFaultHooks: Bool { false }

    /// `firstName`: string, optional.
    @inlinable public var firstName: String? {
        get { attribute("firstName", at: 0, in: &_firstName) }
        set { setAttribute("firstName", at: 0, to: newValue, in: &_firstName) }
    }
    @usableFromInline @exclusivity(unchecked) final var _firstName = AttributeField<String?>()

    /// `lastName`: string, optional.
    @inlinable public var lastName: String? {
        get { attribute("lastName", at: 1, in: &_lastName) }
        set { setAttribute("lastName", at: 1, to: newValue, in: &_lastName) }
    }
    @usableFromInline @exclusivity(unchecked) final var _lastName = AttributeField<String?>()

    /// `price`: double, optional.
    @inlinable public var price: Double? {
        get { attribute("price", at: 2, in: &_price) }
        set { setAttribute("price", at: 2, to: newValue, in: &_price) }
    }
    @usableFromInline @exclusivity(unchecked) final var _price = AttributeField<Double?>()

    /// `synopsis`: string, optional.
    @inlinable public var synopsis: String? {
        get { attribute("synopsis", at: 3, in: &_synopsis) }
        set { setAttribute("synopsis", at: 3, to: newValue, in: &_synopsis) }
    }
    @usableFromInline @exclusivity(unchecked) final var _synopsis = AttributeField<String?>()

    /// `title`: string, optional.
    @inlinable public var title: String? {
        get { attribute("title", at: 4, in: &_title) }
        set { setAttribute("title", at: 4, to: newValue, in: &_title) }
    }
    @usableFromInline @exclusivity(unchecked) final var _title = AttributeField<String?>()

    /// `category`: to-one BookCategory, inverse `books`.
    public var category: BookCategory? {
        get { self[toOne: "category"] }
        set { self[toOne: "category"] = newValue }
    }

    /// `pages`: to-many Page, inverse `book`, in primary-key order.
    public var pages: [Page] { self[toMany: "pages"] }

    /// Adds `value` to `pages`; its inverse follows.
    public func addToPages(_ value: Page, file: String = #fileID, line: Int = #line) {
        do {
            try addObject(value, forKey: "pages", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).pages of \(objectID): \(error)")
        }
    }

    /// Removes `value` from `pages`; its inverse follows.
    public func removeFromPages(_ value: Page, file: String = #fileID, line: Int = #line) {
        do {
            try removeObject(value, forKey: "pages", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).pages of \(objectID): \(error)")
        }
    }
}
