import Foundation
import ObjectGraph
import Testing
@testable import ModelImport

/// What `perf-run model import --swift` generates for each entity: the
/// names it chooses, the class hierarchy, the properties of each kind.
/// (CorpusSwiftTypeCheckTests compiles all of it; GeneratedModelTests run
/// two corpus models' classes.)
@Suite struct ModelSwiftClassesTests {
    @Test(arguments: [
        ("Shop/BookStore.xcdatamodeld/BookStore 5.xcdatamodel/contents", "BookStoreModel"),
        ("BookmarksModel.xcdatamodeld/BookmarksModel 3.xcdatamodel/contents", "BookmarksModel"),
        ("/models/WordPress 20.xcdatamodel/contents", "WordPress20Model"),
        ("Model.xcdatamodeld/Model 2.xcdatamodel/contents", "DataModel"),
        ("test.xcdatamodel/contents", "TestModel"),
        ("momcomTests.xcdatamodeld/momcTests 2.xcdatamodel/contents", "MomcomTestsModel"),
        ("/tmp/my-app/contents", "MyAppModel"),
        ("contents", "DataModel"),
        ("3D.xcdatamodeld/", "_3DModel"),
        ("Blog.xcdatamodeld", "BlogModel"),
    ])
    func theModelIsNamedAfterItsFile(path: String, name: String) {
        #expect(SwiftModelName(modelFile: path).identifier == name)
    }

    @Test func aGivenNameMustBeAnIdentifierTheSourceDoesNotUse() throws {
        #expect(try SwiftModelName("Shop").identifier == "Shop")
        #expect(try SwiftModelName("Shop").objectProtocol == "ShopObject")
        #expect(throws: ModelImportError("my-shop: not a Swift identifier (letters, digits and _, not starting with a digit)")) {
            try SwiftModelName("my-shop")
        }
        #expect(throws: ModelImportError("2shop: not a Swift identifier (letters, digits and _, not starting with a digit)")) {
            try SwiftModelName("2shop")
        }
        #expect(throws: ModelImportError("Model: a name the generated source uses for something else")) { try SwiftModelName("Model") }
        #expect(throws: ModelImportError("class: a name the generated source uses for something else")) { try SwiftModelName("class") }
    }

    @Test(arguments: [
        ("Book", "Book"), (".Book", "Book"), ("MyApp.Book", "Book"), ("Something.We.Cannot.Handle.ImpossibleType", "ImpossibleType"),
        ("NSManagedObject", nil), ("Not a name", nil), ("", nil), ("MyApp.", nil),
    ] as [(String, String?)])
    func aClassIsTheRepresentedClassWithoutItsModule(written: String, className: String?) {
        #expect(ModelSwiftNames.className(written: written) == className)
    }

    @Test func classesAndPropertiesTakeNamesTheSourceCanUse() throws {
        let names = ModelSwiftNames(
            CorpusSwiftTypeCheckTests.awkwardNames, representedClassNames: CorpusSwiftTypeCheckTests.awkwardClassNames,
            model: try SwiftModelName("AwkwardModel"))
        #expect(names.classes == [
            "Date": "DateObject", "Model": "ModelObject", "Entity": "EntityObject", "String": "StringObject", "model": "modelObject",
            "Book": "Book", "Publication": "Publication", "Plain": "Plain",
        ])
        let date = ["class", "default", "entity", "entity_", "description", "self", "Type", "init", "value", "Book", "fatalError", "in"]
        #expect(date.map { names.propertyName($0, declaredBy: "Date") } == [
            "class", "default", "entity__", "entity_", "description_", "self_", "Type_", "init", "value", "Book_", "fatalError", "in",
        ])
        // A subentity's own property does not take a name its class inherits.
        #expect(names.propertyName("entity", declaredBy: "Entity") == "entity_")
        #expect(names.propertyName("entity_", declaredBy: "String") == "entity__")
    }

    @Test func aPropertyWhoseFieldNameIsTakenGetsAnUnderscore() throws {
        let declarations = [
            Entity("Parent", properties: [.attribute("a", .string), .attribute("x", .string), .attribute("_x", .string)]),
            Entity("Child", parent: "Parent", properties: [.attribute("_a", .string), .toMany("_b", "Other", inverse: nil), .attribute("b", .int16)]),
            Entity("Other", properties: [.attribute("plain", .string), .toMany("children", "Child", inverse: nil)]),
        ]
        let names = ModelSwiftNames(declarations, representedClassNames: [:], model: try SwiftModelName("FieldsModel"))
        // `x`'s field would be `_x`, another attribute's name: `x` gives way.
        #expect(names.propertyName("x", declaredBy: "Parent") == "x_")
        #expect(names.fieldName("x", declaredBy: "Parent") == "_x_")
        #expect(names.propertyName("_x", declaredBy: "Parent") == "_x")
        #expect(names.fieldName("_x", declaredBy: "Parent") == "__x")
        // A subentity's property named like an inherited field.
        #expect(names.propertyName("_a", declaredBy: "Child") == "_a_")
        // An attribute whose field would take a relationship's name.
        #expect(names.propertyName("_b", declaredBy: "Child") == "_b")
        #expect(names.propertyName("b", declaredBy: "Child") == "b_")
        // Names nothing collides with are kept.
        #expect(names.propertyName("a", declaredBy: "Parent") == "a")
        #expect(names.fieldName("plain", declaredBy: "Other") == "_plain")
        #expect(names.renames == [
            "Parent.x: property x_, as its field _x is taken",
            "Child._a: property _a_, as _a is inherited",
            "Child.b: property b_, as its field _b is taken",
        ])
    }

    /// The index a generated property gives is the attribute's index in
    /// its entity as the model numbers it, inherited attributes first.
    @Test func eachFieldNamesItsAttributesIndexInTheModel() throws {
        let source = try Self.librarySource()
        let model = try Model(Self.library)
        var checked = 0
        for entity in model.entities {
            for attribute in entity.attributes where attribute.declaringEntityIndex == entity.index {
                let read = "attribute(\"\(attribute.name)\", at: \(attribute.index), in: &_\(attribute.name))"
                #expect(source.contains(read), "\(entity.name).\(attribute.name)")
                checked += 1
            }
        }
        #expect(checked == 6)
    }

    /// LibraryItem (abstract) ← Book ← Audiobook, and Tag ↔ items.
    static let library: [Entity] = [
        Entity("LibraryItem", abstract: true, properties: [
            .attribute("title", .string),
            .attribute("added", .date, optional: true),
            .toMany("tags", "Tag", inverse: "items"),
        ]),
        Entity("Book", parent: "LibraryItem", properties: [
            .attribute("pages", .int32, default: 0),
            .derived("tagCount", .int64, .count("tags")),
        ]),
        Entity("Audiobook", parent: "Book", properties: [.attribute("minutes", .double, optional: true)]),
        Entity("Tag", properties: [
            .attribute("name", .string),
            .toMany("items", "LibraryItem", inverse: "tags"),
            .toOne("parent", "Tag", inverse: nil),
        ]),
    ]

    static func librarySource() throws -> String {
        ModelSwiftSource.render(
            classesOf: library, representedClassNames: ["LibraryItem": "Shelf.Item", "Tag": "NSManagedObject"],
            modelName: try SwiftModelName("LibraryModel"))
    }

    @Test func theModelIsDeclaredInAPublicEnumWithEachEntitysClass() throws {
        let source = try Self.librarySource()
        #expect(source.hasPrefix("""
            // LibraryModel, the model, and a class for each of its entities, as `perf-run model import --swift`
            // generates them from the Core Data model: regenerate this file rather than edit it.

            import Foundation
            import ObjectGraph

            /// The model, each entity declared with its class.
            public enum LibraryModel {
                /// The model, to open a `Store` with.
                public static let model = try! Model([
                    Entity("LibraryItem", Item.self, abstract: true, properties: [
                        .attribute("title", .string),
                        .attribute("added", .date, optional: true),
                        .toMany("tags", "Tag", inverse: "items"),
                    ]),
                    Entity("Book", Book.self, parent: "LibraryItem", properties: [
                        .attribute("pages", .int32, default: .integer(0)),
                        .derived("tagCount", .int64, .count("tags")),
                    ]),
                    Entity("Audiobook", Audiobook.self, parent: "Book", properties: [
                        .attribute("minutes", .double, optional: true),
                    ]),
                    Entity("Tag", Tag.self, properties: [
                        .attribute("name", .string),
                        .toMany("items", "LibraryItem", inverse: "tags"),
                        .toOne("parent", "Tag"),
                    ]),
                ])
            }

            /// A class of LibraryModel: it names its entity, and the model key of each of its typed properties'
            /// key paths.
            public protocol LibraryModelObject: EntityNamed, KeyPathNamed {}

            extension LibraryModelObject {
                /// A request for the objects of the class's entity and of its subentities, typed by the class
                /// it is called on (`fetchRequest()` of a class `Post` is a `FetchRequest<Post>`).
                public static func fetchRequest(predicate: ObjectPredicate? = nil, sortKeys: [SortKey] = []) -> FetchRequest<Self> {
                    FetchRequest(predicate: predicate, sortKeys: sortKeys)
                }
            }

            """))
    }

    /// A final class says it has no fault hook (nothing can subclass it or
    /// override one in an extension); a class with subclasses does not (a
    /// subclass written beside it could override one, and the entity asks
    /// its class once).
    @Test func onlyAFinalClassSaysItHasNoFaultHook() throws {
        let source = try Self.librarySource()
        let classes = source.components(separatedBy: "\n/// The objects of the entity ").dropFirst()
        #expect(classes.count == 4)
        for declaration in classes {
            let isFinal = declaration.contains("public final class ")
            let says = declaration.contains("override public class var hasFaultHooks: Bool { false }")
            #expect(says == isFinal, "\(declaration.prefix(80))")
        }
    }

    @Test func aParentEntitysClassIsTheSuperclassOfItsSubentitiesClasses() throws {
        let source = try Self.librarySource()
        #expect(source.contains("""
            /// The objects of the entity `LibraryItem` (abstract: only its subentities' objects can be inserted).
            public class Item: ManagedObject, LibraryModelObject {
                /// The entity's name in the model.
                public class var entityName: String { "LibraryItem" }

                /// The model key of each typed property's key path (with this class as its root, inherited
                /// properties included).
                public class var keyNames: [AnyKeyPath: String] { keyNameTable }
                nonisolated(unsafe) private static let keyNameTable: [AnyKeyPath: String] = [
                    \\Item.title: "title",
                    \\Item.added: "added",
                    \\Item.tags: "tags",
                ]

                /// `title`: string.
                @inlinable public final var title: String {
                    get { attribute("title", at: 0, in: &_title) }
                    set { setAttribute("title", at: 0, to: newValue, in: &_title) }
                }
                @usableFromInline @exclusivity(unchecked) final var _title = AttributeField<String>()

            """))
        #expect(source.contains("""
            /// The objects of the entity `Book`.
            public class Book: Item {
                /// The entity's name in the model.
                override public class var entityName: String { "Book" }

                /// The model key of each typed property's key path (with this class as its root, inherited
                /// properties included).
                override public class var keyNames: [AnyKeyPath: String] { keyNameTable }
                nonisolated(unsafe) private static let keyNameTable: [AnyKeyPath: String] = [
                    \\Book.title: "title",
                    \\Book.added: "added",
                    \\Book.tags: "tags",
                    \\Book.pages: "pages",
                    \\Book.tagCount: "tagCount",
                ]

                /// `pages`: int32.
                @inlinable public final var pages: Int32 {
                    get { attribute("pages", at: 2, in: &_pages) }
                    set { setAttribute("pages", at: 2, to: newValue, in: &_pages) }
                }
                @usableFromInline @exclusivity(unchecked) final var _pages = AttributeField<Int32>()

                /// `tagCount`: int64, derived (`tags.@count`): read only.
                @inlinable public final var tagCount: Int64? { attribute("tagCount", at: 3, in: &_tagCount) }
                @usableFromInline @exclusivity(unchecked) final var _tagCount = AttributeField<Int64?>()
            }

            /// The objects of the entity `Audiobook`.
            public final class Audiobook: Book {
                /// The entity's name in the model.
                override public class var entityName: String { "Audiobook" }

            """))
        #expect(source.contains("""
                    \\Audiobook.tagCount: "tagCount",
                    \\Audiobook.minutes: "minutes",
                ]

                /// No fault hook (a final class whose source overrides none): refreshes skip the calls.
                override public class var hasFaultHooks: Bool { false }

                /// `minutes`: double, optional.
                @inlinable public var minutes: Double? {
                    get { attribute("minutes", at: 4, in: &_minutes) }
                    set { setAttribute("minutes", at: 4, to: newValue, in: &_minutes) }
                }
                @usableFromInline @exclusivity(unchecked) final var _minutes = AttributeField<Double?>()
            """))
    }

    @Test func relationshipsAreTypedByTheirDestinationsClasses() throws {
        let source = try Self.librarySource()
        #expect(source.contains("""
                /// `tags`: to-many Tag, inverse `items`, in primary-key order.
                public final var tags: [Tag] { self[toMany: "tags"] }

                /// Adds `value` to `tags`; its inverse follows.
                public final func addToTags(_ value: Tag, file: String = #fileID, line: Int = #line) {
                    do {
                        try addObject(value, forKey: "tags", file: file, line: line)
                    } catch {
                        Swift.fatalError("Faultline: \\(objectID.entityName).tags of \\(objectID): \\(error)")
                    }
                }

                /// Removes `value` from `tags`; its inverse follows.
                public final func removeFromTags(_ value: Tag, file: String = #fileID, line: Int = #line) {
                    do {
                        try removeObject(value, forKey: "tags", file: file, line: line)
                    } catch {
                        Swift.fatalError("Faultline: \\(objectID.entityName).tags of \\(objectID): \\(error)")
                    }
                }
            """))
        #expect(source.contains("""
            /// The objects of the entity `Tag`.
            public final class Tag: ManagedObject, LibraryModelObject {
            """))
        #expect(source.contains("""
                /// `items`: to-many LibraryItem, inverse `tags`, in primary-key order.
                public var items: [Item] { self[toMany: "items"] }
            """))
        #expect(source.contains("""
                /// `parent`: to-one Tag, no inverse.
                public var parent: Tag? {
                    get { self[toOne: "parent"] }
                    set { self[toOne: "parent"] = newValue }
                }
            }

            """))
        #expect(source.hasSuffix("}\n"))
    }

    /// Foundation is imported when a property's type needs it, even with
    /// no default that does.
    @Test func foundationIsImportedForDateDataAndUUIDProperties() throws {
        let name = try SwiftModelName("Shop")
        for type in AttributeType.allCases {
            let source = ModelSwiftSource.render(classesOf: [Entity("Thing", properties: [.attribute("value", type)])], modelName: name)
            #expect(source.contains("\nimport Foundation\n") == [.date, .data, .uuid].contains(type), "\(type)")
            #expect(source.contains("    @inlinable public var value: \(ModelSwiftSource.swiftType(type)) {\n"), "\(type)")
        }
    }

    /// A name that is not an identifier cannot end a comment's line or a
    /// string literal: it is written escaped.
    @Test func namesInCommentsAndMessagesAreEscaped() throws {
        let source = ModelSwiftSource.render(
            classesOf: [Entity("Evil\nEntity", properties: [.toMany("a\"b\\c", "Evil\nEntity", inverse: nil)])], modelName: try SwiftModelName("Shop"))
        #expect(source.contains("/// The objects of the entity `Evil\\nEntity`.\n"))
        #expect(source.contains("Entity(\"Evil\\nEntity\", EntityObject.self, properties: ["))
        #expect(source.contains("Swift.fatalError(\"Faultline: \\(objectID.entityName).a\\\"b\\\\c of \\(objectID): \\(error)\")"))
        #expect(source.contains("self[toMany: \"a\\\"b\\\\c\"]"))
        #expect(!source.contains("Evil\nEntity"))
    }

    /// `render(_:name:)` still declares the model alone, as before.
    @Test func theModelAloneIsDeclaredAsBefore() {
        let source = ModelSwiftSource.render([
            Entity("Item", abstract: true, properties: [.attribute("title", .string, default: "x")]),
            Entity("Post", parent: "Item", properties: [.toMany("tags", "Tag", inverse: "posts", deleteRule: .cascade)], uniquenessConstraints: [["title"]]),
            Entity("Tag", properties: [.toMany("posts", "Post", inverse: "tags")]),
        ], name: "shop")
        #expect(source == """
            import ObjectGraph

            let shop = try! Model([
                Entity("Item", abstract: true, properties: [
                    .attribute("title", .string, default: .string("x")),
                ]),
                Entity("Post", parent: "Item", properties: [
                    .toMany("tags", "Tag", inverse: "posts", deleteRule: .cascade),
                ], uniquenessConstraints: [["title"]]),
                Entity("Tag", properties: [
                    .toMany("posts", "Post", inverse: "tags"),
                ]),
            ])

            """)
    }
}
