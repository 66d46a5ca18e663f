import Foundation

/// The lines of the SQL debug log for one event (docs/sql-debug-log.md),
/// in the words of the log's grammar (`SQLDebugLogGrammar`), which its
/// reader's tokenizer (`SQLDebugLogLine`) reads back.
public enum SQLDebugLogFormat {
    private typealias G = SQLDebugLogGrammar

    /// The prefix of every line: the grammar's Faultline marker.
    public static let prefix = "\(SQLDebugLogGrammar.faultlineMarker)"

    /// The log lines for `event` at `level` (1 to 4), each starting with
    /// ``prefix``: a statement, its bound values from level 2 (at level 1
    /// their digest, ``SQLDebugLogValuesDigest``) and its query plan from
    /// level 4; a fault (its values from level 3), a relationship
    /// fault, a fetch (its objects from level 3), a save, a batch request,
    /// a prefetch's usage, a fetch site's usage.
    /// Other events (scenarios, other context changes, cache misses) have no
    /// line.
    public static func lines(for event: Event, level: Int) -> [String] {
        switch event {
        case .sql(let e):
            var lines = [line(.sql, oneLine(e.sql))]
            if level >= 2 {
                for (index, argument) in e.arguments.enumerated() {
                    lines.append(line(.details, "\(G.bind)\(index)\(G.bindValue)\(argument)"))
                }
            }
            if level >= 4, let plan = e.queryPlan {
                for row in plan {
                    lines.append(line(.plan, QueryPlan.isFullScan(row) ? "\(row)\(G.fullScanMarkSeparator)\(G.fullScanMark)" : row))
                }
            }
            // Full-scan steps and sorts only when there were some, before
            // the purpose, which ends the line.
            var figures = "\(G.figureSeparator)\(G.rows)\(e.rowsReturned)\(G.figureSeparator)\(G.changed)\(e.rowsChanged)"
            if e.fullScanSteps > 0 { figures += "\(G.figureSeparator)\(G.scanned)\(e.fullScanSteps)" }
            if e.sorts > 0 { figures += "\(G.figureSeparator)\(G.sorts)\(e.sorts)" }
            if level < 2, !e.arguments.isEmpty {
                figures += "\(G.figureSeparator)\(G.values)\(SQLDebugLogValuesDigest.digest(e.arguments))"
            }
            lines.append(line(.annotation, "\(G.sqlExecutionTime)\(seconds(e.durationNanoseconds))\(figures)\(G.purpose)\(e.purpose)"))
            return lines

        case .fault(let e):
            var text = "\(G.faultFulfilledFrom)\(e.source.rawValue)\(G.forWord)\(e.objectID)\(G.inTime)\(seconds(e.durationNanoseconds))"
            if e.source == .database { text += lazyLoad(e.missReason, e.origin, read: e.callSite, engineWork: e.engineWork) }
            var lines = [line(.annotation, text)]
            if level >= 3, let values = e.values { lines.append(line(.details, "\(G.valuesOf)\(e.objectID)\(G.colon)\(values)")) }
            return lines

        case .relationshipFault(let e):
            var text = "\(G.toManyRelationshipFault)\(e.relationship)\(G.relationshipName)\(e.objectID) \(G.fulfilledFrom)"
                + "\(e.source.rawValue)\(G.colon)\(e.destinationCount) \(e.destinationEntity)\(G.inTime)\(seconds(e.durationNanoseconds))"
            if e.source == .database { text += lazyLoad(e.missReason, e.origin, read: e.callSite, engineWork: e.engineWork) }
            return [line(.annotation, text)]

        case .fetch(let e):
            let isCount = e.resultType == "count"
            var description = "\(isCount ? G.countOf : G.fetchOf)\(e.entity)"
            if !e.predicate.isEmpty { description += "\(G.whereClause)\(e.predicate)" }
            if !e.sort.isEmpty { description += "\(G.sortedBy)\(e.sort)" }
            if !e.prefetch.isEmpty { description += "\(G.prefetching)\(e.prefetch)" }
            if !e.intendedLazyLoads.isEmpty { description += "\(G.intending)\(e.intendedLazyLoads)" }
            var result = isCount ? "\(e.resultCount)" : "\(e.resultCount) \(e.resultType)"
            if e.resultType == "objects", !e.returnsObjectsAsFaults { result += "\(G.withValues)" }
            var lines = [line(.annotation, "\(description)\(G.colon)\(result)\(G.inTime)\(seconds(e.durationNanoseconds))\(G.at)\(e.callSite.logText)")]
            if level >= 3, let objects = e.objects {
                for object in objects { lines.append(line(.details, "\(G.fetched)\(object)")) }
            }
            return lines

        case .save(let e):
            let time = "\(G.inTime)\(seconds(e.durationNanoseconds))\(G.at)\(e.callSite.logText)"
            if e.success {
                return [
                    line(.annotation, "\(G.saveOfContext)\(e.context)\(G.colon)\(e.inserted)\(G.inserted)\(e.updated)\(G.updated)\(e.deleted)\(G.deleted)\(time)")
                ]
            }
            return [
                line(.annotation, "\(G.saveOfContext)\(e.context)\(G.failedIn)\(seconds(e.durationNanoseconds))\(G.at)\(e.callSite.logText)\(G.colon)\(oneLine(e.error))")
            ]

        case .batchRequest(let e):
            return [
                line(.annotation, "\(G.batch)\(e.kind)\(G.of)\(e.entity)\(G.colon)\(e.rowsAffected)\(G.rowsWord)\(G.inTime)\(seconds(e.durationNanoseconds))\(G.at)\(e.callSite.logText)")
            ]

        case .context(let e):
            var lines: [String] = []
            if let usage = e.prefetchUsage {
                lines.append(line(.annotation, "\(G.prefetchOf)\(usage.relationship)\(G.inContext)\(e.context)\(G.colon)\(G.prefetchedFor)\(usage.prefetched)"
                    + "\(G.objectsReadFor)\(G.readFor)\(usage.read)\(G.listEnd)\(G.at)\(usage.callSite.logText)"))
            }
            if let usage = e.fetchUsage { lines.append(line(.annotation, fetchUse(usage, context: e.context))) }
            return lines

        case .scenario(let e):
            switch e.phase {
            case .iterationBegin: return [line(.annotation, "\(G.iteration)\(e.iteration)\(G.begins)\(oneLine(e.scenario))")]
            case .iterationEnd: return [line(.annotation, "\(G.iteration)\(e.iteration)\(G.ends)\(oneLine(e.scenario))")]
            case .begin, .end, .step: return []
            }
        }
    }

    /// A fetch site's usage (` through <key path>` after the entity for the
    /// destinations of a to-many its objects loaded): `fetch use of Recipe in context main: 3 runs,
    /// 1500 objects, 20 read; 2 runs read none, up to 500 objects; up to
    /// 480 of 500 unread without batch size, at App/List.swift:12`.
    static func fetchUse(_ usage: FetchUsage, context: String) -> String {
        "\(G.fetchUseOf)\(usage.entity)\(usage.keyPath.isEmpty ? "" : "\(G.through)\(usage.keyPath)")\(G.inContext)\(context)\(G.colon)\(usage.runs)\(G.runsComma)\(usage.objects)\(G.objectsComma)"
            + "\(usage.read)\(G.readSemicolon)\(usage.runsReadNone)\(G.runsReadNoneUpTo)\(usage.largestReadNone)\(G.objectsSemicolonUpTo)"
            + "\(usage.mostUnread)\(G.of)\(usage.mostUnreadOf)\(G.unreadWithoutBatchSize)\(G.listEnd)\(G.at)\(usage.callSite.logText)"
    }

    /// A line of `kind`: the marker, the kind's word, the text.
    private static func line(_ kind: SQLDebugLogGrammar.Kind, _ text: String) -> String {
        "\(prefix)\(kind.word)\(text)"
    }

    /// What a fault from the database adds to its line: why the row cache
    /// missed, the engine's work when it loaded for its own bookkeeping,
    /// where the object came from, and the line that read it:
    /// ` (absent; from fetch 12 of Post at Blog/Blog.swift:70 through author; read at Blog/Blog.swift:73)`,
    /// ` (absent; engine inverse; from fetch 3 of Recipe at App/Edit.swift:9 through category; read at App/Edit.swift:12)`.
    static func lazyLoad(_ reason: CacheMissReason?, _ origin: FaultOrigin?, read: CallSite, engineWork: EngineWork? = nil) -> String {
        var parts: [String] = []
        if let reason { parts.append(reason.rawValue) }
        if let engineWork { parts.append("\(G.engine)\(engineWork.rawValue)") }
        if let origin {
            var from = "\(G.fromFetch)\(origin.execution)\(G.of)\(origin.fetchEntity)\(G.at)\(origin.fetchSite.logText)"
            if !origin.keyPath.isEmpty { from += "\(G.through)\(origin.keyPath)" }
            parts.append(from)
        }
        parts.append("\(G.readAt)\(read.logText)")
        return "\(G.lazyLoadOpen)\(parts.joined(separator: "\(G.lazyLoadSeparator)"))\(G.lazyLoadClose)"
    }

    /// `0.000123s`: seconds with microsecond digits.
    public static func seconds(_ nanoseconds: UInt64) -> String {
        let micros = (nanoseconds + 500) / 1000
        let fraction = String(micros % 1_000_000)
        return "\(micros / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)\(G.secondsUnit)"
    }

    private static func oneLine(_ text: String) -> String {
        guard text.contains(where: { $0 == "\n" || $0 == "\r" }) else { return text }
        return text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).joined(separator: " ")
    }
}
