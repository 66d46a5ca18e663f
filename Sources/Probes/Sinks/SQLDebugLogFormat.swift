import Foundation

/// The lines of the SQL debug log for one event (docs/sql-debug-log.md).
public enum SQLDebugLogFormat {
    /// The prefix of every line.
    public static let prefix = "faultline: "

    /// The log lines for `event` at `level` (1 to 4), each starting with
    /// ``prefix``: a statement, its bound values from level 2 and its query
    /// plan from level 4; a fault (its values from level 3), a relationship
    /// fault, a fetch (its objects from level 3), a save, a batch request,
    /// a prefetch's usage.
    /// Other events (scenarios, other context changes, cache misses) have no
    /// line.
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
            // Full-scan steps and sorts only when there were some, before
            // the purpose, which ends the line.
            var figures = "rows: \(e.rowsReturned), changed: \(e.rowsChanged)"
            if e.fullScanSteps > 0 { figures += ", scanned: \(e.fullScanSteps)" }
            if e.sorts > 0 { figures += ", sorts: \(e.sorts)" }
            lines.append("\(prefix)annotation: sql execution time: \(seconds(e.durationNanoseconds)), \(figures), purpose: \(e.purpose)")
            return lines

        case .fault(let e):
            var line = "\(prefix)annotation: fault fulfilled from \(e.source.rawValue) for \(e.objectID) in \(seconds(e.durationNanoseconds))"
            if e.source == .database { line += lazyLoad(e.missReason, e.origin, read: e.callSite) }
            var lines = [line]
            if level >= 3, let values = e.values { lines.append("\(prefix)details: values of \(e.objectID): \(values)") }
            return lines

        case .relationshipFault(let e):
            var line = "\(prefix)annotation: to-many relationship fault \"\(e.relationship)\" for \(e.objectID) fulfilled from "
                + "\(e.source.rawValue): \(e.destinationCount) \(e.destinationEntity) in \(seconds(e.durationNanoseconds))"
            if e.source == .database { line += lazyLoad(e.missReason, e.origin, read: e.callSite) }
            return [line]

        case .fetch(let e):
            var description = e.resultType == "count" ? "count of \(e.entity)" : "fetch of \(e.entity)"
            if !e.predicate.isEmpty { description += " where \(e.predicate)" }
            if !e.sort.isEmpty { description += " sorted by \(e.sort)" }
            if !e.prefetch.isEmpty { description += " prefetching \(e.prefetch)" }
            var result = e.resultType == "count" ? "\(e.resultCount)" : "\(e.resultCount) \(e.resultType)"
            if e.resultType == "objects", !e.returnsObjectsAsFaults { result += " with values" }
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

        case .context(let e):
            guard let usage = e.prefetchUsage else { return [] }
            return [
                "\(prefix)annotation: prefetch of \(usage.relationship) in context \(e.context): prefetched for \(usage.prefetched) objects, "
                    + "read for \(usage.read), at \(usage.callSite)"
            ]

        case .cacheMiss, .scenario:
            return []
        }
    }

    /// What a fault from the database adds to its line: why the row cache
    /// missed, where the object came from, and the line that read it:
    /// ` (absent; from fetch 12 of Post at Blog/Blog.swift:70 through author; read at Blog/Blog.swift:73)`.
    static func lazyLoad(_ reason: CacheMissReason?, _ origin: FaultOrigin?, read: CallSite) -> String {
        var parts: [String] = []
        if let reason { parts.append(reason.rawValue) }
        if let origin {
            var from = "from fetch \(origin.execution) of \(origin.fetchEntity) at \(origin.fetchSite)"
            if !origin.keyPath.isEmpty { from += " through \(origin.keyPath)" }
            parts.append(from)
        }
        parts.append("read at \(read)")
        return " (" + parts.joined(separator: "; ") + ")"
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
