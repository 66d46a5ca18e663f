import ObjectGraph

/// The recipes app's store: its model (RecipesModel.swift, imported from
/// Apple's iPhoneCoreDataRecipes model with two fetch indexes added, see
/// Model/README.md) and the data set its screens are tried on.
public enum Recipes {
    /// The model the app ships: `Recipe.name` and `Ingredient.name` indexed.
    public static var model: Model { RecipesModel.model }

    /// The model a store is opened with when `mistake` is seeded: the
    /// shipped one, or, for a missing index, the shipped one without it.
    public static func model(for mistake: Mistake?) -> Model {
        switch mistake {
        case .unindexedFilter: withoutIndex(on: "name", of: Ingredient.entityName)
        case .sortWithoutIndex: withoutIndex(on: "name", of: Recipe.entityName)
        default: model
        }
    }

    /// The shipped model without the fetch index on `entity.attribute`.
    static func withoutIndex(on attribute: String, of entity: String) -> Model {
        let declarations = model.entities.map { description in
            Entity(
                description.name, description.objectType,
                properties: description.attributes.map { a in
                    .attribute(a.name, a.type, optional: a.isOptional, default: a.defaultValue,
                               indexed: a.isIndexed && !(description.name == entity && a.name == attribute))
                } + description.relationships.map { .relationship($0) },
                uniquenessConstraints: description.uniquenessConstraints)
        }
        return try! Model(declarations)
    }

    /// The recipe types, as the sample's type list has them.
    public static let typeNames = [
        "Appetizer", "Bread", "Breakfast", "Dessert", "Drink", "Main Course", "Pasta", "Salad", "Sauce", "Side Dish", "Snack", "Soup",
    ]
    /// What the recipes' names start with (a search for one finds every tenth).
    public static let flavors = ["Lemon", "Garlic", "Honey", "Smoky", "Herb", "Ginger", "Maple", "Chili", "Basil", "Saffron"]
    /// The ingredients the recipes use, four each.
    public static let ingredientNames = [
        "Flour", "Sugar", "Butter", "Eggs", "Milk", "Salt", "Pepper", "Olive Oil", "Garlic", "Onion",
        "Tomato", "Basil", "Lemon", "Honey", "Ginger", "Rice", "Pasta", "Cheese", "Cream", "Chicken",
        "Beef", "Carrot", "Celery", "Potato", "Spinach", "Mushroom", "Thyme", "Rosemary", "Paprika", "Cumin",
        "Yogurt", "Oats", "Walnuts", "Almonds", "Chocolate", "Vanilla", "Cinnamon", "Apple", "Pear", "Lime",
    ]

    /// The name of the seeded recipe `number` (0 to 499): its flavor, its type, its number.
    public static func name(ofRecipe number: Int) -> String {
        "\(flavors[number % flavors.count]) \(typeNames[number % typeNames.count]) \(number)"
    }

    /// `recipes` recipes (500 by default), each with a type (of 12), an
    /// image and four ingredients (of 40 names): one save.
    public static func seed(_ store: Store, recipes: Int = 500) throws {
        let context = ObjectContext(store: store, name: "seed")
        try context.perform {
            let types = try typeNames.map { name in
                let type = try context.insert(RecipeType.self)
                type.name = name
                return type
            }
            for number in 0..<recipes {
                let recipe = try context.insert(Recipe.self)
                let type = types[number % types.count]
                recipe.name = name(ofRecipe: number)
                recipe.overview = "A \(flavors[number % flavors.count].lowercased()) \(type.name?.lowercased() ?? "dish")."
                recipe.prepTime = "\(10 + number % 6 * 5) minutes"
                recipe.instructions = "Mix, cook and serve."
                recipe.type = type
                let image = try context.insert(Image.self)
                image.recipe = recipe
                for order in 0..<4 {
                    let ingredient = try context.insert(Ingredient.self)
                    ingredient.name = ingredientNames[(number * 3 + order * 7) % ingredientNames.count]
                    ingredient.amount = "\(order + 1) cups"
                    ingredient.displayOrder = Int16(order)
                    ingredient.recipe = recipe
                }
            }
            try context.save()
        }
    }
}
