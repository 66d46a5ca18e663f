/// The runs of frequent, cheap events that the LTTng sink holds back and
/// traces as one event each, with their count: consecutive row-cache
/// faults of one context, entity and call site, and consecutive refreshes
/// of one context.
///
/// Why: a traced event costs lttng-ust about 1,000 instructions and each of
/// its fields 50 to 350 more, while a fault the row cache fulfils costs the
/// engine about 600. Traced one by one, a loop of such faults ran several
/// times slower under a session, and the trace measured itself. A fault
/// that reads the database, and every other event, is still traced alone.
///
/// A run ends, and is traced, when an event arrives that does not continue
/// it, or at ``LTTngSink/flush()``; its event carries the first object's
/// key, the sum of the durations and the count. Each pending run is
/// either held here, made of the faults or refreshes sent one by one, or a
/// context's (``RowCacheFaultRun``, ``RefreshRun``), which the context
/// extends in place: here it is only ordered and closed. Not thread-safe: the sink guards it with its
/// lock.
struct HeldBackRuns {
    /// A run of row-cache faults: the first fault, with the run's count and
    /// total duration.
    struct Faults {
        var first: FaultEvent
        var count: UInt64
        var durationNanoseconds: UInt64
        let order: UInt64
    }

    /// A run of refreshes, with its count: `last` is the refresh the run
    /// is traced as, its context's, with the registration counts of the
    /// last refresh.
    struct Refreshes {
        var last: ContextEvent
        var count: UInt64
        let order: UInt64
    }

    /// A run that ended, to be traced.
    enum Ended {
        case faults(Faults)
        case refreshes(Refreshes)
    }

    // Each pending run is kept in plain stored properties: what a fault
    // or refresh must match to continue it, its count and time beside
    // them, its event apart. Extending a run then touches only these;
    // reaching into an optional run that holds its event copied the event
    // out and back, retaining and releasing each of its strings, at every
    // fault of a loop.

    /// The pending fault run's first fault, and what continues the run.
    private var firstFault: FaultEvent?
    private var faultEntity = ""
    private var faultContext = ""
    private var faultFile = ""
    private var faultLine = 0
    private var faultCount: UInt64 = 0
    private var faultDuration: UInt64 = 0
    private var faultOrder: UInt64 = 0
    /// Beside the optional (set wherever it is): testing an optional that
    /// holds an event for nil copied the event, retaining its strings.
    private var hasFaults = false
    /// The pending fault run when a context keeps it (then `firstFault`
    /// is nil): open until it is closed here.
    private var faultRun: RowCacheFaultRun?

    /// The pending refresh run's first refresh (traced with the last
    /// one's counts), and its context.
    private var firstRefresh: ContextEvent?
    private var refreshContext = ""
    private var refreshCount: UInt64 = 0
    private var refreshRegistered = 0
    private var refreshPeak = 0
    private var refreshOrder: UInt64 = 0
    private var hasRefreshes = false
    /// The pending refresh run when a context keeps it (then
    /// `firstRefresh` is nil): open until it is closed here.
    private var refreshRun: RefreshRun?

    /// Runs started so far: orders the two pending runs by their start.
    private var started: UInt64 = 0

    /// Whether a run is pending.
    var isEmpty: Bool { !hasFaults && !hasRefreshes }

    /// The pending fault run, as it would be traced now.
    var faults: Faults? {
        guard hasFaults else { return nil }
        if let run = faultRun {
            return run.pending.map { Faults(first: $0.first, count: $0.count, durationNanoseconds: $0.durationNanoseconds, order: faultOrder) }
        }
        return firstFault.map { Faults(first: $0, count: faultCount, durationNanoseconds: faultDuration, order: faultOrder) }
    }

    /// Ends the pending fault run: returns it, closed if a context kept it.
    private mutating func takeFaults() -> Faults? {
        guard hasFaults else { return nil }
        hasFaults = false
        if let run = faultRun {
            faultRun = nil
            guard let (first, count, duration) = run.close() else { return nil }
            return Faults(first: first, count: count, durationNanoseconds: duration, order: faultOrder)
        }
        defer { firstFault = nil }
        guard let firstFault else { return nil }
        return Faults(first: firstFault, count: faultCount, durationNanoseconds: faultDuration, order: faultOrder)
    }

    /// The pending refresh run, as it would be traced.
    var refreshes: Refreshes? {
        guard hasRefreshes else { return nil }
        if let run = refreshRun {
            return run.pending.map { Refreshes(last: $0.last, count: $0.count, order: refreshOrder) }
        }
        guard var last = firstRefresh else { return nil }
        last.objectsRegistered = refreshRegistered
        last.objectsRegisteredPeak = refreshPeak
        return Refreshes(last: last, count: refreshCount, order: refreshOrder)
    }

    /// Ends the pending refresh run: returns it, closed if a context kept it.
    private mutating func takeRefreshes() -> Refreshes? {
        guard hasRefreshes else { return nil }
        if let run = refreshRun {
            hasRefreshes = false
            refreshRun = nil
            return run.close().map { Refreshes(last: $0.last, count: $0.count, order: refreshOrder) }
        }
        defer {
            hasRefreshes = false
            firstRefresh = nil
        }
        return refreshes
    }

    /// Adds a row-cache fault to the pending fault run; returns the run it
    /// ended instead, if the fault does not continue it (another context,
    /// entity or call site).
    mutating func add(rowCacheFault event: FaultEvent) -> Faults? {
        let extended = extendFaults(
            entity: event.entity, context: event.context, callSite: { event.callSite },
            durationNanoseconds: event.durationNanoseconds)
        if extended { return nil }
        let ended = takeFaults()
        started += 1
        firstFault = event
        faultEntity = event.entity
        faultContext = event.context
        faultFile = event.callSite.file
        faultLine = event.callSite.line
        faultCount = 1
        faultDuration = event.durationNanoseconds
        faultOrder = started
        hasFaults = true
        return ended
    }

    /// Adds a row-cache fault to the pending fault run if it continues it
    /// (the same context, entity and call site), from its parts, without
    /// its event; returns false, changing nothing, if it does not.
    @inline(__always)
    mutating func extendFaults(
        entity: String, context: String, callSite: () -> CallSite, durationNanoseconds: UInt64
    ) -> Bool {
        guard hasFaults, faultRun == nil, entity == faultEntity, context == faultContext else { return false }
        let site = callSite()
        guard site.line == faultLine, site.file == faultFile else { return false }
        faultCount += 1
        faultDuration &+= durationNanoseconds
        return true
    }

    /// Opens a context's run with its first fault as the pending fault run;
    /// returns the run it ended (the pending one, held here or a
    /// context's, `run` itself included).
    mutating func add(run: RowCacheFaultRun, first event: FaultEvent, durationNanoseconds: UInt64) -> Faults? {
        let ended = takeFaults()
        started += 1
        run.open(first: event, durationNanoseconds: durationNanoseconds)
        faultRun = run
        faultOrder = started
        hasFaults = true
        return ended
    }

    /// Adds a refresh to the pending refresh run; returns the run it ended
    /// instead, if the refresh is of another context.
    mutating func add(refresh event: ContextEvent) -> Refreshes? {
        let extended = extendRefreshes(
            context: event.context, objectsRegistered: event.objectsRegistered,
            objectsRegisteredPeak: event.objectsRegisteredPeak)
        if extended { return nil }
        let ended = takeRefreshes()
        started += 1
        firstRefresh = event
        refreshContext = event.context
        refreshCount = 1
        refreshRegistered = event.objectsRegistered
        refreshPeak = event.objectsRegisteredPeak
        refreshOrder = started
        hasRefreshes = true
        return ended
    }

    /// Adds a refresh to the pending refresh run if it is of the same
    /// context, from its parts, without its event; returns false, changing
    /// nothing, if it is not.
    @inline(__always)
    mutating func extendRefreshes(context: String, objectsRegistered: Int, objectsRegisteredPeak: Int) -> Bool {
        guard hasRefreshes, refreshRun == nil, context == refreshContext else { return false }
        refreshCount += 1
        refreshRegistered = objectsRegistered
        refreshPeak = objectsRegisteredPeak
        return true
    }

    /// Opens a context's run with its first refresh as the pending refresh
    /// run; returns the run it ended (the pending one, held here or a
    /// context's, `run` itself included).
    mutating func add(run: RefreshRun, first event: ContextEvent) -> Refreshes? {
        let ended = takeRefreshes()
        started += 1
        run.open(first: event)
        refreshRun = run
        refreshOrder = started
        hasRefreshes = true
        return ended
    }

    /// Ends both runs: those pending, the earlier started first.
    mutating func endAll() -> [Ended] {
        var ended: [Ended] = []
        switch (takeFaults(), takeRefreshes()) {
        case (let f?, let r?):
            ended = f.order < r.order ? [.faults(f), .refreshes(r)] : [.refreshes(r), .faults(f)]
        case (let f?, nil):
            ended = [.faults(f)]
        case (nil, let r?):
            ended = [.refreshes(r)]
        case (nil, nil):
            break
        }
        return ended
    }
}
