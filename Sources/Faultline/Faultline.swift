import ObjectGraph
import Probes
import Reporting

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

    private static func run<Value>(
        _ store: Store, _ insights: InsightSettings, _ body: () throws -> Value
    ) throws -> (value: Value, measurement: Measurement) {
        guard let slot = store.measurementSlot else {
            throw MeasurementFailure("the store does not allow measurement: set StoreConfiguration.allowsMeasurement = true when opening it")
        }
        let recorder = Recorder(bufferCapacity: 0, tracksArguments: true)
        guard slot.attach(recorder) else {
            throw MeasurementFailure("another measurement is running on this store: measure one block at a time")
        }
        defer { slot.detach() }
        let value = try body()
        let snapshot = recorder.snapshot()
        let measurement = Measurement(
            counters: snapshot.counters, statements: snapshot.statements,
            insights: InsightEngine(settings: insights).insights(snapshot.evidence),
            sqliteSeconds: Double(snapshot.sqlNanoseconds) / 1e9)
        return (value, measurement)
    }
}
