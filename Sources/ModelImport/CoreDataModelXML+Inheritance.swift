extension CoreDataModelXML {
    /// The ancestors of `entity`, root first: its parent's parent … its
    /// parent. The chain stops at a name that is not an entity or that
    /// comes back (which ``read(_:)`` refuses; a model built by hand may
    /// still hold one).
    public func ancestors(of entity: Entity) -> [Entity] {
        var chain: [Entity] = []
        var seen: Set<String> = [entity.name]
        var current = entity.parent
        while let name = current, let parent = self.entity(named: name), seen.insert(name).inserted {
            chain.insert(parent, at: 0)
            current = parent.parent
        }
        return chain
    }

    /// The entities whose parent is `entity`, in the file's order.
    public func subentities(of entity: Entity) -> [Entity] {
        entities.filter { $0.parent == entity.name }
    }

    /// Refuses a `parentEntity` that Core Data would refuse: one that names
    /// no entity of the model, the entity itself, or an entity whose own
    /// chain of parents comes back to it. The first such entity in the
    /// file's order is named, with its line and column.
    func checkInheritance(path: String) throws {
        let names = Set(entities.map(\.name))
        for entity in entities {
            guard let parent = entity.parent else { continue }
            let place = "\(path):\(entity.line):\(entity.column): entity \(entity.name)"
            if parent.isEmpty {
                throw ModelImportError("\(place): parentEntity is empty")
            }
            if parent == entity.name {
                throw ModelImportError("\(place): parentEntity is \(parent) itself")
            }
            guard names.contains(parent) else {
                throw ModelImportError("\(place): parentEntity \(parent) is not an entity of this model")
            }
            var chain = [entity.name]
            var current: String? = parent
            while let name = current, !chain.contains(name) {
                chain.append(name)
                current = self.entity(named: name)?.parent
            }
            if let name = current {
                let cycle = (chain[chain.firstIndex(of: name)!...] + [name]).joined(separator: " → ")
                throw ModelImportError(
                    name == entity.name
                        ? "\(place): parentEntity makes a cycle: \(cycle)"
                        : "\(place): parentEntity \(parent) leads into a cycle: \(cycle)")
            }
        }
    }
}
