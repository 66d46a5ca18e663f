import Foundation

/// The lines of the SQL debug log for one event (docs/sql-debug-log.md).
public enum SQLDebugLogFormat {
    /// The prefix of every line.
    public static let prefix = "faultline: "

    public static func lines(for event: Event, level: Int) -> [String] {
        switch event {
        case .sql(let e):
            var lines = ["\(prefix)sql: \(oneLine(e.sql))"]
            if level >= 2 {
                for (index, argument) in e.arguments.enumerated() {
                    lines.append("\(prefix)details: bind[\(index)] = \(argument)")
                }
            }
            if level >= 4, let plan = e.queryPlan {
                for row in plan {
                    lines.append("\(prefix)plan: \(row)\(QueryPlan.isFullScan(row) ? "  [full scan]" : "")")
                }
            }
            lines.append(
                "\(prefix)annotation: sql execution time: \(seconds(e.durationNanoseconds)), rows: \(e.rowsReturned), "
                    + "changed: \(e.rowsChanged), purpose: \(e.purpose)")
            return lines

        case .fault(let e):
            var lines = ["\(prefix)annotation: fault fulfilled from \(e.source.rawValue) for \(e.objectID) in \(seconds(e.durationNanoseconds))"]
            if level >= 3, let values = e.values { lines.append("\(prefix)details: values of \(e.objectID): \(values)") }
            return lines

        case .relationshipFault(let e):
            return [
                "\(prefix)annotation: to-many relationship fault \"\(e.relationship)\" for \(e.objectID) fulfilled from "
                    + "\(e.source.rawValue): \(e.destinationCount) \(e.destinationEntity) in \(seconds(e.durationNanoseconds))"
            ]

        case .fetch(let e):
            var description = e.resultType == "count" ? "count of \(e.entity)" : "fetch of \(e.entity)"
            if !e.predicate.isEmpty { description += " where \(e.predicate)" }
            if !e.sort.isEmpty { description += " sorted by \(e.sort)" }
            if !e.prefetch.isEmpty { description += " prefetching \(e.prefetch)" }
            let result = e.resultType == "count" ? "\(e.resultCount)" : "\(e.resultCount) \(e.resultType)"
            var lines = ["\(prefix)annotation: \(description): \(result) in \(seconds(e.durationNanoseconds)) at \(e.callSite)"]
            if level >= 3, let objects = e.objects {
                for object in objects { lines.append("\(prefix)details: fetched \(object)") }
            }
            return lines

        case .save(let e):
            if e.success {
                return [
                    "\(prefix)annotation: save of context \(e.context): \(e.inserted) inserted, \(e.updated) updated, "
                        + "\(e.deleted) deleted in \(seconds(e.durationNanoseconds)) at \(e.callSite)"
                ]
            }
            return ["\(prefix)annotation: save of context \(e.context) failed in \(seconds(e.durationNanoseconds)) at \(e.callSite): \(oneLine(e.error))"]

        case .batchRequest(let e):
            return ["\(prefix)annotation: batch \(e.kind) of \(e.entity): \(e.rowsAffected) rows in \(seconds(e.durationNanoseconds)) at \(e.callSite)"]

        case .cacheMiss, .context, .scenario:
            return []
        }
    }

    /// `0.000123s`: seconds with microsecond digits.
    public static func seconds(_ nanoseconds: UInt64) -> String {
        let micros = (nanoseconds + 500) / 1000
        let fraction = String(micros % 1_000_000)
        return "\(micros / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)s"
    }

    private static func oneLine(_ text: String) -> String {
        guard text.contains(where: { $0 == "\n" || $0 == "\r" }) else { return text }
        return text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).joined(separator: " ")
    }
}
