/// The inheritance of a model's entities: each one's parent, checked (it
/// exists, it is not the entity itself, no cycle), and an order in which
/// every parent comes before its subentities.
struct EntityHierarchy: Sendable {
    /// Each entity's parent (by position), nil for a root.
    let parents: [Int?]
    /// Each entity's inheritance root (itself for a root).
    let roots: [Int]
    /// Each entity's direct subentities, in declaration order.
    let children: [[Int]]
    /// Every entity, parents before their subentities, otherwise in
    /// declaration order.
    let order: [Int]
    /// Each entity's position in ``order``.
    private let orderPositions: [Int]

    init(_ declarations: [Entity], positions: [String: Int]) throws(ObjectGraphError) {
        var parents: [Int?] = []
        for declaration in declarations {
            guard let name = declaration.parent else {
                parents.append(nil)
                continue
            }
            guard name != declaration.name else {
                throw .invalidModel("entity \(declaration.name) names itself as its parent entity")
            }
            guard let parent = positions[name] else {
                throw .invalidModel("entity \(declaration.name): parent entity \(name) does not exist")
            }
            parents.append(parent)
        }
        var order: [Int] = []
        var state = [UInt8](repeating: 0, count: declarations.count)  // 0 unseen, 1 on the path, 2 placed
        for start in declarations.indices where state[start] == 0 {
            var path: [Int] = []
            var current: Int? = start
            while let entity = current, state[entity] == 0 {
                state[entity] = 1
                path.append(entity)
                current = parents[entity]
            }
            if let entity = current, state[entity] == 1 {
                let cycle = path[path.firstIndex(of: entity)!...].map { declarations[$0].name } + [declarations[entity].name]
                throw .invalidModel("entities \(cycle.joined(separator: " → ")) inherit from each other: parent entities must not form a cycle")
            }
            for entity in path.reversed() {
                state[entity] = 2
                order.append(entity)
            }
        }
        var roots = Array(declarations.indices)
        var children = [[Int]](repeating: [], count: declarations.count)
        for entity in order {
            if let parent = parents[entity] {
                roots[entity] = roots[parent]
                children[parent].append(entity)
            }
        }
        for index in children.indices { children[index].sort() }
        self.parents = parents
        self.roots = roots
        self.children = children
        self.order = order
        var orderPositions = [Int](repeating: 0, count: declarations.count)
        for (position, entity) in order.enumerated() { orderPositions[entity] = position }
        self.orderPositions = orderPositions
    }

    /// Whether `entity` is `ancestor` or one of its subentities.
    func isKind(_ entity: Int, of ancestor: Int) -> Bool {
        var current: Int? = entity
        while let step = current {
            if step == ancestor { return true }
            current = parents[step]
        }
        return false
    }

    /// `entity`'s parent, grandparent, … up to its root.
    func ancestors(of entity: Int) -> [Int] {
        var result: [Int] = []
        var current = parents[entity]
        while let step = current {
            result.append(step)
            current = parents[step]
        }
        return result
    }

    /// `entity` and every entity below it, in ``order``: found through
    /// ``children``, so its cost is the family's size, not the model's.
    func family(of entity: Int) -> [Int] {
        var members = [entity]
        var next = 0
        while next < members.count {
            members += children[members[next]]
            next += 1
        }
        // Already in order for a chain of single subentities: no sort.
        if zip(members, members.dropFirst()).allSatisfy({ orderPositions[$0] < orderPositions[$1] }) { return members }
        return members.sorted { orderPositions[$0] < orderPositions[$1] }
    }

    /// Whether the table of `entity`'s root holds more than one entity (and
    /// so an entity column).
    func sharesTable(_ entity: Int) -> Bool {
        !children[roots[entity]].isEmpty
    }
}
