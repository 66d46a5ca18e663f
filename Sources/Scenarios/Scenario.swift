import Insights
import ObjectGraph
import Probes

/// A performance experiment: what it demonstrates, the data set it runs
/// on, and one iteration's work.
///
/// A built-in one is a file in Scenarios/ that declares a `Scenario`
/// (BuiltInScenarios' `ScenarioCatalog` lists them); an application declares
/// its own and hands them to `PerfRunCommand.main(scenarios:)`.
public struct Scenario: Sendable {
    public let name: String
    /// One paragraph: what it demonstrates and what to look at in its counters.
    public let summary: String
    public let dataSet: DataSetKind
    /// Whether an iteration changes the store (each iteration then starts
    /// from the data set's exact bytes: a copy restored or reflinked anew).
    public let writes: Bool
    /// Why it cannot run on an in-memory store, if it cannot.
    public let needsFileStore: String?
    /// Whether its store records persistent history.
    public let persistentHistory: Bool
    /// Whether its counters depend on timing (several threads): all advisory.
    public let timingDependent: Bool
    /// How the insight rules run on it: above all, the patterns it shows
    /// on purpose (``InsightSettings/intended``: a scenario that measures
    /// an N+1 or a repeated statement), which its report shows as intended,
    /// never as advice or a regression.
    public let insights: InsightSettings
    /// One iteration's work. For a scenario declared with an async body,
    /// this runs that body to completion on the calling thread
    /// (``asyncBody``): a benchmark or a test may call it by hand either way.
    public let body: @Sendable (ScenarioIteration) throws -> Void
    /// The async form of one iteration's work, when the scenario was
    /// declared with one (an app's screens are async: `try await
    /// context.perform { … }`); nil for a synchronous body.
    public let asyncBody: (@Sendable (ScenarioIteration) async throws -> Void)?

    /// Why it runs the same statement again on purpose, if it does (the
    /// `repeated-statement` rule's entry of ``insights``' intentions).
    public var repeatsStatements: String? { insights.intended[.repeatedStatement] }

    /// - Parameters:
    ///   - insights: thresholds and intentions for the insight rules.
    ///   - repeatsStatements: why it runs the same statement again on
    ///     purpose (the book's code does): the same as an intention of the
    ///     `repeated-statement` rule in `insights`.
    public init(
        name: String, summary: String, dataSet: DataSetKind, writes: Bool = false, needsFileStore: String? = nil,
        persistentHistory: Bool = false, timingDependent: Bool = false, repeatsStatements: String? = nil,
        insights: InsightSettings = InsightSettings(), body: @escaping @Sendable (ScenarioIteration) throws -> Void
    ) {
        self.init(
            name: name, summary: summary, dataSet: dataSet, writes: writes, needsFileStore: needsFileStore,
            persistentHistory: persistentHistory, timingDependent: timingDependent, repeatsStatements: repeatsStatements,
            insights: insights, synchronousBody: body, asyncBody: nil)
    }

    /// A scenario whose iteration is async code, as an app's screens are:
    ///
    /// ```swift
    /// Scenario(name: "RecipeList", summary: "…", dataSet: .cookbook) { iteration in
    ///     let context = iteration.context()
    ///     let titles = try await context.perform { try context.fetch(FetchRequest<Recipe>()).map(\.title) }
    ///     try iteration.check(titles.count == 100, "\(titles.count) recipes")
    /// }
    /// ```
    ///
    /// The runner is synchronous: it runs the body to completion on its
    /// own thread each iteration, as a task whose jobs that thread runs
    /// (no thread of Swift's cooperative pool waits for it, so none can
    /// deadlock on it; docs/scenarios.md). The time measured is the
    /// body's. Work the body must do on the main actor cannot run while
    /// perf-run holds the main thread: keep such a scenario's work off the
    /// main actor, as a context's `perform` is.
    public init(
        name: String, summary: String, dataSet: DataSetKind, writes: Bool = false, needsFileStore: String? = nil,
        persistentHistory: Bool = false, timingDependent: Bool = false, repeatsStatements: String? = nil,
        insights: InsightSettings = InsightSettings(), body: @escaping @Sendable (ScenarioIteration) async throws -> Void
    ) {
        self.init(
            name: name, summary: summary, dataSet: dataSet, writes: writes, needsFileStore: needsFileStore,
            persistentHistory: persistentHistory, timingDependent: timingDependent, repeatsStatements: repeatsStatements,
            insights: insights, synchronousBody: { iteration in
                // The iteration goes to the body's task and comes back when
                // it ends: one thread uses it at a time (AsyncBodyDriver).
                nonisolated(unsafe) let iteration = iteration
                try AsyncBodyDriver.run { try await body(iteration) }
            }, asyncBody: body)
    }

    private init(
        name: String, summary: String, dataSet: DataSetKind, writes: Bool, needsFileStore: String?, persistentHistory: Bool,
        timingDependent: Bool, repeatsStatements: String?, insights: InsightSettings,
        synchronousBody: @escaping @Sendable (ScenarioIteration) throws -> Void,
        asyncBody: (@Sendable (ScenarioIteration) async throws -> Void)?
    ) {
        var insights = insights
        if let repeatsStatements { insights.intended[.repeatedStatement] = repeatsStatements }
        self.insights = insights
        self.persistentHistory = persistentHistory
        self.timingDependent = timingDependent
        self.name = name
        self.summary = summary
        self.dataSet = dataSet
        self.writes = writes
        self.needsFileStore = needsFileStore
        self.body = synchronousBody
        self.asyncBody = asyncBody
    }
}

/// What one iteration of a scenario works with.
public final class ScenarioIteration {
    public let store: Store
    public let scale: Double
    public let seed: UInt64
    let scenario: String
    /// The store's recorder, when the runner measures phases with it.
    let recorder: Recorder?
    /// The figures the scenario recorded (``record(_:_:)``).
    public private(set) var values: [String: Double] = [:]
    /// What each phase did (``phase(_:_:)``), in the order they ran.
    public private(set) var phases: [PhaseMeasurement] = []

    /// An iteration of `scenario` on `store` (the runner makes these; a
    /// benchmark or a test may run a scenario's body by hand). With the
    /// store's `recorder`, each phase also records what it did.
    public init(store: Store, scale: Double, seed: UInt64, scenario: String, recorder: Recorder? = nil) {
        self.store = store
        self.scale = scale
        self.seed = seed
        self.scenario = scenario
        self.recorder = recorder
    }

    /// A new context on the store: every scenario starts on a fresh one.
    public func context(_ name: String = "main") -> ObjectContext {
        ObjectContext(store: store, name: name)
    }

    /// Records one of the scenario's own figures.
    public func record(_ name: String, _ value: Double) {
        values[name] = value
    }

    /// Marks a step (a `scenario` event with the step's name).
    public func step(_ name: String) {
        guard store.instrumentation.isOn(.scenario) else { return }
        store.instrumentation.emit(.scenario(ScenarioEvent(
            start: ProbeClock.now(), thread: ProbeClock.threadID(), scenario: scenario, phase: .step, step: name, iteration: 0)))
    }

    /// Fails the scenario with `message` unless `condition` holds.
    public func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw ScenarioFailure(message()) }
    }

    /// Runs one phase of an experiment (`cold`, `manual`, `batch`) and
    /// records its time as the figure `<name>Seconds`, and, with a
    /// recorder, what it did: the counters and the time in SQLite between
    /// its start and its end. Experiments compare phases on these (a phase
    /// that runs while another thread works on the store counts that
    /// thread's work too).
    public func phase<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        let before = recorder?.totals
        let cpuStart = ProcessMeasurements.cpuSeconds()
        let start = ProbeClock.now()
        let result = try body()
        finishPhase(name, start: start, cpuStart: cpuStart, before: before)
        return result
    }

    /// Records a phase that began at `start` (and `cpuStart`, the process's
    /// CPU time), with the recorder's totals then.
    private func finishPhase(
        _ name: String, start: UInt64, cpuStart: Double, before: (counters: Counters, sqlNanoseconds: UInt64)?
    ) {
        let seconds = Double(ProbeClock.nanoseconds(since: start)) / 1e9
        let cpuSeconds = ProcessMeasurements.cpuSeconds() - cpuStart
        record("\(name)Seconds", seconds)
        if let before, let after = recorder?.totals {
            phases.append(PhaseMeasurement(
                name: name, seconds: seconds, cpuSeconds: cpuSeconds,
                sqliteSeconds: Double(after.sqlNanoseconds &- before.sqlNanoseconds) / 1e9,
                counters: after.counters.difference(from: before.counters)))
        }
    }
}

extension ScenarioIteration {
    /// ``phase(_:_:)`` for an async body: `try await iteration.phase("cold") { try await context.perform { … } }`.
    public func phase<T>(_ name: String, _ body: () async throws -> T) async rethrows -> T {
        let before = recorder?.totals
        let cpuStart = ProcessMeasurements.cpuSeconds()
        let start = ProbeClock.now()
        let result = try await body()
        finishPhase(name, start: start, cpuStart: cpuStart, before: before)
        return result
    }
}

/// What one phase of a scenario's iteration did (``ScenarioIteration/phase(_:_:)``).
public struct PhaseMeasurement: Sendable {
    public var name: String
    public var seconds: Double
    /// The process's CPU time during the phase (every thread's).
    public var cpuSeconds: Double
    /// Time spent in SQLite statements during the phase.
    public var sqliteSeconds: Double
    /// The counters' increase during the phase (the registered-objects peak aside).
    public var counters: [String: Int]
}

/// A scenario that found a wrong result.
public struct ScenarioFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
