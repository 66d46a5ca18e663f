import Faultline
import Foundation
import ObjectGraph
import Probes

/// A fresh store of a generated model, in a file of its own, that
/// `Faultline.measure` can measure.
enum GeneratedStore {
    static func make(_ model: Model) throws -> Store {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-generated-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = StoreConfiguration()
        configuration.allowsMeasurement = true
        return try Store(model: model, location: .file(directory.appendingPathComponent("store.sqlite").path), configuration: configuration)
    }
}

extension FaultlineMeasurement {
    /// The counters these tests assert exactly, by name: all but the
    /// advisory `objectsRegisteredPeak` and SQLite's own `fullScanSteps` and
    /// `vmSteps` (SQLite's figures, which change with its version).
    var exactCounters: [String: Int] {
        counters.byName.filter {
            $0.key != CounterName.objectsRegisteredPeak.rawValue && $0.key != CounterName.fullScanSteps.rawValue
                && $0.key != CounterName.vmSteps.rawValue
        }
    }
}

/// Counters by name, every one of ``Measurement/exactCounters`` (zero
/// unless given).
func counters(
    fetches: Int = 0, faultsFired: Int = 0, relationshipFaultsFired: Int = 0, cacheHits: Int = 0, cacheMisses: Int = 0,
    sqlStatements: Int = 0, rowsRead: Int = 0, rowsWritten: Int = 0, saves: Int = 0
) -> [String: Int] {
    [
        "fetches": fetches, "faultsFired": faultsFired, "relationshipFaultsFired": relationshipFaultsFired, "cacheHits": cacheHits,
        "cacheMisses": cacheMisses, "sqlStatements": sqlStatements, "rowsRead": rowsRead, "rowsWritten": rowsWritten, "saves": saves,
        "batchRequests": 0,
    ]
}
