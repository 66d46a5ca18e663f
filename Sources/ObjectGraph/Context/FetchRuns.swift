import Probes

/// The runs of one context's fetches whose objects' use is tracked, for
/// the fetch-usage insights (``FetchUsage``): per run, its fetch site (a
/// path of the context's ``OriginPaths``), its objects, how many of them
/// the application used, and whether it had a batch size.
///
/// An object holds the number of the run that returned it last until its
/// first use (``ManagedObject/unusedFetchRun``), which adds one to that
/// run here: a flag test per access, and work once per object. The context
/// reports its runs by fetch site when it is reset or released, and
/// forgets them; numbers go on, so an object of a forgotten run counts for
/// nothing.
struct FetchRuns {
    struct Run {
        let path: UInt32
        let objects: Int
        var used = 0
        let batched: Bool
    }

    private(set) var runs: [Run] = []
    /// What a to-many's fault marks the destinations it registers with
    /// until their run has its number: never a run's own.
    static let pendingRun = UInt32.max
    /// Runs reported and forgotten before `runs[0]`.
    private var forgotten = 0

    /// Whether there are runs to report.
    var isEmpty: Bool { runs.isEmpty }

    /// Starts a run of `objects` objects of the fetch at `path`; its number,
    /// or nil once numbers ran out (after 4 billion runs in one context).
    mutating func start(path: UInt32, objects: Int, batched: Bool) -> UInt32? {
        let number = forgotten + runs.count + 1
        guard number < Int(Self.pendingRun) else { return nil }
        runs.append(Run(path: path, objects: objects, batched: batched))
        return UInt32(number)
    }

    /// One more object of run `number` used; nothing for a forgotten run.
    mutating func noteUse(_ number: UInt32) {
        let index = Int(number) - 1 - forgotten
        guard index >= 0, index < runs.count else { return }
        runs[index].used += 1
    }

    /// The usage of each fetch site, in the order of sites, and forgets the
    /// runs. `site` names a path's entity and call site.
    mutating func take(site: (UInt32) -> FetchUsage.Site) -> [FetchUsage] {
        var bySite: [UInt32: FetchUsage] = [:]
        for run in runs where run.objects > 0 {
            // A page of a batched fetch loaded again counts its objects again.
            let used = min(run.used, run.objects)
            // A run read none is the count-by-fetch pattern, not a page too large.
            let unread = run.batched || used == 0 ? 0 : run.objects - used
            if let sum = bySite[run.path] {
                bySite[run.path] = sum.adding(Self.usage(run, used: used, unread: unread, at: sum.site))
            } else {
                bySite[run.path] = Self.usage(run, used: used, unread: unread, at: site(run.path))
            }
        }
        forgotten += runs.count
        runs = []
        return bySite.values.sorted { $0.site < $1.site }
    }

    /// One run's usage.
    private static func usage(_ run: Run, used: Int, unread: Int, at site: FetchUsage.Site) -> FetchUsage {
        FetchUsage(
            entity: site.entity, callSite: site.callSite, keyPath: site.keyPath, runs: 1, objects: run.objects, read: used, runsReadNone: used == 0 ? 1 : 0,
            largestReadNone: used == 0 ? run.objects : 0, mostUnread: unread, mostUnreadOf: unread == 0 ? 0 : run.objects)
    }
}

extension ObjectContext {
    /// Starts a run of the fetch whose objects come from `origin` (no run
    /// when no sink asks for origins): each object holds the run's number
    /// until its first use.
    func noteFetchRun(_ objects: [ManagedObject], origin: ObjectOrigin) {
        guard origin.path != 0, !objects.isEmpty, let run = fetchRuns.start(path: origin.path, objects: objects.count, batched: false) else {
            return
        }
        for object in objects { object.unusedFetchRun = run }
    }

    /// Starts a run of the `fresh` destinations a to-many's fault
    /// registered among `objects` (marked ``FetchRuns/pendingRun``): no
    /// batch size applies (their unread count is no page too large).
    func noteDestinationRun(_ objects: [ManagedObject], fresh: Int, origin: ObjectOrigin) {
        let run = fetchRuns.start(path: origin.path, objects: fresh, batched: true) ?? 0
        for object in objects where object.unusedFetchRun == FetchRuns.pendingRun { object.unusedFetchRun = run }
    }

    /// Starts a run of a batched fetch of `count` objects from `origin`;
    /// its number, for the objects of each page it loads (nil for none).
    func startBatchedFetchRun(count: Int, origin: ObjectOrigin) -> UInt32? {
        guard origin.path != 0, count > 0 else { return nil }
        return fetchRuns.start(path: origin.path, objects: count, batched: true)
    }

    /// The first use of an object of run `run` since that fetch returned it.
    func noteUse(ofFetchRun run: UInt32) {
        fetchRuns.noteUse(run)
    }

    /// Emits what became of the objects of this context's fetches, one
    /// event per fetch site, and starts afresh.
    func reportFetchUsage() {
        guard !fetchRuns.isEmpty else { return }
        let usage = fetchRuns.take { originPaths.fetchSite(of: $0) }
        guard instrumentation.isOn(.context) else { return }
        for site in usage { instrumentation.contextChanged(name, kind: .fetchUsage, fetchUsage: site) }
    }
}
