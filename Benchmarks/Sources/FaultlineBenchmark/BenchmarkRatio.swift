/// A per-round ratio of two variants' times, as the results file keys it
/// (``BenchmarkResults/PatternResult/ratios``).
enum BenchmarkRatio: String, CaseIterable, Sendable {
    /// Faultline with the recorder over the SQLite C API doing the same SQL.
    case faultlineOverLimit = "faultline/limit"
    /// Faultline with the recorder over GRDB.
    case faultlineOverGRDB = "faultline/grdb"
    /// Faultline with the recorder over Faultline with no sink.
    case recorderOverSinksOff = "recorder/sinks-off"
    /// Generated classes over hand-written ones, both with the recorder.
    case generatedOverHandWritten = "generated/hand-written"

    /// The table's column for it.
    var column: String {
        switch self {
        case .faultlineOverLimit: "F / limit"
        case .faultlineOverGRDB: "F / GRDB"
        case .recorderOverSinksOff: "recorder cost"
        case .generatedOverHandWritten: "generated / hand-written"
        }
    }
}
