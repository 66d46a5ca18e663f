import Probes

/// For tests: a sample event of each kind, and the sample with each of its fields
/// changed in turn (``EventFieldCoverageTests``).
public enum EventSamples {
    /// An event and, for each of its fields, the event with that field changed.
    public struct Sample: Sendable {
        public let event: Event
        public let changed: [(field: String, event: Event)]
    }

    public static let kinds: [EventKind] = EventKind.allCases

    /// The sample of `kind`.
    public static func sample(_ kind: EventKind) -> Sample? {
        switch kind {
        case .fetch: fetch
        case .fault: fault
        case .relationshipFault: relationshipFault
        case .save: save
        case .batchRequest: batchRequest
        case .sql: sql
        case .context: context
        case .scenario: scenario
        }
    }

    private static func sample<E>(_ base: E, _ wrap: (E) -> Event, _ changes: [(String, (inout E) -> Void)]) -> Sample {
        Sample(event: wrap(base), changed: changes.map { name, change in
            var changed = base
            change(&changed)
            return (name, wrap(changed))
        })
    }

    private static let site = CallSite(file: "App/Gallery.swift", line: 41)
    private static let otherSite = CallSite(file: "App/Other.swift", line: 97)
    private static let origin = FaultOrigin(fetchEntity: "Selfie", fetchSite: site, keyPath: "people", execution: 3)

    static let fetch = sample(
        FetchEvent(
            start: 1_000_000, durationNanoseconds: 2_500_000, thread: 11, context: "main", entity: "Selfie",
            predicate: "rating > 5", sort: "name", resultType: "objects", resultCount: 12, fetchLimit: 20, fetchOffset: 4,
            fetchBatchSize: 8, returnsObjectsAsFaults: true, includesPropertyValues: true, includesPendingChanges: true,
            prefetch: "people", intendedLazyLoads: "people", callSite: site, objects: ["Selfie/p1", "Selfie/p2"]),
        Event.fetch,
        [
            ("start", { $0.start = 7_000_000 }), ("durationNanoseconds", { $0.durationNanoseconds = 9_700_000 }),
            ("thread", { $0.thread = 23 }), ("context", { $0.context = "background" }), ("entity", { $0.entity = "Person" }),
            ("predicate", { $0.predicate = "rating < 2" }), ("sort", { $0.sort = "rating" }),
            ("resultType", { $0.resultType = "count" }), ("resultCount", { $0.resultCount = 77 }),
            ("fetchLimit", { $0.fetchLimit = 91 }), ("fetchOffset", { $0.fetchOffset = 93 }),
            ("fetchBatchSize", { $0.fetchBatchSize = 95 }), ("returnsObjectsAsFaults", { $0.returnsObjectsAsFaults = false }),
            ("includesPropertyValues", { $0.includesPropertyValues = false }),
            ("includesPendingChanges", { $0.includesPendingChanges = false }), ("prefetch", { $0.prefetch = "owner" }),
            ("intendedLazyLoads", { $0.intendedLazyLoads = "owner" }),
            ("callSite", { $0.callSite = otherSite }), ("objects", { $0.objects = ["Selfie/p9"] }),
        ])

    static let fault = sample(
        FaultEvent(
            start: 1_000_000, durationNanoseconds: 2_500_000, thread: 11, context: "main", entity: "Person", primaryKey: 7,
            source: .database, callSite: site, values: "name=Ann", missReason: .absent, origin: origin),
        Event.fault,
        [
            ("start", { $0.start = 7_000_000 }), ("durationNanoseconds", { $0.durationNanoseconds = 9_700_000 }),
            ("thread", { $0.thread = 23 }), ("context", { $0.context = "background" }), ("entity", { $0.entity = "Selfie" }),
            ("primaryKey", { $0.primaryKey = 8 }), ("source", { $0.source = .context }), ("callSite", { $0.callSite = otherSite }),
            ("values", { $0.values = "name=Bob" }), ("missReason", { $0.missReason = .stale }),
            ("origin", { $0.origin = FaultOrigin(fetchEntity: "Network", fetchSite: otherSite, keyPath: "owner", execution: 4) }),
            ("engineWork", { $0.engineWork = .inverse }),
        ])

    static let relationshipFault = sample(
        RelationshipFaultEvent(
            start: 1_000_000, durationNanoseconds: 2_500_000, thread: 11, context: "main", entity: "Selfie",
            relationship: "people", primaryKey: 7, destinationEntity: "Person", destinationCount: 5, source: .database,
            callSite: site, missReason: .absent, origin: origin),
        Event.relationshipFault,
        [
            ("start", { $0.start = 7_000_000 }), ("durationNanoseconds", { $0.durationNanoseconds = 9_700_000 }),
            ("thread", { $0.thread = 23 }), ("context", { $0.context = "background" }), ("entity", { $0.entity = "Network" }),
            ("relationship", { $0.relationship = "owners" }), ("primaryKey", { $0.primaryKey = 8 }),
            ("destinationEntity", { $0.destinationEntity = "Account" }), ("destinationCount", { $0.destinationCount = 61 }),
            ("source", { $0.source = .rowCache }), ("callSite", { $0.callSite = otherSite }),
            ("missReason", { $0.missReason = .stale }),
            ("origin", { $0.origin = FaultOrigin(fetchEntity: "Network", fetchSite: otherSite, keyPath: "owner", execution: 4) }),
            ("engineWork", { $0.engineWork = .deleteRule }),
        ])

    static let sql = sample(
        SQLEvent(
            start: 1_000_000, durationNanoseconds: 2_500_000, thread: 11,
            sql: #"SELECT t0.pk, t0."name" FROM "Person" t0 WHERE t0."rating" > 5"#,
            shape: #"SELECT t0.pk, t0."name" FROM "Person" t0 WHERE t0."rating" > ?"#, shapeID: 3, arguments: ["5"],
            rowsReturned: 12, rowsChanged: 0, fullScanSteps: 40, sorts: 1, autoIndexes: 1, vmSteps: 313, purpose: "fetch Person",
            queryPlan: ["SCAN t0"], callSite: site, textID: 4, facts: StatementFacts(entity: "Person", hasLimit: true)),
        Event.sql,
        [
            ("start", { $0.start = 7_000_000 }), ("durationNanoseconds", { $0.durationNanoseconds = 9_700_000 }),
            ("thread", { $0.thread = 23 }),
            ("sql", { $0.sql = #"SELECT t0.pk, t0."name" FROM "Person" t0 WHERE t0."rating" > 6"# }),
            ("shape", { $0.shape = #"SELECT t0.pk FROM "Person" t0 WHERE t0."rating" > ?"# }), ("shapeID", { $0.shapeID = 83 }),
            ("textID", { $0.textID = 84 }), ("arguments", { $0.arguments = ["6"] }), ("rowsReturned", { $0.rowsReturned = 71 }),
            ("rowsChanged", { $0.rowsChanged = 73 }), ("fullScanSteps", { $0.fullScanSteps = 79 }), ("sorts", { $0.sorts = 2 }),
            ("autoIndexes", { $0.autoIndexes = 3 }), ("vmSteps", { $0.vmSteps = 4_447 }),
            ("purpose", { $0.purpose = "fault Person" }), ("queryPlan", { $0.queryPlan = ["SEARCH t0 USING INDEX x (pk=?)"] }),
            ("callSite", { $0.callSite = otherSite }), ("facts", { $0.facts = StatementFacts(entity: "Selfie") }),
        ])

    static let save = sample(
        SaveEvent(
            start: 1_000_000, durationNanoseconds: 2_500_000, thread: 11, context: "main", inserted: 3, updated: 4, deleted: 5,
            success: false, error: "disk I/O error", callSite: site),
        Event.save,
        [
            ("start", { $0.start = 7_000_000 }), ("durationNanoseconds", { $0.durationNanoseconds = 9_700_000 }),
            ("thread", { $0.thread = 23 }), ("context", { $0.context = "background" }), ("inserted", { $0.inserted = 63 }),
            ("updated", { $0.updated = 64 }), ("deleted", { $0.deleted = 65 }), ("success", { $0.success = true }),
            ("error", { $0.error = "constraint failed" }), ("callSite", { $0.callSite = otherSite }),
        ])

    static let batchRequest = sample(
        BatchRequestEvent(
            start: 1_000_000, durationNanoseconds: 2_500_000, thread: 11, kind: "update", entity: "Person", rowsAffected: 9,
            callSite: site),
        Event.batchRequest,
        [
            ("start", { $0.start = 7_000_000 }), ("durationNanoseconds", { $0.durationNanoseconds = 9_700_000 }),
            ("thread", { $0.thread = 23 }), ("kind", { $0.kind = "delete" }), ("entity", { $0.entity = "Selfie" }),
            ("rowsAffected", { $0.rowsAffected = 59 }), ("callSite", { $0.callSite = otherSite }),
        ])

    static let context = sample(
        ContextEvent(
            start: 1_000_000, thread: 11, context: "main", kind: .prefetchUsage, objectsRegistered: 30, objectsRegisteredPeak: 40,
            prefetchUsage: PrefetchUsage(relationship: "people", prefetched: 10, read: 2, callSite: site)),
        Event.context,
        [
            ("start", { $0.start = 7_000_000 }), ("thread", { $0.thread = 23 }), ("context", { $0.context = "background" }),
            ("kind", { $0.kind = .reset }), ("objectsRegistered", { $0.objectsRegistered = 53 }),
            ("objectsRegisteredPeak", { $0.objectsRegisteredPeak = 57 }),
            ("prefetchUsage", { $0.prefetchUsage = PrefetchUsage(relationship: "owner", prefetched: 11, read: 3, callSite: otherSite) }),
            ("fetchUsage", {
                $0.fetchUsage = FetchUsage(
                    entity: "Selfie", callSite: otherSite, runs: 3, objects: 500, read: 20, runsReadNone: 1, largestReadNone: 100,
                    mostUnread: 380, mostUnreadOf: 400)
            }),
        ])

    static let scenario = sample(
        ScenarioEvent(start: 1_000_000, thread: 11, scenario: "SingleFault", phase: .iterationBegin, step: "read names", iteration: 2),
        Event.scenario,
        [
            ("start", { $0.start = 7_000_000 }), ("thread", { $0.thread = 23 }), ("scenario", { $0.scenario = "Prefetch" }),
            ("phase", { $0.phase = .step }), ("step", { $0.step = "read ages" }), ("iteration", { $0.iteration = 5 }),
        ])
}
