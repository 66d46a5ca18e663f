/// How many sources of each entity a prefetch step loaded: a step's
/// sources are of one entity, or of a few in a hierarchy.
struct PrefetchTally {
    private(set) var counts: [(entity: EntityDescription, count: Int)] = []

    mutating func add(_ entity: EntityDescription) {
        if let last = counts.indices.last, counts[last].entity === entity {
            counts[last].count += 1
        } else if let index = counts.firstIndex(where: { $0.entity === entity }) {
            counts[index].count += 1
        } else {
            counts.append((entity, 1))
        }
    }
}
