import Foundation

/// Fetch requests written with Foundation's `#Predicate` and
/// `SortDescriptor`, for a ``KeyPathNamed`` class:
///
/// ```swift
/// FetchRequest<Post>(predicate: #Predicate { $0.likes > 10 && $0.author?.name == name },
///                    sortBy: [SortDescriptor(\.title)])
/// ```
///
/// The predicate becomes the ``ObjectPredicate`` its format-string twin
/// parses to (`likes > 10 AND author.name == "Ada"`) and the descriptors
/// ``SortKey``s, when the request is made: the fetch runs the same SQL with
/// the same bound values, and events, the SQL log and `explain` print the
/// twin. A form that has no translation is not dropped: the request keeps
/// the error (``translationError``) and every fetch of it throws it.
extension FetchRequest where Object: KeyPathNamed {
    /// A request for `entityName` with a typed predicate and sort descriptors.
    public init(entityName: String, predicate: Predicate<Object>, sortBy: [SortDescriptor<Object>] = []) {
        self.init(entityName: entityName)
        setTranslation(of: predicate)
        setTranslation(of: sortBy)
    }

    private mutating func setTranslation(of predicate: Predicate<Object>) {
        do {
            self.predicate = try ObjectPredicate(predicate)
        } catch {
            self.predicate = nil
            predicateTranslationError = error
        }
    }

    private mutating func setTranslation(of descriptors: [SortDescriptor<Object>]) {
        do {
            var keys: [SortKey] = []
            for descriptor in descriptors { keys.append(try SortKey(descriptor)) }
            sortKeys = keys
        } catch {
            sortKeys = []
            sortTranslationError = error
        }
    }
}

extension FetchRequest where Object: KeyPathNamed & EntityNamed {
    /// A request for the class's entity with a typed predicate
    /// (`#Predicate`) and sort descriptors.
    public init(predicate: Predicate<Object>, sortBy: [SortDescriptor<Object>] = []) {
        self.init(entityName: Object.entityName, predicate: predicate, sortBy: sortBy)
    }

    /// A request for every object of the class's entity, in the order of
    /// typed sort descriptors.
    public init(sortBy: [SortDescriptor<Object>]) {
        self.init(entityName: Object.entityName)
        setTranslation(of: sortBy)
    }
}
