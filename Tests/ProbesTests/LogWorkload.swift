import ObjectGraph
import Probes

/// The fixed workload of the SQL debug log golden files. Keep its lines
/// where they are: call sites are part of the log.
enum LogWorkload {
    static func run(_ store: Store) throws {
        let context = ObjectContext(store: store, name: "main")
        try context.perform {
            var request = FetchRequest<ManagedObject>(entityName: "Selfie", predicate: Key("rating") < 3, sortKeys: [SortKey("name")])
            request.relationshipKeyPathsForPrefetching = ["people"]
            let selfies = Array(try context.fetch(request))
            _ = try selfies[0].value(forKey: "name")
            let networks = try selfies[0].objects(forKey: "networks")
            _ = try networks[0].value(forKey: "name")
            try selfies[1].setValue(.integer(7), forKey: "rating")
            try context.save()
            context.refresh(selfies[1], mergeChanges: false)
            _ = try selfies[1].value(forKey: "rating")
            _ = try context.count(for: FetchRequest<ManagedObject>(entityName: "Person"))
        }
    }
}
