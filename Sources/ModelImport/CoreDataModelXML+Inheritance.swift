extension CoreDataModelXML {
    /// The ancestors of `entity`, root first: its parent's parent … its
    /// parent. The chain stops at a name that is not an entity or that
    /// comes back (which ``read(_:)`` refuses; a model built by hand may
    /// still hold one).
    ///
    /// Each call builds a look-up of the model's entities (linear in the
    /// model); the import reads a whole model with one ``EntityLookup``.
    public func ancestors(of entity: Entity) -> [Entity] {
        EntityLookup(self).ancestors(of: entity)
    }

    /// The entities whose parent is `entity`, in the file's order.
    public func subentities(of entity: Entity) -> [Entity] {
        entities.filter { $0.parent == entity.name }
    }

    /// Refuses a `parentEntity` that Core Data would refuse: one that names
    /// no entity of the model, the entity itself, or an entity whose own
    /// chain of parents comes back to it. The first such entity in the
    /// file's order is named, with its line and column.
    ///
    /// Linear in the model: each entity's chain is walked until it meets
    /// an entity already known to end at a root, so a chain 1,000 deep
    /// costs 1,000 steps, not 1,000 × 1,000.
    func checkInheritance(path: String) throws {
        let parents = Dictionary(entities.map { ($0.name, $0.parent) }, uniquingKeysWith: { first, _ in first })
        // Names whose chain of parents is known to end without a cycle.
        var endsAtRoot: Set<String> = []
        for entity in entities {
            guard let parent = entity.parent else { continue }
            let place = "\(path):\(entity.line):\(entity.column): entity \(entity.name)"
            if parent.isEmpty {
                throw ModelImportError("\(place): parentEntity is empty")
            }
            if parent == entity.name {
                throw ModelImportError("\(place): parentEntity is \(parent) itself")
            }
            guard parents[parent] != nil else {
                throw ModelImportError("\(place): parentEntity \(parent) is not an entity of this model")
            }
            var chain = [entity.name]
            var onChain: [String: Int] = [entity.name: 0]
            var current: String? = parent
            while let name = current, onChain[name] == nil, !endsAtRoot.contains(name) {
                onChain[name] = chain.count
                chain.append(name)
                current = parents[name] ?? nil
            }
            if let name = current, let start = onChain[name] {
                let cycle = (chain[start...] + [name]).joined(separator: " → ")
                throw ModelImportError(
                    name == entity.name
                        ? "\(place): parentEntity makes a cycle: \(cycle)"
                        : "\(place): parentEntity \(parent) leads into a cycle: \(cycle)")
            }
            endsAtRoot.formUnion(chain)
        }
    }
}

/// The entities of a ``CoreDataModelXML`` by name, with each one's
/// subentities: built once per model (linear in its size) so that reading
/// a whole model looks each name up in constant time.
struct EntityLookup {
    /// Each entity by name, the first one when the file repeats a name.
    let byName: [String: CoreDataModelXML.Entity]
    /// Each entity's direct subentities, by the parent's name, in the file's order.
    let children: [String: [CoreDataModelXML.Entity]]

    init(_ xml: CoreDataModelXML) {
        byName = Dictionary(xml.entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var children: [String: [CoreDataModelXML.Entity]] = [:]
        for entity in xml.entities {
            if let parent = entity.parent { children[parent, default: []].append(entity) }
        }
        self.children = children
    }

    /// The entity named `name`, the first one when the file repeats it.
    func entity(named name: String) -> CoreDataModelXML.Entity? { byName[name] }

    /// The ancestors of `entity`, root first (see ``CoreDataModelXML/ancestors(of:)``).
    func ancestors(of entity: CoreDataModelXML.Entity) -> [CoreDataModelXML.Entity] {
        var chain: [CoreDataModelXML.Entity] = []
        var seen: Set<String> = [entity.name]
        var current = entity.parent
        while let name = current, let parent = byName[name], seen.insert(name).inserted {
            chain.append(parent)
            current = parent.parent
        }
        return chain.reversed()
    }

    /// Every entity below `entity`, each once, parents before their subentities.
    func descendants(of entity: CoreDataModelXML.Entity) -> [CoreDataModelXML.Entity] {
        var result: [CoreDataModelXML.Entity] = []
        var seen: Set<String> = [entity.name]
        var queue = children[entity.name] ?? []
        var next = 0
        while next < queue.count {
            let child = queue[next]
            next += 1
            guard seen.insert(child.name).inserted else { continue }
            result.append(child)
            queue += children[child.name] ?? []
        }
        return result
    }
}
