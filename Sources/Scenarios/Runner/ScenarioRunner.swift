import Foundation
import Insights
import ObjectGraph
import Probes
import Reporting
import ToolSupport

/// How to run scenarios: what the run measures (``configuration``, which
/// the report stores as it is) and what it is wired to (sinks, kept events,
/// fixes applied).
public struct RunOptions: Sendable {
    public typealias StoreKind = RunConfiguration.StoreKind

    /// What the run measures: scale, seed, iterations, warm-up, store,
    /// time limit, insight thresholds, whether advice is measured. The
    /// runner validates it before any work (``RunConfiguration/validate()``).
    public var configuration = RunConfiguration()
    /// More sinks for every scenario's store (the SQL debug log, LTTng).
    public var sinks: [any EventSink] = []
    /// Keep the recorded events of each scenario's last measured iteration
    /// (for a trace file), at most this many per scenario; 0 keeps none.
    public var keptEvents = 0
    /// Accepted insights, intentions and thresholds for every scenario (a
    /// scenario's own intentions are added to them). Thresholds set here
    /// join the configuration's (``RunConfiguration/insightThresholds``,
    /// which win for a rule both set), and the report records them all
    /// (``recordedConfiguration``).
    public var insights = InsightSettings()
    /// Fixes applied to every scenario's store (``WhatIf``): how
    /// `--what-if` measures an insight's advice.
    public var whatIf = WhatIf()

    /// Options with perf-run's default configuration.
    public init() {}

    /// Options that run `configuration`.
    public init(_ configuration: RunConfiguration) { self.configuration = configuration }

    /// The configuration the run has: ``configuration`` with the
    /// thresholds ``insights`` sets as well. The runner validates and
    /// reads it, and the report stores it.
    public var recordedConfiguration: RunConfiguration {
        guard !insights.thresholds.isEmpty else { return configuration }
        var recorded = configuration
        recorded.thresholds = insights.thresholds.merging(configuration.thresholds) { $1 }
        return recorded
    }

    /// The insight settings every scenario runs with: ``insights`` with
    /// the recorded configuration's thresholds.
    var insightSettings: InsightSettings {
        var settings = insights
        settings.thresholds = recordedConfiguration.thresholds
        return settings
    }
}

extension RunOptions {
    @available(*, deprecated, renamed: "configuration.scale")
    public var scale: Double {
        get { configuration.scale }
        set { configuration.scale = newValue }
    }

    @available(*, deprecated, renamed: "configuration.seed")
    public var seed: UInt64 {
        get { configuration.seed }
        set { configuration.seed = newValue }
    }

    @available(*, deprecated, renamed: "configuration.iterations")
    public var iterations: Int {
        get { configuration.iterations }
        set { configuration.iterations = newValue }
    }

    @available(*, deprecated, renamed: "configuration.warmup")
    public var warmup: Int {
        get { configuration.warmup }
        set { configuration.warmup = newValue }
    }

    @available(*, deprecated, renamed: "configuration.store")
    public var store: StoreKind {
        get { configuration.store }
        set { configuration.store = newValue }
    }

    @available(*, deprecated, renamed: "configuration.timeoutSeconds")
    public var timeoutSeconds: Double? {
        get { configuration.timeoutSeconds }
        set { configuration.timeoutSeconds = newValue }
    }

    @available(*, deprecated, renamed: "configuration.measuresFixes")
    public var measuresFixes: Bool {
        get { configuration.measuresFixes }
        set { configuration.measuresFixes = newValue }
    }
}

/// Runs scenarios: builds or reuses their data sets, runs warm-up and
/// measured iterations with the recorder on, and turns what it measured
/// into scenario reports.
///
/// Every measured iteration records wall and CPU time, peak resident memory
/// and the exact counters; a counter that differs between iterations (or
/// depends on memory management, as `objectsRegisteredPeak` does) is marked
/// advisory. Every statement's time goes into its shape's histogram, for
/// the shape's percentiles over the measured iterations; each shape's
/// query plan is asked for once, after them (``StatementPlans``).
/// A scenario runs on its own copy of the cached data set, and one
/// that writes starts every iteration from the data set's exact bytes, so
/// no scenario sees another's changes and their order changes nothing:
/// its copy is brought back in place (the pages that differ are written
/// back, ``DataSetCache/restore(_:from:)``), or made anew where the file
/// system makes reflinks or the last iteration's store is still open.
public final class ScenarioRunner {
    public let options: RunOptions
    public let cache: DataSetCache
    private let progress: (RunProgress) -> Void
    private let workDirectory: URL
    /// The events kept (``RunOptions/keptEvents``), scenario by scenario.
    public private(set) var events: [Event] = []
    private let cancellation = Cancellation()
    /// The data set's scale the scenario running now has: the
    /// configuration's, or one of its ``RunConfiguration/scales``.
    private var scale: Double

    /// What stops the scenario running now, from any thread.
    final class Cancellation: @unchecked Sendable {
        private let lock = NSLock()
        private var store: Store?
        private var stored: String?
        private var failed: DataSetFailure?
        private var generation = 0

        /// The data set failure that stopped the run, if one did.
        var failure: DataSetFailure? {
            lock.lock()
            defer { lock.unlock() }
            return failed
        }

        /// Stops the run for a data set that could not be built, copied or
        /// verified: the scenarios after it are skipped.
        func fail(_ failure: DataSetFailure) {
            lock.lock()
            failed = failed ?? failure
            lock.unlock()
            cancel(failure.description)
        }

        /// Why the run or the scenario stops, once something stopped it.
        var reason: String? {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }

        /// Lets go of the store attached, so that it can close (before its
        /// copy is restored).
        func detach() {
            lock.lock()
            store = nil
            lock.unlock()
        }

        /// The store work goes to now; a cancellation reaches it at once.
        func attach(_ store: Store) {
            lock.lock()
            self.store = store
            let reason = stored
            lock.unlock()
            if let reason { store.cancel(reason) }
        }

        func cancel(_ reason: String) {
            lock.lock()
            stored = stored ?? reason
            let store = self.store
            lock.unlock()
            store?.cancel(reason)
        }

        /// Starts a scenario: forgets an earlier time limit, returns its number.
        func begin() -> Int {
            lock.lock()
            defer { lock.unlock() }
            if stored?.hasPrefix("timed out") == true { stored = nil }
            store = nil
            generation += 1
            return generation
        }

        /// Cancels scenario `number` if it still runs.
        func timeOut(_ number: Int, _ reason: String) {
            lock.lock()
            let current = generation == number && stored == nil
            lock.unlock()
            if current { cancel(reason) }
        }

        var isInterrupted: Bool {
            lock.lock()
            defer { lock.unlock() }
            return stored != nil && stored?.hasPrefix("timed out") == false
        }
    }

    /// Stops the run from any thread (Ctrl-C): the scenario running now
    /// ends as failed with `reason`, the ones after it are skipped.
    public var interrupt: Interruption { Interruption(cancellation: cancellation) }

    /// How a run is stopped from outside (``interrupt``), and whether
    /// something inside stopped it: a data set that could not be built,
    /// copied or verified (a full disk, a cache that is not safe to use)
    /// stops the run as a signal does, and ends it with exit code 2
    /// (``StopSignals/exitCode``).
    public struct Interruption: Sendable {
        let cancellation: Cancellation

        /// Stops the run: the scenario running now ends as failed with
        /// `reason`, the ones after it are skipped.
        public func callAsFunction(_ reason: String) { cancellation.cancel(reason) }

        /// The data set failure that stopped the run, if one did.
        public var failure: DataSetFailure? { cancellation.failure }
    }

    public init(options: RunOptions, cache: DataSetCache = DataSetCache(), progress: @escaping (RunProgress) -> Void = { _ in }) {
        self.options = options
        self.cache = cache
        self.progress = progress
        self.scale = options.configuration.scale
        self.workDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-run-\(getpid())-\(UUID().uuidString.prefix(8))")
    }

    deinit {
        try? FileManager.default.removeItem(at: workDirectory)
    }

    /// Checks, before any scenario runs, that a file store can be used:
    /// the data set cache and the run's work directory under `TMPDIR` can
    /// be created. Fails with one line naming the directory and the reason.
    /// Removes the work directories of runs whose process is gone (a
    /// SIGKILL leaves its copies of the data sets behind).
    public func prepare() throws {
        guard options.configuration.store == .file else { return }
        do {
            try cache.prepare()
            Self.removeDeadRuns(in: workDirectory.deletingLastPathComponent())
            if mkdir(workDirectory.path, 0o700) != 0, errno != EEXIST {
                throw ScenarioFailure("cannot create the run's work directory \(workDirectory.path): \(String(cString: strerror(errno)))")
            }
            try DataSetCache.checkPrivateDirectory(
                workDirectory.path, what: "the run's work directory", remedy: DataSetCache.remedy)
        } catch let failure as DataSetFailure {
            // One line, exit code 2 (RunSession's SettingsError).
            throw ScenarioFailure(failure.description)
        }
    }

    /// Runs the scenarios in order; a failing one does not stop the others.
    public func run(_ scenarios: [Scenario]) -> [ScenarioReport] {
        scenarios.map { run($0) }
    }

    public func run(_ scenario: Scenario) -> ScenarioReport {
        var report = ScenarioReport(name: scenario.name, description: scenario.summary, dataSet: scenario.dataSet.name, status: .passed)
        if cancellation.isInterrupted {
            report.status = .skipped
            report.error = "not run: \(cancellation.reason ?? "interrupted")"
            return report
        }
        do {
            try options.recordedConfiguration.validate()
        } catch {
            report.status = .failed
            report.error = error.description
            return report
        }
        let number = cancellation.begin()
        if let limit = options.configuration.timeoutSeconds {
            let cancellation = self.cancellation
            DispatchQueue.global().asyncAfter(deadline: .now() + limit) {
                cancellation.timeOut(number, "timed out after \(limit) s")
            }
        }
        if options.configuration.store == .memory, let reason = scenario.needsFileStore {
            report.status = .skipped
            report.error = "needs a file store: \(reason)"
            return report
        }
        scale = options.configuration.scale
        do {
            let (fixes, arms) = try measure(scenario, into: &report)
            if let scales = options.configuration.scales { try measure(scenario, at: scales, fixes: fixes, arms: arms, into: &report) }
        } catch {
            report.status = .failed
            report.error = describe(error)
        }
        scale = options.configuration.scale
        progress(.finished(scenario: scenario.name, status: report.status.rawValue))
        return report
    }

    /// The scenario at each of `scales` but the report's, after the
    /// report's own (whose `arms` are given: as it is and with each of
    /// `fixes`), with the same fixes, quietly (the run's sinks see the
    /// report's scale only), one measured iteration after the warm-up (the
    /// counters are exact: what an iteration does, every iteration does),
    /// and each count fitted against the scale (``ScalingFits``). An error
    /// at any scale fails the scenario, with the scale in its reason.
    private func measure(
        _ scenario: Scenario, at scales: [Double], fixes: [InsightFix], arms: [ScenarioReport], into report: inout ScenarioReport
    ) throws {
        var runs: [[ScenarioReport]] = []
        for other in scales {
            if other == options.configuration.scale {
                runs.append(arms)
                continue
            }
            scale = other
            progress(.scale(scenario: scenario.name, scale: other))
            var reports = Array(
                repeating: ScenarioReport(name: scenario.name, description: scenario.summary, dataSet: scenario.dataSet.name, status: .passed),
                count: arms.count)
            do {
                try measure(
                    scenario, arms: [options.whatIf] + fixes.map(Self.whatIf(for:)), into: &reports, quietly: true, iterations: 1,
                    warmup: options.configuration.warmup)
            } catch where cancellation.reason == nil && !(error is DataSetFailure) {
                throw ScenarioFailure("at scale \(ScalingFit.number(other)): \(error)")
            }
            runs.append(reports)
        }
        report.scaling = ScalingFits(
            scales: scales, runs: runs.map { $0[0] },
            fixes: fixes.enumerated().map { index, fix in (fix, runs.map { $0[index + 1] }) })
    }

    /// The scenario measured as it is and, with `--what-if`, each fix a
    /// run can apply (a prefetch or values loaded at the fetch, an index on
    /// a copy of the data set) in the same stretch of time: one arm as it
    /// is (the run's own: the report's figures, the user's sinks, the
    /// events kept) and one arm per fix, iteration by iteration in turn (in
    /// alternate order), so that a machine whose speed drifts moves them
    /// all alike and every fix is judged against the one "as it is". The
    /// fixes come from a first iteration as it is, unmeasured and unseen
    /// by the sinks (the insights of a scenario are the same in every
    /// iteration). Insights done on purpose are measured too: what the fix
    /// would save is what such a scenario teaches (SingleFault's prefetch).
    /// A fix whose arm fails is judged failed; the run's own arm failing
    /// fails the scenario.
    /// Returns the fixes measured and the report of each arm (as it is
    /// first).
    private func measure(_ scenario: Scenario, into report: inout ScenarioReport) throws -> (fixes: [InsightFix], arms: [ScenarioReport]) {
        var fixes: [InsightFix] = []
        if options.configuration.measuresFixes {
            var probe = [ScenarioReport(name: scenario.name, description: scenario.summary, dataSet: scenario.dataSet.name, status: .passed)]
            try measure(scenario, arms: [options.whatIf], into: &probe, quietly: true, iterations: 1, warmup: 0)
            for fix in probe[0].insights.compactMap(\.fix) where !fixes.contains(fix) { fixes.append(fix) }
        }
        var reports = Array(repeating: report, count: 1 + fixes.count)
        for fix in fixes { progress(.whatIf(scenario: scenario.name, fix: fix.summary)) }
        try measure(
            scenario, arms: [options.whatIf] + fixes.map(Self.whatIf(for:)), into: &reports, quietly: false,
            iterations: options.configuration.iterations, warmup: options.configuration.warmup)
        report = reports[0]
        for index in report.insights.indices {
            guard let fix = report.insights[index].fix, let position = fixes.firstIndex(of: fix) else { continue }
            report.insights[index].whatIf = WhatIfOutcome.judge(fix, before: report, after: reports[position + 1])
        }
        return (fixes, reports)
    }

    /// A scenario's error for its report. A cancelled store says why it was
    /// cancelled, whatever failed. A data set that could not be built,
    /// copied or verified stops the run: its line is the report's error and
    /// goes to the progress display.
    private func describe(_ error: any Error) -> String {
        if let reason = cancellation.reason { return "stopped: \(reason)" }
        guard let failure = error as? DataSetFailure else { return "\(error)" }
        cancellation.fail(failure)
        progress(.dataSetFailed(failure.description))
        return failure.description
    }

    /// The store's what-if for one fix.
    static func whatIf(for fix: InsightFix) -> WhatIf {
        switch fix.kind {
        case .prefetch:
            WhatIf(fetchAmendments: fix.fetchSites.map { FetchAmendment(entity: fix.entity, site: $0, prefetching: [fix.keyPath]) })
        case .loadValues:
            WhatIf(fetchAmendments: fix.fetchSites.map { FetchAmendment(entity: fix.entity, site: $0, loadsValues: true) })
        case .index:
            WhatIf(indexes: [WhatIf.Index(entity: fix.entity, attribute: fix.keyPath)])
        }
    }

    /// A store for iteration `index` of the arm at `position` (0: the
    /// run's own; 1: a fix's), on the arm's working copy: made for its
    /// first store, brought back to the data set's bytes for the next.
    private func makeStore(for scenario: Scenario, arm: Arm, position: Int, index: Int, quietly: Bool) throws -> Store {
        var configuration = StoreConfiguration()
        // The user's sinks (a SQL log, LTTng) see the run, not its what-ifs.
        configuration.sinks = [arm.recorder] + (quietly ? [] : options.sinks)
        configuration.persistentHistoryTracking = scenario.persistentHistory
        configuration.whatIf = arm.whatIf
        switch options.configuration.store {
        case .file:
            let kind = scenario.dataSet.name
            let cancellation = self.cancellation
            let source = try cache.file(
                for: scenario.dataSet, scale: scale, seed: options.configuration.seed, progress: { progress(.building($0)) },
                step: { progress(.buildStep(dataSet: kind, done: $0, total: $1)) }, stopReason: { cancellation.reason })
            let copy: String
            if let previous = arm.copy, arm.copyMethod == .bytes, try DataSetCache.restore(previous, from: source) != nil {
                copy = previous
            } else {
                // A reflink is made anew; a copy whose store is still open
                // is left to it under its name (a closing store removes
                // its `-wal` by that name), a new one made beside it.
                if let previous = arm.copy { DataSetCache.remove(previous) }
                copy = storeCopy(for: scenario, arm: position, index: index)
                // The run's work directory (private, made by prepare() when
                // the runner was prepared) and the scenario's folder in it.
                for folder in [workDirectory.path, (copy as NSString).deletingLastPathComponent] {
                    guard mkdir(folder, 0o700) == 0 || errno == EEXIST else {
                        throw DataSetFailure(source, "cannot copy the data set to \(copy)", errno: errno)
                    }
                }
                arm.copy = nil
                arm.copyMethod = try DataSetCache.copy(source, to: copy)
                arm.copy = copy
            }
            let store = try Store(model: scenario.dataSet.model, location: .file(copy), configuration: configuration)
            cancellation.attach(store)
            return store
        case .memory:
            let store = try Store(model: scenario.dataSet.model, location: .memory, configuration: configuration)
            try scenario.dataSet.build(into: store, scale: scale, seed: options.configuration.seed)
            cancellation.attach(store)
            return store
        }
    }

    /// Removes `faultline-run-PID-…` directories whose process is gone:
    /// the effective user's own only (another user's in a shared `/tmp` is
    /// theirs, and not root's to delete through).
    static func removeDeadRuns(in directory: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix("faultline-run-") {
            let digits = name.dropFirst("faultline-run-".count).prefix { $0.isNumber }
            guard let pid = Int32(digits), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            let path = directory.appendingPathComponent(name)
            var info = stat()
            guard lstat(path.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid() else { continue }
            try? FileManager.default.removeItem(at: path)
        }
    }

    /// The recorder a scenario runs with, as perf-run runs it (a benchmark
    /// measures the same): counters, statement aggregates and the insights'
    /// evidence with bound values, and events only when a trace file or a
    /// timeline asks for them.
    public static func recorder(keeping keptEvents: Int = 0) -> Recorder {
        Recorder(bufferCapacity: keptEvents, tracksArguments: true)
    }

    /// Where iteration `index` of a scenario's `arm` works on its copy of the data set.
    private func storeCopy(for scenario: Scenario, arm: Int, index: Int) -> String {
        workDirectory.appendingPathComponent(scenario.name).appendingPathComponent(arm == 0 ? "store-\(index).sqlite" : "fixed-\(index).sqlite").path
    }

    /// What one configuration of a scenario (an arm) gathers over its iterations.
    private final class Arm {
        let whatIf: WhatIf
        let recorder: Recorder
        var store: Store?
        /// The working copy of the data set, and how it was made.
        var copy: String?
        var copyMethod = DataSetCache.CopyMethod.bytes
        var samples: [Sample] = []
        /// The machine's speed before each measured iteration (the run's own arm only).
        var probes: [MachineSpeedProbe.Timing] = []
        /// Before each measured iteration of a scenario that writes: a page synced to the disk.
        var syncs: [Double] = []
        var counters: [[String: Int]] = []
        var values: [[String: Double]] = []
        var phases: [[PhaseMeasurement]] = []
        var breakdowns: [TimeBreakdown] = []
        var statements: [StatementAggregate] = []
        /// Each shape's execution times over the measured iterations, and
        /// the p90 of each iteration that ran it.
        var durations: [String: (all: DurationHistogram, iterationP90s: [UInt64])] = [:]
        /// Why a fix's arm stopped (its error): the other arms go on.
        var failure: String?

        init(whatIf: WhatIf, recorder: Recorder) {
            self.whatIf = whatIf
            self.recorder = recorder
        }
    }

    /// Runs the scenario's iterations once per arm (a configuration of the
    /// store: the run's, a fix's), the arms' iterations in turn, in
    /// alternate order, and fills one report per arm. Only the first arm
    /// reports progress, keeps events and reaches the run's own sinks when
    /// `quietly` is false. An error of the first arm is the error; a fix's
    /// arm that fails stops alone and its report says why (a stop of the
    /// run, or a data set that cannot be used, stops them all).
    private func measure(
        _ scenario: Scenario, arms whatIfs: [WhatIf], into reports: inout [ScenarioReport], quietly: Bool, iterations: Int, warmup: Int
    ) throws {
        // A scenario's copies go when it ends, whatever happened.
        defer { try? FileManager.default.removeItem(at: workDirectory.appendingPathComponent(scenario.name)) }
        let arms = whatIfs.enumerated().map { number, whatIf in
            Arm(whatIf: whatIf, recorder: Self.recorder(keeping: number == 0 && !quietly ? options.keptEvents : 0))
        }
        let total = warmup + iterations
        for index in 0..<total {
            let measured = index >= warmup
            let number = measured ? index - warmup + 1 : index - warmup
            if !quietly {
                progress(measured
                    ? .iteration(scenario: scenario.name, index: number, total: iterations, warmup: false)
                    : .iteration(scenario: scenario.name, index: index + 1, total: warmup, warmup: true))
            }
            // In alternate order: no arm always runs just after another.
            let order = index % 2 == 0 ? Array(arms.indices) : Array(arms.indices.reversed())
            for position in order where arms[position].failure == nil {
                do {
                    try iterate(
                        scenario, arm: arms[position], position: position, index: index, number: number, measured: measured,
                        last: index == total - 1, quietly: quietly, into: &reports[position])
                } catch where position > 0 && cancellation.reason == nil && !(error is DataSetFailure) {
                    arms[position].failure = "\(error)"
                    arms[position].store = nil
                }
            }
        }
        for (position, arm) in arms.enumerated() {
            if let failure = arm.failure {
                reports[position].status = .failed
                reports[position].error = failure
            } else {
                fill(&reports[position], from: arm, scenario: scenario)
            }
        }
    }

    /// One iteration of one arm: its store made or brought back, the body
    /// run and timed, what it did gathered (and, for the last, the
    /// insights, and the events the run keeps).
    private func iterate(
        _ scenario: Scenario, arm: Arm, position: Int, index: Int, number: Int, measured: Bool, last: Bool, quietly: Bool,
        into report: inout ScenarioReport
    ) throws {
        if arm.store == nil || (scenario.writes && index > 0) {
            // The last iteration's store closes before its copy is
            // restored or removed: one copy per arm on disk at a time.
            arm.store = nil
            cancellation.detach()
            arm.store = try makeStore(for: scenario, arm: arm, position: position, index: index, quietly: quietly || position > 0)
        }
        let store = arm.store!
        // A stop reaches the store that runs now (and stops one that
        // was stopped while the other arm ran).
        cancellation.attach(store)
        let recorder = arm.recorder
        // What contexts that outlive an iteration did before is not this one's.
        store.reportUsage()
        recorder.reset()
        store.instrumentation.resetPeak()
        let iteration = ScenarioIteration(
            store: store, scale: scale, seed: options.configuration.seed, scenario: scenario.name, recorder: recorder)
        emit(store, scenario.name, phase: .iterationBegin, iteration: number)
        if measured { TerminationSignals.checkpoint("run.scenario") }
        // The machine's speed now, on a fixed workload, before the body
        // (a fix's arm runs between the run's iterations: it needs none).
        if measured, position == 0 {
            arm.probes.append(MachineSpeedProbe.run())
            if scenario.writes, let sync = MachineSpeedProbe.sync(in: workDirectory.appendingPathComponent(scenario.name).path) {
                arm.syncs.append(sync)
            }
        }
        let memoryReset = ProcessMeasurements.resetPeakResident()
        let cpuStart = ProcessMeasurements.cpuSeconds()
        let wallStart = ProbeClock.now()
        try scenario.body(iteration)
        let wall = Double(ProbeClock.nanoseconds(since: wallStart)) / 1e9
        let cpu = ProcessMeasurements.cpuSeconds() - cpuStart
        // The usage of prefetches and fetches of contexts the body keeps
        // alive is the iteration's, as a `measure` block sees it.
        store.reportUsage()
        emit(store, scenario.name, phase: .iterationEnd, iteration: number)
        guard measured else { return }
        arm.samples.append(Sample(
            wallSeconds: wall, cpuSeconds: cpu, peakResidentBytes: memoryReset ? ProcessMeasurements.peakResidentBytes() : nil))
        var iterationCounters = recorder.counters
        iterationCounters.objectsRegisteredPeak = store.instrumentation.objectsRegisteredPeak
        arm.counters.append(Dictionary(uniqueKeysWithValues: iterationCounters.all.map { ($0.name, $0.value) }))
        arm.values.append(iteration.values)
        arm.phases.append(iteration.phases)
        let snapshot = recorder.snapshot()
        arm.statements = snapshot.statements
        for statement in snapshot.statements {
            guard let durations = statement.durations, !durations.isEmpty else { continue }
            arm.durations[statement.shape, default: (DurationHistogram(), [])].all.add(durations)
            arm.durations[statement.shape]!.iterationP90s.append(durations.nanoseconds(atPercentile: 90))
        }
        let sqlite = Double(snapshot.sqlNanoseconds) / 1e9
        let rowCache = Double(snapshot.rowCacheNanoseconds) / 1e9
        arm.breakdowns.append(TimeBreakdown(iterationWallSeconds: wall, sqliteSeconds: sqlite, rowCacheSeconds: rowCache))
        guard last else { return }
        report.insights = InsightEngine(settings: scenario.insights.merging(options.insightSettings)).insights(snapshot.evidence)
        let unmatched = InsightEngine.unmatchedIntentions(snapshot.evidence, insights: report.insights)
        report.unmatchedIntentions = unmatched.isEmpty ? nil : unmatched
        if position == 0, !quietly, options.keptEvents > 0 {
            events += snapshot.events
            report.droppedEvents = snapshot.droppedEvents > 0 ? snapshot.droppedEvents : nil
        }
    }

    /// A report's figures from what an arm gathered.
    private func fill(_ report: inout ScenarioReport, from arm: Arm, scenario: Scenario) {
        let (samples, counters, breakdowns) = (arm.samples, arm.counters, arm.breakdowns)
        report.samples = samples
        report.machineProbe = arm.probes.isEmpty ? nil : MachineProbe(
            cpuSeconds: arm.probes.map(\.cpuSeconds), wallSeconds: arm.probes.map(\.wallSeconds),
            syncSeconds: arm.syncs.count == arm.probes.count ? arm.syncs : nil)
        report.summary = Summary(wallSeconds: Statistics(samples.map(\.wallSeconds)), cpuSeconds: Statistics(samples.map(\.cpuSeconds)))
        report.counters = counters.last ?? [:]
        var advisory = Set(scenario.timingDependent ? Counters.names : Array(Counters.advisoryByNature))
        for name in Counters.names where Set(counters.map { $0[name] ?? 0 }).count > 1 { advisory.insert(name) }
        report.advisoryCounters = advisory.sorted()
        // The median iteration's parts: they add up to the median wall time.
        report.timeBreakdown = TimeBreakdown.median(of: breakdowns, concurrent: scenario.timingDependent)
        let figures = Self.figures(arm.values)
        report.values = figures.mapValues(\.median)
        report.valueStatistics = figures.isEmpty ? nil : figures
        report.phases = Self.phases(arm.phases)
        // Plans asked for once per shape, now that nothing is timed.
        let plans = StatementPlans.plans(
            of: arm.statements.filter { $0.queryPlan == nil }.compactMap(\.firstText), model: scenario.dataSet.model, whatIf: arm.whatIf,
            persistentHistory: scenario.persistentHistory)
        report.statements = arm.statements.map { aggregate in
            StatementReport(
                shape: aggregate.shape, purpose: aggregate.purpose, count: aggregate.count,
                totalSeconds: Double(aggregate.totalNanoseconds) / 1e9, maxSeconds: Double(aggregate.maxNanoseconds) / 1e9,
                rowsReturned: aggregate.rowsReturned, rowsChanged: aggregate.rowsChanged, fullScanSteps: aggregate.fullScanSteps,
                firstCallSite: aggregate.firstCallSite.description, queryPlan: aggregate.queryPlan ?? aggregate.firstText.flatMap { plans[$0] },
                durations: arm.durations[aggregate.shape].map { StatementDurations($0.all, iterationP90Nanoseconds: $0.iterationP90s) })
        }
    }

    /// Each figure over the iterations that recorded it.
    static func figures(_ iterations: [[String: Double]]) -> [String: Statistics] {
        var samples: [String: [Double]] = [:]
        for values in iterations {
            for (name, value) in values { samples[name, default: []].append(value) }
        }
        return samples.mapValues { Statistics($0) }
    }

    /// Phases by name, in the order the last iteration ran them, with the
    /// samples of every iteration and the counters of the last.
    static func phases(_ iterations: [[PhaseMeasurement]]) -> [PhaseReport]? {
        guard let last = iterations.last, !last.isEmpty else { return nil }
        return last.map { phase in
            let all = iterations.compactMap { $0.first { $0.name == phase.name } }
            return PhaseReport(
                name: phase.name, samples: all.map(\.seconds), cpuSamples: all.map(\.cpuSeconds), sqliteSeconds: all.map(\.sqliteSeconds),
                counters: phase.counters)
        }
    }

    private func emit(_ store: Store, _ scenario: String, phase: ScenarioPhase, iteration: Int) {
        guard store.instrumentation.isOn(.scenario) else { return }
        store.instrumentation.emit(.scenario(ScenarioEvent(
            start: ProbeClock.now(), thread: ProbeClock.threadID(), scenario: scenario, phase: phase, step: "", iteration: iteration)))
    }
}
