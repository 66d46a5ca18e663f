import Foundation
import ToolSupport

/// The runs a history query found, as `perf-run history list` shows them:
/// a line per run (time, project, branch, runner, commit, scenarios,
/// identity) as text; as JSON, each run's labels and its report's
/// summary (the reports themselves stay in the store).
public struct HistoryListing: Renderable, Sendable {
    public struct Entry: Codable, Equatable, Sendable {
        public var identity: RunIdentity
        public var project: String
        public var branch: String
        public var runner: String
        public var commit: String
        /// ISO 8601, UTC, to the microsecond.
        public var time: String
        public var scale: Double
        public var scenarios: Int
        public var failedScenarios: Int

        public init(_ run: HistoryRun) {
            identity = run.identity
            project = run.project
            branch = run.branch
            runner = run.runner
            commit = run.commit
            time = HistoryTime.text(run.time)
            scale = run.report.configuration.scale
            scenarios = run.report.scenarios.count
            failedScenarios = run.report.scenarios.filter { $0.status == .failed }.count
        }
    }

    public var entries: [Entry]

    public init(_ runs: [HistoryRun]) { entries = runs.map(Entry.init) }

    public var outputFormats: [OutputFormat] { [.text, .json] }

    public func render(_ format: OutputFormat) throws(OutputError) -> String {
        switch format {
        case .text:
            guard !entries.isEmpty else { return "no runs\n" }
            let header = ["time", "project", "branch", "runner", "commit", "scale", "scenarios", "run"]
            let rows = entries.map { entry in
                [
                    String(entry.time.prefix(19)) + "Z", entry.project, entry.branch, entry.runner, String(entry.commit.prefix(12)),
                    Self.number(entry.scale),
                    entry.failedScenarios > 0 ? "\(entry.scenarios) (\(entry.failedScenarios) failed)" : "\(entry.scenarios)",
                    entry.identity.rawValue,
                ]
            }
            let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
            func line(_ cells: [String]) -> String {
                cells.enumerated().map { index, cell in
                    index == cells.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
                }.joined(separator: "  ") + "\n"
            }
            return ([header] + rows).map(line).joined() + "\(entries.count) run\(entries.count == 1 ? "" : "s")\n"
        case .json:
            return try json(entries)
        default:
            throw unsupported(format)
        }
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
