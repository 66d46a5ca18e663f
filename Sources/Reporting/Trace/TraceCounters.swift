import Foundation
import Probes

/// Counters rebuilt from an LTTng trace read back with babeltrace2's text
/// output: per scenario, over the events between its last
/// `iteration-begin` and `iteration-end` (the last measured iteration), so
/// they can be checked against the recorder's.
public struct TraceCounters {
    /// Counters per scenario so far.
    public private(set) var result: [String: Counters] = [:]
    private let processID: Int32?
    private var scenario: String?
    private var current = Counters()
    private var inIteration = false

    /// Counts only events of `processID` when given (the trace needs the
    /// `vpid` context then).
    public init(processID: Int32? = nil) {
        self.processID = processID
    }

    /// Counters per scenario from babeltrace2's lines.
    public static func read(_ lines: some Sequence<Substring>, processID: Int32? = nil) -> [String: Counters] {
        var counters = TraceCounters(processID: processID)
        for line in lines { counters.consume(line) }
        return counters.result
    }

    /// Reads one line of babeltrace2's text output.
    public mutating func consume(_ line: Substring) {
        do {
            if let processID, !line.contains("vpid = \(processID) }") { return }
            guard let start = line.range(of: " faultline:") else { return }
            let name = line[start.upperBound...].prefix { $0 != ":" }
            switch name {
            case "scenario":
                let phase = Self.field(line, "phase")
                if phase == ScenarioPhase.iterationBegin.rawValue {
                    scenario = Self.field(line, "scenario")
                    current = Counters()
                    inIteration = true
                } else if phase == ScenarioPhase.iterationEnd.rawValue, inIteration, let scenario {
                    result[scenario] = current
                    inIteration = false
                }
            case "fetch" where inIteration:
                current.fetches += 1
            case "fault" where inIteration:
                // One event stands for a run of `count` row-cache faults.
                let count = Int(Self.field(line, "count") ?? "") ?? 1
                current.faultsFired += count
                switch Self.field(line, "source") {
                case "row cache": current.cacheHits += count
                case "database": current.cacheMisses += count
                default: break
                }
            case "relationship_fault" where inIteration:
                current.relationshipFaultsFired += 1
                if Self.field(line, "source") == "database" { current.cacheMisses += 1 }
            case "sql" where inIteration:
                current.sqlStatements += 1
                current.rowsRead += Int(Self.field(line, "rows_returned") ?? "") ?? 0
                current.rowsWritten += Int(Self.field(line, "rows_changed") ?? "") ?? 0
                current.fullScanSteps += Int(Self.field(line, "full_scan_steps") ?? "") ?? 0
            case "save" where inIteration:
                current.saves += 1
            case "batch_request" where inIteration:
                current.batchRequests += 1
            default:
                return
            }
        }
    }

    /// The value of `name = value` in a babeltrace2 line (quotes removed).
    static func field(_ line: Substring, _ name: String) -> String? {
        guard let range = line.range(of: " \(name) = ") else { return nil }
        let rest = line[range.upperBound...]
        if rest.first == "\"" {
            var value = ""
            var escaped = false
            for character in rest.dropFirst() {
                if escaped {
                    value.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    return value
                } else {
                    value.append(character)
                }
            }
            return value
        }
        return String(rest.prefix { $0 != "," && $0 != " " && $0 != "}" })
    }
}
