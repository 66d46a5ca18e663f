import Foundation
import ObjectGraph

// The app's screens, as a team writes them: typed requests and
// `#Predicate`, each screen an async function whose work runs in `try await
// context.perform { … }` and returns values, never objects. Each takes the
// mistake seeded in this run (nil: none) and changes one thing for it.
//
// A line the diagnosis names for a mistake carries a `// mistake:` comment
// with the mistake's name: the tests find the expected sites by it (and the
// search's scan, `searchScan`, and the favorites' lookup by name, which
// scans when `Recipe.name` has no index, `favoritesByName`).

/// A row of the recipe list and of the cards: the recipe, its type and its
/// ingredients in the order the recipe lists them.
public struct RecipeRow: Sendable, Equatable {
    public var name: String
    public var category: String
    public var ingredients: [String]

    init(_ recipe: Recipe) {
        name = recipe.name ?? ""
        category = recipe.type?.name ?? ""
        ingredients = recipe.ingredients.sorted { ($0.displayOrder ?? 0) < ($1.displayOrder ?? 0) }.map { $0.name ?? "" }
    }
}

/// The requests the list and the cards share.
enum RecipeRequests {
    /// Recipes with their ingredients, which both screens show.
    static func withIngredients(_ mistake: Mistake?) throws -> FetchRequest<Recipe> {
        var request = FetchRequest<Recipe>(sortBy: [SortDescriptor(\.name)])
        if mistake != .toManyNPlusOne { try request.prefetch(\.ingredients) }
        return request
    }
}

/// The recipe list: the first 100 recipes by name, each with its type and ingredients.
public enum RecipeList {
    public static func rows(in context: ObjectContext, _ mistake: Mistake? = nil) async throws -> [RecipeRow] {
        try await context.perform {
            var request = try RecipeRequests.withIngredients(mistake)
            request.fetchLimit = 100
            if mistake != .toOneNPlusOne { try request.prefetch(\.type) }
            if mistake == .unusedToOnePrefetch { try request.prefetch(\.image) }
            let recipes = try context.fetch(request)  // mistake: toOneNPlusOne toManyNPlusOne unusedToOnePrefetch sortWithoutIndex
            return recipes.map(RecipeRow.init)
        }
    }
}

/// The cards of a type's first five recipes, with their ingredients.
public enum RecipeCards {
    public static func cards(of typeName: String, in context: ObjectContext, _ mistake: Mistake? = nil) async throws -> [RecipeRow] {
        try await context.perform {
            let name: String? = typeName
            guard let type = try context.fetch(FetchRequest<RecipeType>(predicate: #Predicate { $0.name == name })).first else { return [] }
            var request = try RecipeRequests.withIngredients(mistake)
            request.sortKeys = []
            request.predicate = Key("type") == type.objectID
            request.fetchLimit = 5
            let recipes = try context.fetch(request)  // mistake: toManyNPlusOne
            return recipes.map { recipe in
                var row = RecipeRow(recipe)
                row.category = typeName
                return row
            }
        }
    }
}

/// The search box: the names of the recipes whose name contains a term, in any case.
public enum RecipeSearch {
    public static func names(containing term: String, in context: ObjectContext, _ mistake: Mistake? = nil) async throws -> [String] {
        try await context.perform {
            var request = FetchRequest<Recipe>(predicate: #Predicate { $0.name?.localizedStandardContains(term) ?? false })
            if mistake == .unusedToManyPrefetch { try request.prefetch(\.ingredients) }
            let recipes = try context.fetch(request)  // mistake: unusedToManyPrefetch searchScan
            return recipes.map { $0.name ?? "" }
        }
    }
}

/// The shopping screen: the recipes that use an ingredient.
public enum Shopping {
    public static func recipes(using ingredientName: String, in context: ObjectContext, _ mistake: Mistake? = nil) async throws -> [String] {
        try await context.perform {
            let name: String? = ingredientName
            var request = FetchRequest<Ingredient>(predicate: #Predicate { $0.name == name })
            try request.prefetch(\.recipe)
            let ingredients = try context.fetch(request)  // mistake: unindexedFilter
            return ingredients.map { $0.recipe?.name ?? "" }.sorted()
        }
    }
}

/// The tab's count badge: how many recipes there are.
public enum CountBadge {
    public static func count(in context: ObjectContext, _ mistake: Mistake? = nil) async throws -> Int {
        try await context.perform {
            if mistake == .countByFetch {
                return try context.fetch(FetchRequest<Recipe>()).count  // mistake: countByFetch
            }
            return try context.count(for: FetchRequest<Recipe>())
        }
    }
}

/// The favorites screen: the recipes of a list of names the user keeps.
public enum Favorites {
    public static func names(_ favorites: [String], in context: ObjectContext, _ mistake: Mistake? = nil) async throws -> [String] {
        try await context.perform {
            if mistake == .fetchByKeyInLoop {
                return try favorites.compactMap { name -> String? in
                    let key: String? = name
                    return try context.fetch(FetchRequest<Recipe>(predicate: #Predicate { $0.name == key })).first?.name  // mistake: fetchByKeyInLoop
                }
            }
            let keys: [String?] = favorites
            return try context.fetch(FetchRequest<Recipe>(predicate: #Predicate { keys.contains($0.name) })).compactMap(\.name)  // mistake: favoritesByName
        }
    }
}

/// The history screen: the recipes last viewed, kept by their IDs (what
/// crosses from one context to another).
public enum History {
    /// The IDs of the ten recipes last viewed (here: the first ten by name).
    public static func lastViewed(in context: ObjectContext) async throws -> [ObjectID] {
        try await context.perform {
            var request = FetchRequest<Recipe>(sortBy: [SortDescriptor(\.name)])
            request.fetchLimit = 10
            return try context.fetchObjectIDs(request)  // mistake: sortWithoutIndex
        }
    }

    public static func names(_ viewed: [ObjectID], in context: ObjectContext, _ mistake: Mistake? = nil) async throws -> [String] {
        try await context.perform {
            if mistake == .objectPerIDInLoop {
                return try viewed.map { id in try (context.existingObject(with: id) as? Recipe)?.name ?? "" }  // mistake: objectPerIDInLoop
            }
            // One fetch of the objects of those IDs (SELF IN %@).
            let recipes = try context.fetch(FetchRequest<Recipe>(predicate: Key.object.isIn(viewed)))
            let names = Dictionary(uniqueKeysWithValues: recipes.map { ($0.objectID, $0.name ?? "") })
            return viewed.map { names[$0] ?? "" }
        }
    }
}

/// The browser: every recipe by name, a screen of 20 shown.
public enum Browser {
    public static func firstScreen(in context: ObjectContext, _ mistake: Mistake? = nil) async throws -> [String] {
        try await context.perform {
            var request = FetchRequest<Recipe>(sortBy: [SortDescriptor(\.name)])
            if mistake != .fetchWithoutBatchSize { request.fetchBatchSize = 20 }
            let recipes = try context.fetch(request)  // mistake: fetchWithoutBatchSize sortWithoutIndex
            return recipes.prefix(20).map { $0.name ?? "" }
        }
    }
}

/// A recipe to import: its name, its type's name, its ingredients.
public struct RecipeDraft: Sendable {
    public var name: String
    public var typeName: String
    public var ingredients: [String]

    public init(name: String, typeName: String, ingredients: [String]) {
        self.name = name
        self.typeName = typeName
        self.ingredients = ingredients
    }
}

/// The import: new recipes, each given its type by name.
public enum RecipeImport {
    public static func add(_ drafts: [RecipeDraft], in context: ObjectContext, _ mistake: Mistake? = nil) async throws -> Int {
        try await context.perform {
            var types: [String: RecipeType] = [:]
            if mistake != .repeatedFetch { types = try byName(context.fetch(FetchRequest<RecipeType>())) }
            for draft in drafts {
                if mistake == .repeatedFetch { types = try byName(context.fetch(FetchRequest<RecipeType>())) }  // mistake: repeatedFetch
                let recipe = try context.insert(Recipe.self)
                recipe.name = draft.name
                recipe.type = types[draft.typeName]
                for (order, name) in draft.ingredients.enumerated() {
                    let ingredient = try context.insert(Ingredient.self)
                    ingredient.name = name
                    ingredient.displayOrder = Int16(order)
                    ingredient.recipe = recipe
                }
                if mistake == .saveInLoop { try context.save() }  // mistake: saveInLoop
            }
            if mistake != .saveInLoop { try context.save() }
            return drafts.count
        }
    }

    static func byName(_ types: some Sequence<RecipeType>) -> [String: RecipeType] {
        Dictionary(types.map { ($0.name ?? "", $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// The type menu: each type with the number of its recipes.
public enum TypeMenu {
    public struct Entry: Sendable, Equatable {
        public var name: String
        public var recipes: Int
    }

    public static func entries(in context: ObjectContext, _ mistake: Mistake? = nil) async throws -> [Entry] {
        try await context.perform {
            let types = try context.fetch(FetchRequest<RecipeType>(sortBy: [SortDescriptor(\.name)]))  // mistake: countThroughToMany
            if mistake == .countThroughToMany {
                return types.map { Entry(name: $0.name ?? "", recipes: $0.recipes.count) }
            }
            // The type of every recipe, as values: one query, counted here.
            var request = FetchRequest<Recipe>()
            request.propertiesToFetch = ["type.name"]
            var counts: [String: Int] = [:]
            for row in try context.fetchDictionaries(request) {
                if case .string(let name) = row["type.name"] { counts[name, default: 0] += 1 }
            }
            return types.map { Entry(name: $0.name ?? "", recipes: counts[$0.name ?? "", default: 0]) }
        }
    }
}

/// A user's way through the app: every screen once, the import last (it
/// adds recipes). Each screen works in a context of its own, released when
/// it returns, as a view controller's would be.
public enum Tour {
    /// What the screens showed: the same whatever mistake is seeded (a
    /// mistake changes the work, never the result).
    public struct Shown: Sendable, Equatable {
        public var list: [RecipeRow]
        public var cards: [RecipeRow]
        public var found: [String]
        public var shopping: [String]
        public var badge: Int
        public var favorites: [String]
        public var history: [String]
        public var browser: [String]
        public var menu: [TypeMenu.Entry]
        public var imported: Int
    }

    /// The user's favorites: ten recipes by name.
    public static let favorites = (0..<10).map { Recipes.name(ofRecipe: $0 * 37) }

    /// The recipes the import adds: 20, a type and three ingredients each.
    public static let drafts = (0..<20).map { number in
        RecipeDraft(
            name: "Imported \(number)", typeName: Recipes.typeNames[number % Recipes.typeNames.count],
            ingredients: (0..<3).map { Recipes.ingredientNames[(number + $0 * 11) % Recipes.ingredientNames.count] })
    }

    /// Visits every screen with `mistake` seeded.
    public static func visit(_ store: Store, _ mistake: Mistake? = nil) async throws -> Shown {
        /// A screen in a context of its own, gone when the screen returns.
        func screen<T: Sendable>(_ name: String, _ body: (ObjectContext) async throws -> T) async throws -> T {
            let context = ObjectContext(store: store, name: name)
            let shown = try await body(context)
            // `try await perform` resumes the screen as soon as its work is
            // done, while the queue still holds the context a moment: once
            // the queue is idle, the context goes here, before the next
            // screen opens (its rows leave the row cache with it), every time.
            waitUntilIdle(context)
            return shown
        }
        let list = try await screen("list") { try await RecipeList.rows(in: $0, mistake) }
        let cards = try await screen("cards") { try await RecipeCards.cards(of: "Dessert", in: $0, mistake) }
        let found = try await screen("search") { try await RecipeSearch.names(containing: "lemon", in: $0, mistake) }
        let shopping = try await screen("shopping") { try await Shopping.recipes(using: "Basil", in: $0, mistake) }
        let badge = try await screen("badge") { try await CountBadge.count(in: $0, mistake) }
        let favorites = try await screen("favorites") { try await Favorites.names(Self.favorites, in: $0, mistake) }
        let viewed = try await screen("viewed") { try await History.lastViewed(in: $0) }
        let history = try await screen("history") { try await History.names(viewed, in: $0, mistake) }
        let browser = try await screen("browser") { try await Browser.firstScreen(in: $0, mistake) }
        let menu = try await screen("menu") { try await TypeMenu.entries(in: $0, mistake) }
        let imported = try await screen("import") { try await RecipeImport.add(Self.drafts, in: $0, mistake) }
        return Shown(
            list: list, cards: cards, found: found, shopping: shopping, badge: badge, favorites: favorites.sorted(), history: history,
            browser: browser, menu: menu, imported: imported)
    }
}

/// Returns when `context`'s queue has run everything given to it so far.
private func waitUntilIdle(_ context: ObjectContext) {
    context.perform {}
}
