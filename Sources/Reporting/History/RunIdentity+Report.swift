import Foundation

extension RunIdentity {
    /// The identity of a report's run: the identifier `perf-run run`
    /// stamped into it (``Report/RunStamp``), else, for a report written
    /// before runs were stamped, `sha256:` and the digest of the report's
    /// bytes as read (or, without them, of its JSON as perf-run writes it).
    ///
    /// So adding one report file twice keeps one run, and two runs are
    /// never merged: each run has its own identifier, and two unstamped
    /// reports that differ in any byte (their timings do) differ in digest.
    public static func of(_ report: Report, bytes: Data? = nil) -> RunIdentity {
        if let stamp = report.run { return RunIdentity(rawValue: stamp.identifier) }
        let data = bytes ?? (try? ReportFile.json(report, pretty: false)) ?? Data()
        return RunIdentity(rawValue: "sha256:" + SHA256.hex(data))
    }
}
