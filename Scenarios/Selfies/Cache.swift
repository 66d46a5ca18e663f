import ObjectGraph

extension Scenario {
    /// The same objects loaded twice in one context.
    public static let cache = Scenario(
        name: "Cache",
        summary: """
            Loads the selfies and their social networks twice in one context: the first pass (coldSeconds) fires \
            relationship faults and fetches rows from SQLite; the second (warmSeconds) finds everything in the \
            context and runs only the fetch. The difference is what the identity map and the row cache save.
            """,
        dataSet: .selfies
    ) { run in
        let context = run.context()
        try context.perform {
            // The first pass's objects stay alive (held here) for the second.
            var held: [Selfie] = []
            func pass() throws -> Int {
                var names = 0
                let selfies = Array(try context.fetch(FetchRequest<Selfie>()))
                if held.isEmpty { held = selfies }
                for selfie in selfies {
                    _ = selfie.name
                    for network in selfie.socialNetworks {
                        _ = network.name
                        names += 1
                    }
                }
                return names
            }
            let (cold, coldSeconds) = try run.time { try pass() }
            let (warm, warmSeconds) = try run.time { try pass() }
            try run.check(cold == warm, "the passes read \(cold) and \(warm) names")
            run.record("coldSeconds", coldSeconds)
            run.record("warmSeconds", warmSeconds)
        }
    }
}
