// What a test needs comes with this module: `import Faultline` alone gives
// the store (ObjectGraph), the counters and call sites (Probes), and the
// insights, their rules' identities and settings (Insights), so that a test
// target that depends only on the `Faultline` product can write
// `try measurement.requireNoInsight(.nPlusOne)` and pass `InsightSettings`.
@_exported import Insights
@_exported import ObjectGraph
@_exported import Probes

/// Measuring persistence code in an application's own tests.
///
/// ```swift
/// let store = try Store(model: model, location: .file(path), configuration: {
///     var configuration = StoreConfiguration()
///     configuration.allowsMeasurement = true
///     return configuration
/// }())
/// let (rows, measurement) = try Faultline.measure(store) {
///     try ListScreen.load(in: context)
/// }
/// try measurement.requireNoNPlusOne()
/// try measurement.requireAtMost(statements: 3)
/// ```
///
/// A failing check is recorded at the line that called it, with the
/// statements the block ran and the insights: as an issue in Swift
/// Testing, as a failure in XCTest (``MeasurementCheck``). This is how a
/// team gates N+1 regressions in ordinary unit tests.
public enum Faultline {
    /// Runs `body` with a recorder attached to `store` and returns what the
    /// store did meanwhile: exact counters, statements by shape, insights
    /// (the same rules and words as `perf-run run` and `perf-run log`,
    /// with `insights`' thresholds). Work on the store from other threads
    /// during `body` is counted too.
    ///
    /// The block sees what its contexts did however long they live: when
    /// it ends, every context of the store alive then reports its
    /// prefetches' and fetches' usage (``Store/reportUsage()``; a prefetch
    /// the block made and did not read is an `unused-prefetch`, a fetch
    /// whose objects it only counted a `count-by-fetch`), and
    /// `objectsRegisteredPeak` is the store's peak during the block (the
    /// objects registered in all its contexts at once, those registered
    /// before the block included), not only what the block's context events
    /// said. The store's peak starts again from its count when a block begins.
    ///
    /// - Throws: ``MeasurementFailure`` when the store does not allow
    ///   measurement or another measurement runs on it; whatever `body` throws.
    public static func measure(_ store: Store, insights: InsightSettings = InsightSettings(), _ body: () throws -> Void) throws -> Measurement {
        try run(store, insights, body).measurement
    }

    /// Runs `body` as ``measure(_:insights:_:)-(_,_,()->Void)`` does, and
    /// returns its value with the measurement.
    public static func measure<Value>(
        _ store: Store, insights: InsightSettings = InsightSettings(), _ body: () throws -> Value
    ) throws -> (value: Value, measurement: Measurement) {
        try run(store, insights, body)
    }

    /// Measures an async `body` (`try await context.perform { … }` inside):
    /// what ``measure(_:insights:_:)-(_,_,()->Void)`` does, for async code.
    /// One measurement per store at a time, as for the synchronous one.
    public static func measure<Value>(
        _ store: Store, insights: InsightSettings = InsightSettings(), _ body: () async throws -> Value
    ) async throws -> (value: Value, measurement: Measurement) {
        let recorder = try attach(store)
        defer { store.measurementSlot?.detach() }
        let value = try await body()
        return (value, measurement(recorder, store, insights))
    }

    /// Measures an async `body` that returns nothing.
    public static func measure(
        _ store: Store, insights: InsightSettings = InsightSettings(), _ body: () async throws -> Void
    ) async throws -> Measurement {
        try await measure(store, insights: insights) { () async throws -> Void in try await body() }.measurement
    }

    private static func run<Value>(
        _ store: Store, _ insights: InsightSettings, _ body: () throws -> Value
    ) throws -> (value: Value, measurement: Measurement) {
        let recorder = try attach(store)
        defer { store.measurementSlot?.detach() }
        let value = try body()
        return (value, measurement(recorder, store, insights))
    }

    /// A recorder attached to the store's measurement slot, or why not.
    private static func attach(_ store: Store) throws -> Recorder {
        guard let slot = store.measurementSlot else {
            throw MeasurementFailure("the store does not allow measurement: set StoreConfiguration.allowsMeasurement = true when opening it")
        }
        let recorder = Recorder(bufferCapacity: 0, tracksArguments: true)
        guard !slot.isEnabled(.context) else {
            throw MeasurementFailure("another measurement is running on this store: measure one block at a time")
        }
        // What the contexts counted before the block is reported before it.
        store.reportUsage()
        guard slot.attach(recorder) else {
            throw MeasurementFailure("another measurement is running on this store: measure one block at a time")
        }
        store.instrumentation.resetPeak()
        return recorder
    }

    /// What the recorder counted, with the insights they give: the
    /// contexts still alive report their prefetches' usage first, and the
    /// peak is the store's during the block.
    private static func measurement(_ recorder: Recorder, _ store: Store, _ insights: InsightSettings) -> Measurement {
        store.reportUsage()
        let snapshot = recorder.snapshot()
        var counters = snapshot.counters
        counters.objectsRegisteredPeak = max(counters.objectsRegisteredPeak, store.instrumentation.objectsRegisteredPeak)
        let found = InsightEngine(settings: insights).insights(snapshot.evidence)
        var measurement = Measurement(
            counters: counters, statements: snapshot.statements, insights: found, sqliteSeconds: Double(snapshot.sqlNanoseconds) / 1e9)
        measurement.unmatchedIntentions = InsightEngine.unmatchedIntentions(snapshot.evidence, insights: found)
        return measurement
    }
}
