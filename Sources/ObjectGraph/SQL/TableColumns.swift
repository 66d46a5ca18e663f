/// Gives the columns of each table of a model: a property's column is its
/// name, unless another entity of the same inheritance hierarchy (a
/// sibling) took that name, then `name_Entity`. A table shared by a
/// hierarchy also has `ent`, the entity column. Flat models get exactly
/// their properties' names.
struct TableColumns {
    private var used: [Int: Set<String>] = [:]
    private let hierarchy: EntityHierarchy
    private let names: [String]

    init(hierarchy: EntityHierarchy, names: [String]) {
        self.hierarchy = hierarchy
        self.names = names
        for root in Set(hierarchy.roots) {
            used[root] = hierarchy.children[root].isEmpty ? ["pk"] : ["pk", EntitySQL.entityColumn]
        }
    }

    /// A free column for property `name` of `entity`, `suffix` added (`_pk`
    /// for a foreign key).
    mutating func allocate(_ name: String, suffix: String = "", for entity: Int) throws(ObjectGraphError) -> String {
        let root = hierarchy.roots[entity]
        for candidate in [name + suffix, "\(name)_\(names[entity])\(suffix)"] where used[root]!.insert(candidate).inserted {
            return candidate
        }
        throw .invalidModel("\(names[entity]).\(name): table \(names[root]) has no free column for it (\(name)\(suffix) and \(name)_\(names[entity])\(suffix) are taken)")
    }
}
