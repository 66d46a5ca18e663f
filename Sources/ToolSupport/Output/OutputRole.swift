/// What an output of a command is, the key a command finds its outputs by:
/// the command's document (in whichever format), or a file of its own kind
/// (a trace, a log). The option that named an output is for messages only.
public struct OutputRole: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// The command's document: a report, a comparison, a log's analysis.
    public static let document = OutputRole(rawValue: "document")
    /// The run's events as a Chrome/Perfetto trace file (`--trace-events`).
    public static let traceEvents = OutputRole(rawValue: "trace-events")
    /// The SQL debug log a run appends to (`--sql-log`, `FAULTLINE_SQL_LOG`).
    public static let sqlLog = OutputRole(rawValue: "sql-log")
}
