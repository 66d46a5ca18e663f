import ObjectGraph

/// The loop of the SingleFault, BatchFault and Prefetch scenarios: for each
/// selfie, read its name, then each social network's and each person's name,
/// refreshing each back into a fault.
enum FaultLoop {
    static func run(_ selfies: [Selfie], in context: ObjectContext, networks: (Selfie) throws -> [SocialNetwork],
                    people: (Selfie) throws -> [Person]) throws -> Int {
        var names = 0
        for selfie in selfies {
            _ = selfie.name
            for network in try networks(selfie) {
                _ = network.name
                context.refresh(network, mergeChanges: false)
                names += 1
            }
            for person in try people(selfie) {
                _ = person.name
                context.refresh(person, mergeChanges: false)
                names += 1
            }
        }
        return names
    }
}

extension Scenario {
    /// Faults fired one at a time.
    public static let singleFault = Scenario(
        name: "SingleFault",
        summary: """
            For each selfie, reads its name, then each social network's and each person's name one by one, \
            refreshing each back into a fault. Each selfie's relationships fire relationship faults, and the first \
            read of each destination is a cache miss (one primary-key SELECT each); later reads after a refresh are \
            row cache hits. Look at cacheMisses and sqlStatements: this is the N+1 pattern.
            """,
        dataSet: .selfies
    ) { run in
        let context = run.context()
        try context.perform {
            let selfies = Array(try context.fetch(FetchRequest<Selfie>()))
            let names = try FaultLoop.run(selfies, in: context, networks: { $0.socialNetworks }, people: { $0.people })
            run.record("namesRead", Double(names))
        }
    }

    /// Batch faulting: fetching the destinations with their values.
    public static let batchFault = Scenario(
        name: "BatchFault",
        summary: """
            The SingleFault loop, but for each selfie its social networks and people are fetched as non-faults \
            (returnsObjectsAsFaults = false), as the book does: two fetches per selfie replace the one-by-one \
            faults. Compare fetches, sqlStatements and rowsRead with SingleFault: fewer round trips, far more rows.
            """,
        dataSet: .selfies
    ) { run in
        let context = run.context()
        try context.perform {
            let selfies = Array(try context.fetch(FetchRequest<Selfie>()))
            let names = try FaultLoop.run(selfies, in: context, networks: { selfie in
                var request = FetchRequest<SocialNetwork>(predicate: .compare(.keyPath("selfies"), .equal, .object(selfie.objectID), quantifier: .any))
                request.returnsObjectsAsFaults = false
                return Array(try context.fetch(request))
            }, people: { selfie in
                var request = FetchRequest<Person>(predicate: .compare(.keyPath("selfies"), .equal, .object(selfie.objectID), quantifier: .any))
                request.returnsObjectsAsFaults = false
                return Array(try context.fetch(request))
            })
            run.record("namesRead", Double(names))
        }
    }

    /// Prefetching the relationships with the first fetch.
    public static let prefetch = Scenario(
        name: "Prefetch",
        summary: """
            The SingleFault loop after one fetch that prefetches socialNetworks and people: a fixed number of \
            queries (two per many-to-many key path) load every destination, and the loop then runs without a \
            cache miss. Compare sqlStatements and cacheMisses with SingleFault and BatchFault.
            """,
        dataSet: .selfies
    ) { run in
        let context = run.context()
        try context.perform {
            var request = FetchRequest<Selfie>()
            request.relationshipKeyPathsForPrefetching = ["socialNetworks", "people"]
            let selfies = Array(try context.fetch(request))
            let names = try FaultLoop.run(selfies, in: context, networks: { $0.socialNetworks }, people: { $0.people })
            run.record("namesRead", Double(names))
        }
    }
}
