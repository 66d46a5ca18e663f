// RecipesModel, the model, and a class for each of its entities, as `perf-run model import --swift`
// generates them from the Core Data model: regenerate this file rather than edit it.

import ObjectGraph

/// The model, each entity declared with its class.
public enum RecipesModel {
    /// The model, to open a `Store` with.
    public static let model = try! Model([
        Entity("Image", Image.self, properties: [
            .toOne("recipe", "Recipe", inverse: "image"),
        ]),
        Entity("Ingredient", Ingredient.self, properties: [
            .attribute("amount", .string, optional: true),
            .attribute("displayOrder", .int16, optional: true, default: .integer(0)),
            .attribute("name", .string, optional: true, default: .string("Ingredient Name"), indexed: true),
            .toOne("recipe", "Recipe", inverse: "ingredients"),
        ]),
        Entity("Recipe", Recipe.self, properties: [
            .attribute("instructions", .string, optional: true),
            .attribute("name", .string, optional: true, indexed: true),
            .attribute("overview", .string, optional: true),
            .attribute("prepTime", .string, optional: true),
            .toOne("image", "Image", inverse: "recipe", deleteRule: .cascade),
            .toMany("ingredients", "Ingredient", inverse: "recipe", deleteRule: .cascade),
            .toOne("type", "RecipeType", inverse: "recipes"),
        ]),
        Entity("RecipeType", RecipeType.self, properties: [
            .attribute("name", .string, optional: true),
            .toMany("recipes", "Recipe", inverse: "type"),
        ]),
    ])
}

/// A class of RecipesModel: it names its entity, and the model key of each of its typed properties'
/// key paths.
public protocol RecipesModelObject: EntityNamed, KeyPathNamed {}

extension RecipesModelObject {
    /// A request for the objects of the class's entity and of its subentities, typed by the class
    /// it is called on (`fetchRequest()` of a class `Post` is a `FetchRequest<Post>`).
    public static func fetchRequest(predicate: ObjectPredicate? = nil, sortKeys: [SortKey] = []) -> FetchRequest<Self> {
        FetchRequest(predicate: predicate, sortKeys: sortKeys)
    }
}

/// The objects of the entity `Image`.
public final class Image: ManagedObject, RecipesModelObject {
    /// The entity's name in the model.
    public class var entityName: String { "Image" }

    /// The model key of each typed property's key path (with this class as its root, inherited
    /// properties included).
    public class var keyNames: [AnyKeyPath: String] { keyNameTable }
    nonisolated(unsafe) private static let keyNameTable: [AnyKeyPath: String] = [
        \Image.recipe: "recipe",
    ]

    /// No fault hook (a final class whose source overrides none): refreshes skip the calls.
    override public class var hasFaultHooks: Bool { false }

    /// `recipe`: to-one Recipe, inverse `image`.
    public var recipe: Recipe? {
        get { self[toOne: "recipe"] }
        set { self[toOne: "recipe"] = newValue }
    }
}

/// The objects of the entity `Ingredient`.
public final class Ingredient: ManagedObject, RecipesModelObject {
    /// The entity's name in the model.
    public class var entityName: String { "Ingredient" }

    /// The model key of each typed property's key path (with this class as its root, inherited
    /// properties included).
    public class var keyNames: [AnyKeyPath: String] { keyNameTable }
    nonisolated(unsafe) private static let keyNameTable: [AnyKeyPath: String] = [
        \Ingredient.amount: "amount",
        \Ingredient.displayOrder: "displayOrder",
        \Ingredient.name: "name",
        \Ingredient.recipe: "recipe",
    ]

    /// No fault hook (a final class whose source overrides none): refreshes skip the calls.
    override public class var hasFaultHooks: Bool { false }

    /// `amount`: string, optional.
    @inlinable public var amount: String? {
        get { attribute("amount", at: 0, in: &_amount) }
        set { setAttribute("amount", at: 0, to: newValue, in: &_amount) }
    }
    @usableFromInline @exclusivity(unchecked) final var _amount = AttributeField<String?>()

    /// `displayOrder`: int16, optional.
    @inlinable public var displayOrder: Int16? {
        get { attribute("displayOrder", at: 1, in: &_displayOrder) }
        set { setAttribute("displayOrder", at: 1, to: newValue, in: &_displayOrder) }
    }
    @usableFromInline @exclusivity(unchecked) final var _displayOrder = AttributeField<Int16?>()

    /// `name`: string, optional.
    @inlinable public var name: String? {
        get { attribute("name", at: 2, in: &_name) }
        set { setAttribute("name", at: 2, to: newValue, in: &_name) }
    }
    @usableFromInline @exclusivity(unchecked) final var _name = AttributeField<String?>()

    /// `recipe`: to-one Recipe, inverse `ingredients`.
    public var recipe: Recipe? {
        get { self[toOne: "recipe"] }
        set { self[toOne: "recipe"] = newValue }
    }
}

/// The objects of the entity `Recipe`.
public final class Recipe: ManagedObject, RecipesModelObject {
    /// The entity's name in the model.
    public class var entityName: String { "Recipe" }

    /// The model key of each typed property's key path (with this class as its root, inherited
    /// properties included).
    public class var keyNames: [AnyKeyPath: String] { keyNameTable }
    nonisolated(unsafe) private static let keyNameTable: [AnyKeyPath: String] = [
        \Recipe.instructions: "instructions",
        \Recipe.name: "name",
        \Recipe.overview: "overview",
        \Recipe.prepTime: "prepTime",
        \Recipe.image: "image",
        \Recipe.ingredients: "ingredients",
        \Recipe.type: "type",
    ]

    /// No fault hook (a final class whose source overrides none): refreshes skip the calls.
    override public class var hasFaultHooks: Bool { false }

    /// `instructions`: string, optional.
    @inlinable public var instructions: String? {
        get { attribute("instructions", at: 0, in: &_instructions) }
        set { setAttribute("instructions", at: 0, to: newValue, in: &_instructions) }
    }
    @usableFromInline @exclusivity(unchecked) final var _instructions = AttributeField<String?>()

    /// `name`: string, optional.
    @inlinable public var name: String? {
        get { attribute("name", at: 1, in: &_name) }
        set { setAttribute("name", at: 1, to: newValue, in: &_name) }
    }
    @usableFromInline @exclusivity(unchecked) final var _name = AttributeField<String?>()

    /// `overview`: string, optional.
    @inlinable public var overview: String? {
        get { attribute("overview", at: 2, in: &_overview) }
        set { setAttribute("overview", at: 2, to: newValue, in: &_overview) }
    }
    @usableFromInline @exclusivity(unchecked) final var _overview = AttributeField<String?>()

    /// `prepTime`: string, optional.
    @inlinable public var prepTime: String? {
        get { attribute("prepTime", at: 3, in: &_prepTime) }
        set { setAttribute("prepTime", at: 3, to: newValue, in: &_prepTime) }
    }
    @usableFromInline @exclusivity(unchecked) final var _prepTime = AttributeField<String?>()

    /// `image`: to-one Image, inverse `recipe`.
    public var image: Image? {
        get { self[toOne: "image"] }
        set { self[toOne: "image"] = newValue }
    }

    /// `ingredients`: to-many Ingredient, inverse `recipe`, in primary-key order.
    public var ingredients: [Ingredient] { self[toMany: "ingredients"] }

    /// Adds `value` to `ingredients`; its inverse follows.
    public func addToIngredients(_ value: Ingredient, file: String = #fileID, line: Int = #line) {
        do {
            try addObject(value, forKey: "ingredients", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).ingredients of \(objectID): \(error)")
        }
    }

    /// Removes `value` from `ingredients`; its inverse follows.
    public func removeFromIngredients(_ value: Ingredient, file: String = #fileID, line: Int = #line) {
        do {
            try removeObject(value, forKey: "ingredients", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).ingredients of \(objectID): \(error)")
        }
    }

    /// `type`: to-one RecipeType, inverse `recipes`.
    public var type: RecipeType? {
        get { self[toOne: "type"] }
        set { self[toOne: "type"] = newValue }
    }
}

/// The objects of the entity `RecipeType`.
public final class RecipeType: ManagedObject, RecipesModelObject {
    /// The entity's name in the model.
    public class var entityName: String { "RecipeType" }

    /// The model key of each typed property's key path (with this class as its root, inherited
    /// properties included).
    public class var keyNames: [AnyKeyPath: String] { keyNameTable }
    nonisolated(unsafe) private static let keyNameTable: [AnyKeyPath: String] = [
        \RecipeType.name: "name",
        \RecipeType.recipes: "recipes",
    ]

    /// No fault hook (a final class whose source overrides none): refreshes skip the calls.
    override public class var hasFaultHooks: Bool { false }

    /// `name`: string, optional.
    @inlinable public var name: String? {
        get { attribute("name", at: 0, in: &_name) }
        set { setAttribute("name", at: 0, to: newValue, in: &_name) }
    }
    @usableFromInline @exclusivity(unchecked) final var _name = AttributeField<String?>()

    /// `recipes`: to-many Recipe, inverse `type`, in primary-key order.
    public var recipes: [Recipe] { self[toMany: "recipes"] }

    /// Adds `value` to `recipes`; its inverse follows.
    public func addToRecipes(_ value: Recipe, file: String = #fileID, line: Int = #line) {
        do {
            try addObject(value, forKey: "recipes", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).recipes of \(objectID): \(error)")
        }
    }

    /// Removes `value` from `recipes`; its inverse follows.
    public func removeFromRecipes(_ value: Recipe, file: String = #fileID, line: Int = #line) {
        do {
            try removeObject(value, forKey: "recipes", file: file, line: line)
        } catch {
            Swift.fatalError("Faultline: \(objectID.entityName).recipes of \(objectID): \(error)")
        }
    }
}
