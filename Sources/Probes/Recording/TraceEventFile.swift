import Foundation

/// Events in Chrome's Trace Event Format (the JSON that Perfetto and
/// chrome://tracing open): fetches, saves, faults, relationship faults,
/// batch requests and statements as complete slices (`"ph": "X"`) on their
/// thread, timestamps and durations in microseconds; scenario steps and
/// context changes as instant events (`"ph": "i"`; a scenario event's
/// arguments name its scenario and phase, which a timeline splits by). A statement run by a
/// fetch nests inside the fetch's slice because it starts and ends inside it.
/// An object fault from the database is also marked by an instant `cache
/// miss` event at its start, with the miss's reason (the fault's
/// ``FaultEvent/missReason``: the engine sends no cache-miss event).
public enum TraceEventFile {
    struct Slice: Encodable {
        let name: String
        let cat: String
        let ph: String
        let ts: Double
        let dur: Double?
        let pid: Int32
        let tid: Int32
        let s: String?
        let args: [String: String]
    }

    struct File: Encodable {
        let traceEvents: [Slice]
        let displayTimeUnit: String
        let otherData: [String: String]
    }

    /// The JSON document for `events`. Times are relative to the first event.
    public static func render(_ events: [Event], processID: Int32 = ProcessInfo.processInfo.processIdentifier) throws -> Data {
        let origin = events.map(\.start).min() ?? 0
        func micros(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1000 }
        var slices: [Slice] = []
        slices.reserveCapacity(events.count)
        for event in events {
            let ts = micros(event.start &- origin)
            let dur = micros(event.durationNanoseconds)
            let (name, args): (String, [String: String])
            switch event {
            case .fetch(let e):
                name = "\(e.resultType == "count" ? "count" : "fetch") \(e.entity)"
                args = ["predicate": e.predicate, "sort": e.sort, "results": String(e.resultCount), "context": e.context,
                        "callSite": e.callSite.description, "prefetch": e.prefetch, "intendedLazyLoads": e.intendedLazyLoads]
            case .fault(let e):
                name = "fault \(e.entity)"
                args = ["object": e.objectID, "source": e.source.rawValue, "context": e.context, "callSite": e.callSite.description]
                if e.source == .database, let reason = e.missReason {
                    slices.append(Slice(
                        name: "cache miss \(e.entity)", cat: "cache_miss", ph: "i", ts: ts, dur: nil, pid: processID,
                        tid: e.thread, s: "t", args: ["object": e.objectID, "reason": reason.rawValue]))
                }
            case .relationshipFault(let e):
                name = "relationship fault \(e.entity).\(e.relationship)"
                args = ["object": e.objectID, "destinations": String(e.destinationCount), "source": e.source.rawValue,
                        "callSite": e.callSite.description]
            case .save(let e):
                name = "save \(e.context)"
                args = ["inserted": String(e.inserted), "updated": String(e.updated), "deleted": String(e.deleted),
                        "success": String(e.success), "error": e.error, "callSite": e.callSite.description]
            case .batchRequest(let e):
                name = "batch \(e.kind) \(e.entity)"
                args = ["rows": String(e.rowsAffected), "callSite": e.callSite.description]
            case .sql(let e):
                name = "sql \(e.purpose)"
                args = ["sql": e.sql, "rows": String(e.rowsReturned), "changed": String(e.rowsChanged),
                        "fullScanSteps": String(e.fullScanSteps), "callSite": e.callSite.description]
            case .context(let e):
                name = "\(e.kind.rawValue) \(e.context)"
                args = ["objectsRegistered": String(e.objectsRegistered)]
            case .scenario(let e):
                name = e.step.isEmpty ? "\(e.phase.rawValue) \(e.scenario)" : "\(e.scenario): \(e.step)"
                args = ["iteration": String(e.iteration), "phase": e.phase.rawValue, "scenario": e.scenario]
            }
            let instant: Bool
            switch event {
            case .context, .scenario: instant = true
            default: instant = false
            }
            slices.append(Slice(
                name: name, cat: event.kind.rawValue, ph: instant ? "i" : "X", ts: ts, dur: instant ? nil : dur,
                pid: processID, tid: event.thread, s: instant ? "t" : nil, args: args))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(File(traceEvents: slices, displayTimeUnit: "ms", otherData: ["producer": "faultline"]))
    }
}

extension TraceEventFile {
    /// The event fields it does not write, and why (EventFieldCoverageTests
    /// checks the list against what it writes).
    public static let fieldsLeftOut: [EventField: String] = EventField.leftOut([
        ("times are relative to the file's first event (a file of one event starts at 0)", [
            .fetch: ["start"], .fault: ["start"], .relationshipFault: ["start"], .save: ["start"], .batchRequest: ["start"],
            .sql: ["start"], .context: ["start"], .scenario: ["start"],
        ]),
        ("a slice's arguments are what a timeline shows at a glance; the SQL debug log and the report have the rest", [
            .fetch: ["fetchBatchSize", "fetchLimit", "fetchOffset", "includesPendingChanges", "includesPropertyValues", "objects", "returnsObjectsAsFaults"],
            .fault: ["origin", "values", "engineWork"],
            .relationshipFault: ["context", "destinationEntity", "origin", "engineWork"],
            .sql: ["arguments", "autoIndexes", "facts", "queryPlan", "shape", "shapeID", "sorts", "textID", "vmSteps"],
            .context: ["objectsRegisteredPeak", "prefetchUsage", "fetchUsage"],
        ]),
        ("a fault from the database adds a cache-miss slice with its reason; a relationship fault's miss is its source", [
            .relationshipFault: ["missReason"],
        ]),
    ])
}
