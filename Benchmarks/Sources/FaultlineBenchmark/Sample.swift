import Foundation

/// What one worker process measured: one sample of one pattern and variant.
struct Sample: Codable, Sendable {
    var seconds: Double
    /// Object accesses (the pattern's ``Pattern/accessUnit``).
    var accesses: Int
    /// Peak resident memory of the whole worker process
    /// (``ProcessMeasurements/peakResidentBytes()``).
    var peakResidentBytes: Int
    /// Rows read and statements executed, where the variant knows them.
    var rowsRead: Int?
    var statements: Int?
    /// What the pattern found (names read, people, objects, rows), where
    /// the variant computes it: Faultline's and GRDB's must agree.
    var result: Int?
}
