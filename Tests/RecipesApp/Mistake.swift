/// The common persistence mistakes, each one change to the app's efficient
/// code (or, for a missing index, to its model): the app runs with none
/// (`nil`) or with one of them, to see that each is found where it is.
public enum Mistake: String, CaseIterable, Sendable {
    /// The list reads each recipe's type without prefetching it: a to-one N+1.
    case toOneNPlusOne
    /// The request the list and the cards share forgets the ingredients'
    /// prefetch: a to-many N+1 at each of the two screens.
    case toManyNPlusOne
    /// Favorites fetch each recipe by its name, one request per name.
    case fetchByKeyInLoop
    /// The history screen loads each recipe with `existingObject(with:)`, one by one.
    case objectPerIDInLoop
    /// The badge fetches every recipe and counts the array.
    case countByFetch
    /// The import saves after each recipe.
    case saveInLoop
    /// The list prefetches each recipe's image, which it never shows.
    case unusedToOnePrefetch
    /// The search prefetches the ingredients, which it never shows.
    case unusedToManyPrefetch
    /// The browser fetches all 500 recipes without a batch size to show 20.
    case fetchWithoutBatchSize
    /// The model lacks the fetch index on `Ingredient.name` that the
    /// shopping screen filters on: a full scan of the largest table.
    case unindexedFilter
    /// The model lacks the fetch index on `Recipe.name` that the list is
    /// sorted by: a sort of every recipe for the first 100.
    case sortWithoutIndex
    /// The import fetches the recipe types again for each recipe.
    case repeatedFetch
    /// The type menu counts each type's recipes by loading its `recipes`.
    case countThroughToMany
}
