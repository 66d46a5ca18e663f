import CTracepoints
import Foundation

/// Sends events to the `faultline` LTTng-UST tracepoints.
///
/// The application does not link liblttng-ust: ``load(providerPath:)``
/// opens the provider library (libFaultlineTracepointProvider.so, which
/// does), and when that fails, the tracepoints stay off and nothing else
/// changes. Whether a tracepoint is on (a session enabled it) is checked
/// before any event is built: an idle call site costs one call.
public final class LTTngSink: EventSink {
    /// The environment variable that names the provider library.
    public static let providerVariable = "FAULTLINE_TRACEPOINT_PROVIDER"
    /// The provider library's file name.
    public static let providerFileName = "libFaultlineTracepointProvider.so"

    private init() {}

    /// Loads the provider and returns the sink, or says why tracing is off.
    ///
    /// The provider is looked for at `providerPath`, else at the path in
    /// `FAULTLINE_TRACEPOINT_PROVIDER`, else beside the running executable.
    public static func load(providerPath: String? = nil) -> Result<LTTngSink, LTTngUnavailable> {
        let path = providerPath ?? ProcessInfo.processInfo.environment[providerVariable] ?? defaultProviderPath()
        guard FileManager.default.fileExists(atPath: path) else {
            return .failure(LTTngUnavailable(reason: "the tracepoint provider \(path) does not exist"))
        }
        if let error = faultline_tracepoints_load(path) {
            return .failure(LTTngUnavailable(reason: "cannot load the tracepoint provider \(path): \(String(cString: error))"))
        }
        guard faultline_lttng_available() != 0 else {
            return .failure(LTTngUnavailable(reason: "liblttng-ust-tracepoint.so.1 is not installed (Debian: liblttng-ust1)"))
        }
        return .success(shared)
    }

    private static let shared = LTTngSink()

    /// `libFaultlineTracepointProvider.so` in the directory of the executable.
    public static func defaultProviderPath() -> String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments.first ?? "."
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(providerFileName).path
    }

    public func isEnabled(_ kind: EventKind) -> Bool {
        switch kind {
        case .fetch: faultline_tp_fetch_enabled() != 0
        case .fault: faultline_tp_fault_enabled() != 0
        case .relationshipFault: faultline_tp_relationship_fault_enabled() != 0
        case .cacheMiss: faultline_tp_cache_miss_enabled() != 0
        case .save: faultline_tp_save_enabled() != 0
        case .batchRequest: faultline_tp_batch_request_enabled() != 0
        case .sql: faultline_tp_sql_enabled() != 0
        case .context: faultline_tp_context_enabled() != 0
        case .scenario: faultline_tp_scenario_enabled() != 0
        }
    }

    public var details: EventDetails {
        faultline_tp_sql_enabled() != 0 ? [.sqlArguments] : []
    }

    public func receive(_ event: Event) {
        switch event {
        case .fetch(let e): trace(e)
        case .fault(let e): trace(e)
        case .relationshipFault(let e): trace(e)
        case .cacheMiss(let e): trace(e)
        case .save(let e): trace(e)
        case .batchRequest(let e): trace(e)
        case .sql(let e): trace(e)
        case .context(let e): trace(e)
        case .scenario(let e): trace(e)
        }
    }

    // MARK: The most frequent events, as their fields

    // Faults, cache misses, statements and context changes are most of a
    // busy program's events. The engine passes them here as they are,
    // without building an event value: building, copying and destroying one
    // costs more than the tracepoint (about 10 points of wall time on
    // `make bench-probes`'s workload). These trace unconditionally: callers
    // ask `isEnabled` first.

    /// Traces a fault (`faultline:fault`).
    public func traceFault(
        context: String, entity: String, primaryKey: Int64, source: FaultSource, durationNanoseconds: UInt64,
        callSite: CallSite
    ) {
        context.withCString { context in
            entity.withCString { entity in
                callSite.file.withCString { file in
                    faultline_tp_fault(
                        context, entity, primaryKey, source.cName, durationNanoseconds, file, Int64(callSite.line))
                }
            }
        }
    }

    /// Traces a fault the row cache could not serve (`faultline:cache_miss`);
    /// `reason` is `absent` or `stale`.
    public func traceCacheMiss(entity: String, primaryKey: Int64, reason: String) {
        entity.withCString { entity in
            reason.withCString { reason in faultline_tp_cache_miss(entity, primaryKey, reason) }
        }
    }

    /// Traces a statement (`faultline:sql`). `arguments` are the bound
    /// values in SQL literal syntax, separated by `, `; `queryPlan` the
    /// `EXPLAIN QUERY PLAN` rows, one a line, or "".
    public func traceStatement(
        sql: String, shape: String, arguments: String, durationNanoseconds: UInt64, rowsReturned: Int,
        rowsChanged: Int, fullScanSteps: Int, sorts: Int, autoIndexes: Int, vmSteps: Int, purpose: String,
        queryPlan: String, callSite: CallSite
    ) {
        sql.withCString { statement in
            shape.withCString { shape in
                arguments.withCString { arguments in
                    purpose.withCString { purpose in
                        queryPlan.withCString { plan in
                            callSite.file.withCString { file in
                                var fields = faultline_sql_fields(
                                    statement: statement, shape: shape, arguments: arguments,
                                    duration_ns: durationNanoseconds, rows_returned: UInt64(rowsReturned),
                                    rows_changed: UInt64(rowsChanged), full_scan_steps: UInt64(fullScanSteps),
                                    sorts: UInt64(sorts), auto_indexes: UInt64(autoIndexes), vm_steps: UInt64(vmSteps),
                                    purpose: purpose, query_plan: plan, call_site_file: file,
                                    call_site_line: Int64(callSite.line))
                                faultline_tp_sql(&fields)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Traces a change of a context's state (`faultline:context`).
    public func traceContextChange(
        context: String, kind: String, objectsRegistered: Int, objectsRegisteredPeak: Int, detail: String
    ) {
        context.withCString { context in
            kind.withCString { kind in
                detail.withCString { detail in
                    faultline_tp_context(context, kind, UInt64(objectsRegistered), UInt64(objectsRegisteredPeak), detail)
                }
            }
        }
    }
}

// One function per tracepoint. Strings reach C through `withCString`, which
// lends a native string's own bytes (and copies a small one to the stack);
// an implicit String-to-pointer argument would allocate and copy an array
// for each string of each event.
extension LTTngSink {
    private func trace(_ e: FetchEvent) {
        e.context.withCString { context in
            e.entity.withCString { entity in
                e.predicate.withCString { predicate in
                    e.sort.withCString { sort in
                        e.resultType.withCString { resultType in
                            e.prefetch.withCString { prefetch in
                                e.callSite.file.withCString { callSite in
                                    var fields = faultline_fetch_fields(
                                        context: context, entity: entity, predicate: predicate, sort: sort,
                                        result_type: resultType, result_count: UInt64(e.resultCount),
                                        duration_ns: e.durationNanoseconds, fetch_limit: Int64(e.fetchLimit),
                                        fetch_offset: Int64(e.fetchOffset), batch_size: Int64(e.fetchBatchSize),
                                        returns_faults: e.returnsObjectsAsFaults ? 1 : 0,
                                        includes_values: e.includesPropertyValues ? 1 : 0,
                                        includes_pending: e.includesPendingChanges ? 1 : 0, prefetch: prefetch,
                                        call_site_file: callSite, call_site_line: Int64(e.callSite.line))
                                    faultline_tp_fetch(&fields)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    private func trace(_ e: FaultEvent) {
        traceFault(
            context: e.context, entity: e.entity, primaryKey: e.primaryKey, source: e.source,
            durationNanoseconds: e.durationNanoseconds, callSite: e.callSite)
    }

    private func trace(_ e: RelationshipFaultEvent) {
        e.context.withCString { context in
            e.entity.withCString { entity in
                e.relationship.withCString { relationship in
                    e.destinationEntity.withCString { destination in
                        e.callSite.file.withCString { callSite in
                            faultline_tp_relationship_fault(
                                context, entity, relationship, e.primaryKey, destination, UInt64(e.destinationCount),
                                e.source.cName, e.durationNanoseconds, callSite, Int64(e.callSite.line))
                        }
                    }
                }
            }
        }
    }

    private func trace(_ e: CacheMissEvent) {
        traceCacheMiss(entity: e.entity, primaryKey: e.primaryKey, reason: e.reason)
    }

    private func trace(_ e: SaveEvent) {
        e.context.withCString { context in
            e.error.withCString { error in
                e.callSite.file.withCString { callSite in
                    faultline_tp_save(
                        context, UInt64(e.inserted), UInt64(e.updated), UInt64(e.deleted), e.durationNanoseconds,
                        e.success ? 1 : 0, error, callSite, Int64(e.callSite.line))
                }
            }
        }
    }

    private func trace(_ e: BatchRequestEvent) {
        e.kind.withCString { kind in
            e.entity.withCString { entity in
                e.callSite.file.withCString { callSite in
                    faultline_tp_batch_request(
                        kind, entity, UInt64(e.rowsAffected), e.durationNanoseconds, callSite, Int64(e.callSite.line))
                }
            }
        }
    }

    private func trace(_ e: SQLEvent) {
        // Most statements have one bound value or none: no joining then.
        traceStatement(
            sql: e.sql, shape: e.shape,
            arguments: e.arguments.count == 1 ? e.arguments[0] : e.arguments.joined(separator: ", "),
            durationNanoseconds: e.durationNanoseconds, rowsReturned: e.rowsReturned, rowsChanged: e.rowsChanged,
            fullScanSteps: e.fullScanSteps, sorts: e.sorts, autoIndexes: e.autoIndexes, vmSteps: e.vmSteps,
            purpose: e.purpose, queryPlan: e.queryPlan?.joined(separator: "\n") ?? "", callSite: e.callSite)
    }

    private func trace(_ e: ContextEvent) {
        traceContextChange(
            context: e.context, kind: e.kind, objectsRegistered: e.objectsRegistered,
            objectsRegisteredPeak: e.objectsRegisteredPeak, detail: e.detail)
    }

    private func trace(_ e: ScenarioEvent) {
        e.scenario.withCString { scenario in
            e.phase.withCString { phase in
                e.step.withCString { step in faultline_tp_scenario(scenario, phase, step, Int64(e.iteration)) }
            }
        }
    }
}

/// Why LTTng tracing is off.
public struct LTTngUnavailable: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
}
