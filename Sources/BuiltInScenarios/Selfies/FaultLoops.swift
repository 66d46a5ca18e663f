import Insights
import ObjectGraph
import Reporting
import Scenarios

/// The loop of the SingleFault, BatchFault and Prefetch scenarios: for each
/// selfie, read its name, then each social network's and each person's name,
/// refreshing each back into a fault.
enum FaultLoop {
    /// - Parameter loading: work done for each selfie before its walk
    ///   (BatchFault's fetches); the objects it returns stay alive during the walk.
    static func run(
        _ selfies: [Selfie], in context: ObjectContext, loading: (Selfie) throws -> [ManagedObject] = { _ in [] },
        networks: (Selfie) throws -> [SocialNetwork], people: (Selfie) throws -> [Person]
    ) throws -> Int {
        var names = 0
        for selfie in selfies {
            let loaded = try loading(selfie)
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
            withExtendedLifetime(loaded) {}
        }
        return names
    }

    /// Every selfie (as faults), then the loop through its relationships.
    static func walkRelationships(_ run: ScenarioIteration, staleness: Duration? = nil, prefetching: Bool = false) throws {
        let context = run.context()
        if let staleness { context.stalenessInterval = staleness }
        try context.perform {
            var request = FetchRequest<Selfie>()
            if prefetching { request.relationshipKeyPathsForPrefetching = ["socialNetworks", "people"] }
            let selfies = Array(try context.fetch(request))
            let names = try FaultLoop.run(selfies, in: context, networks: { $0.socialNetworks }, people: { $0.people })
            run.record("namesRead", Double(names))
        }
    }

    /// Every object of `Object` with its values.
    static func fetchAll<Object: ManagedObject & EntityNamed>(_: Object.Type, in context: ObjectContext) throws -> [Object] {
        var request = FetchRequest<Object>()
        request.returnsObjectsAsFaults = false
        return Array(try context.fetch(request))
    }

    /// The destinations of one selfie's relationship, fetched with their values.
    static func fetchRelated<Object: ManagedObject & EntityNamed>(_: Object.Type, of selfie: Selfie, in context: ObjectContext) throws -> [Object] {
        var request = FetchRequest<Object>(predicate: .compare(.keyPath("selfies"), .equal, .object(selfie.objectID), quantifier: .any))
        request.returnsObjectsAsFaults = false
        return Array(try context.fetch(request))
    }
}

extension Scenario {
    /// Faults fired one at a time.
    public static let singleFault = Scenario(
        name: "SingleFault",
        summary: """
            For each selfie, reads its name, then each social network's and each person's name one by one, \
            refreshing each back into a fault (the book's SingleFault). Each selfie's relationships fire \
            relationship faults, and the first read of each destination is a cache miss (one primary-key SELECT \
            each); later reads after a refresh are row cache hits, since a refreshed object's row stays cached \
            while the context holds it. Look at cacheMisses and sqlStatements: this is the N+1 pattern.
            """,
        dataSet: .selfies,
        insights: InsightSettings(intended: [.nPlusOne: "the book's SingleFault faults each relationship one by one; Prefetch is the fix it measures"])
    ) { run in
        try FaultLoop.walkRelationships(run)
    }

    /// The book's batch faulting: all destinations fetched with values for every selfie.
    public static let batchFault = Scenario(
        name: "BatchFault",
        summary: """
            The book's BatchFault: the selfies are fetched with their values (returnsObjectsAsFaults = false), and \
            for each selfie every social network and every person is fetched with its values (two fetches without \
            a predicate), then the SingleFault loop walks the selfie's relationships, reading and refreshing each \
            object. The loop's refaults find the rows just fetched; the fetches read every destination row once \
            per selfie. Compare fetches, rowsRead and sqlStatements with SingleFault.
            """,
        dataSet: .selfies,
        repeatsStatements: "the book's code fetches every social network and every person again for each selfie",
        insights: InsightSettings(intended: [.nPlusOne: "the book's loop walks each selfie's relationships after its fetches"])
    ) { run in
        let context = run.context()
        try context.perform {
            let selfies = try FaultLoop.fetchAll(Selfie.self, in: context)
            let names = try FaultLoop.run(selfies, in: context, loading: { _ in
                try FaultLoop.fetchAll(SocialNetwork.self, in: context) as [ManagedObject] + FaultLoop.fetchAll(Person.self, in: context)
            }, networks: { $0.socialNetworks }, people: { $0.people })
            run.record("namesRead", Double(names))
        }
    }

    /// Batch faulting by a fetch of each selfie's own destinations.
    public static let batchFaultByPredicate = Scenario(
        name: "BatchFaultByPredicate",
        summary: """
            A variant of BatchFault that fetches only each selfie's own destinations: for each selfie, its social \
            networks and its people are fetched as non-faults with ANY selfies == selfie (two fetches per selfie, \
            compiled to a join-table lookup), and the loop walks those results instead of the relationships. \
            Compare relationshipFaultsFired, rowsRead and fetches with BatchFault and SingleFault.
            """,
        dataSet: .selfies,
        insights: InsightSettings(intended: [.queryInLoop: "the variant fetches each selfie's destinations, a fetch per selfie; Prefetch is the fix"])
    ) { run in
        let context = run.context()
        try context.perform {
            let selfies = Array(try context.fetch(FetchRequest<Selfie>()))
            let names = try FaultLoop.run(selfies, in: context, networks: { selfie in
                try FaultLoop.fetchRelated(SocialNetwork.self, of: selfie, in: context)
            }, people: { selfie in
                try FaultLoop.fetchRelated(Person.self, of: selfie, in: context)
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
        try FaultLoop.walkRelationships(run, prefetching: true)
    }

    /// SingleFault where every refault reads the store.
    public static let singleFaultStaleness0 = Scenario(
        name: "SingleFaultStaleness0",
        summary: """
            SingleFault on a context whose stalenessInterval is 0: a cached row is never fresh enough, so every \
            fault, refaults after a refresh included, is a primary-key SELECT. This is the round-trip regime the \
            book's timings suggest: compare sqlStatements and the time per statement with SingleFault.
            """,
        dataSet: .selfies,
        repeatsStatements: "with stalenessInterval 0 every refault reads its row again",
        insights: InsightSettings(intended: [.nPlusOne: "SingleFault with every refault from the store; PrefetchStaleness0 is the fix it measures"])
    ) { run in
        try FaultLoop.walkRelationships(run, staleness: .zero)
    }

    /// Prefetch where every refault reads the store.
    public static let prefetchStaleness0 = Scenario(
        name: "PrefetchStaleness0",
        summary: """
            Prefetch on a context whose stalenessInterval is 0: the prefetch loads every destination, but each \
            refault after a refresh still reads its row again, so prefetching saves only the first read of each \
            object. Compare with SingleFaultStaleness0.
            """,
        dataSet: .selfies,
        repeatsStatements: "with stalenessInterval 0 every refault reads its row again"
    ) { run in
        try FaultLoop.walkRelationships(run, staleness: .zero, prefetching: true)
    }
}

extension ExperimentReference {
    /// The book's test app: "Pro iOS Persistence", ch. 9 (Ch09/PerformanceTuning).
    static let bookSource = "Privat & Warner, Pro iOS Persistence: Using Core Data (Apress, 2014), ch. 9"
    static let bookSetting = """
        The book's PerformanceTuning app on an iPhone 6 Plus / 5s: 500 selfies, 500 people and 500 social networks, \
        every selfie related to every person and network (Faultline's Selfies data set at scale 1)
        """

    /// The book's figures for its SingleFault and Prefetch tests.
    static let faultingSource = bookSource + ", SingleFault and Prefetch tests: SingleFault just under 30 s, Prefetch just under 3 s"

    static let singleFaultVsPrefetch = ExperimentReference(
        name: "SingleFault vs Prefetch",
        lesson: "Prefetching the relationships with the first fetch replaces a fault per object with a few queries: about 10x faster.",
        source: faultingSource,
        sourceSetting: bookSetting,
        kind: .timing(
            baseline: Side(scenario: "SingleFault", sourceSeconds: 30, sourceWords: "just under 30 s"),
            treatment: Side(scenario: "Prefetch", sourceSeconds: 3, sourceWords: "just under 3 s")))

    static let batchFaultVsSingleFault = ExperimentReference(
        name: "BatchFault vs SingleFault",
        lesson: "Fetching every destination with its values for each selfie costs more than faulting them one by one: a little slower.",
        source: bookSource + ", BatchFault and SingleFault tests: BatchFault a little over 30 s, against SingleFault's just under 30 s",
        sourceSetting: bookSetting,
        kind: .timing(
            baseline: Side(scenario: "SingleFault", sourceSeconds: 30, sourceWords: "just under 30 s"),
            treatment: Side(scenario: "BatchFault", sourceSeconds: 31, sourceWords: "a little over 30 s")))

    static let singleFaultVsPrefetchStaleness0 = ExperimentReference(
        name: "SingleFault vs Prefetch, refaults from the store",
        lesson: """
            The book's 10x, set against the regime its timings suggest: every refault a round trip (stalenessInterval 0), \
            where prefetching saves only each object's first read.
            """,
        source: faultingSource,
        sourceSetting: bookSetting,
        kind: .timing(
            baseline: Side(scenario: "SingleFaultStaleness0", sourceSeconds: 30, sourceWords: "just under 30 s"),
            treatment: Side(scenario: "PrefetchStaleness0", sourceSeconds: 3, sourceWords: "just under 3 s")))
}
