extension CoreDataModelXML {
    /// Each table Core Data keeps the model's entities in, and the entity
    /// it is named for: Core Data keeps entity `Post` in table `ZPOST`, and
    /// a subentity in its root entity's table (`ZPOST` for `LinkPost`
    /// inheriting from `Post`). A Core Data SQL debug log names tables;
    /// `perf-run log --model` names entities with this map.
    public var entitiesByTable: [String: String] {
        let parents = Dictionary(entities.map { ($0.name, $0.parent) }, uniquingKeysWith: { first, _ in first })
        var tables: [String: String] = [:]
        for entity in entities {
            var root = entity.name
            var seen: Set<String> = [root]
            while let parent = parents[root] ?? nil, seen.insert(parent).inserted { root = parent }
            tables["Z" + root.uppercased()] = root
        }
        return tables
    }
}
