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
/// let measurement = try Faultline.measure(store) {
///     try context.perform { try ListScreen.load(in: context) }
/// }
/// try measurement.requireNoFaultStorm()
/// try measurement.requireAtMost(statements: 3)
/// ```
///
/// The checks throw a ``MeasurementFailure`` whose description lists the
/// statements the block ran, with their call sites, and the insights: a
/// thrown error fails a Swift Testing test or a throwing XCTest method, so
/// the same checks serve both. This is how a team gates N+1 regressions in
/// ordinary unit tests.
public enum Faultline {
    /// Runs `body` with a recorder attached to `store` and returns what the
    /// store did meanwhile: exact counters, statements by shape, insights.
    /// Work on the store from other threads during `body` is counted too.
    ///
    /// - Throws: ``MeasurementFailure`` when the store does not allow
    ///   measurement or another measurement runs on it; whatever `body` throws.
    public static func measure(_ store: Store, _ body: () throws -> Void) throws -> Measurement {
        guard let slot = store.measurementSlot else {
            throw MeasurementFailure("the store does not allow measurement: set StoreConfiguration.allowsMeasurement = true when opening it")
        }
        let recorder = Recorder(bufferCapacity: 0, tracksArguments: true)
        guard slot.attach(recorder) else {
            throw MeasurementFailure("another measurement is running on this store: measure one block at a time")
        }
        defer { slot.detach() }
        try body()
        let snapshot = recorder.snapshot()
        return Measurement(
            counters: snapshot.counters, statements: snapshot.statements,
            insights: InsightRules(indexedColumns: store.model.indexedColumns).analyze(snapshot.evidence),
            sqliteSeconds: Double(snapshot.sqlNanoseconds) / 1e9)
    }
}
