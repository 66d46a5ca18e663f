import Foundation
import Probes
import Testing

@testable import Scenarios

/// Counters rebuilt from babeltrace2's lines of a trace: the lines below
/// are as babeltrace2 prints the `faultline` events (taken from a trace of
/// faultline-bench, with a scenario's iteration around them).
@Suite struct TraceCountersTests {
    static let lines: [Substring] = [
        #"[19:25:51.356000000] (+?.?????????) vm faultline:scenario: { cpu_id = 1 }, { scenario = "SingleFault", phase = "iteration-begin", step = "", iteration = -1 }"#,
        #"[19:25:51.356050000] (+0.000050000) vm faultline:sql_shape: { cpu_id = 1 }, { shape = 4, text = "SELECT t0.pk FROM \"Item\" t0 WHERE t0.pk = \?" }"#,
        #"[19:25:51.356060000] (+0.000010000) vm faultline:sql: { cpu_id = 1 }, { shape = 4, statement = "", arguments = "9", duration_ns = 900, rows_returned = 1, rows_changed = 0, full_scan_steps = 0, sorts = 0, auto_indexes = 0, vm_steps = 12, purpose = "fault", query_plan = "", call_site_file = "FaultlineBench/ProbeWorkload.swift", call_site_line = 90 }"#,
        #"[19:25:51.356100000] (+0.000040000) vm faultline:fault: { cpu_id = 1 }, { context = "round", entity = "Item", primary_key = 9, source = "database", miss_reason = "absent", count = 1, duration_ns = 107590, call_site_file = "FaultlineBench/ProbeWorkload.swift", call_site_line = 90 }"#,
        #"[19:25:51.356200000] (+0.000100000) vm faultline:scenario: { cpu_id = 1 }, { scenario = "SingleFault", phase = "iteration-end", step = "", iteration = -1 }"#,
        #"[19:25:51.356854392] (+0.000654392) vm faultline:scenario: { cpu_id = 1 }, { scenario = "SingleFault", phase = "iteration-begin", step = "", iteration = 1 }"#,
        #"[19:25:51.357100000] (+0.000245608) vm faultline:sql_shape: { cpu_id = 1 }, { shape = 7, text = "SELECT t0.pk FROM \"Item\" t0 WHERE t0.pk IN (…)" }"#,
        #"[19:25:51.357103342] (+0.000003342) vm faultline:sql: { cpu_id = 1 }, { shape = 7, statement = "SELECT t0.pk FROM \"Item\" t0 WHERE t0.pk IN (\?, \?)", arguments = "1, 2", duration_ns = 2000, rows_returned = 200, rows_changed = 0, full_scan_steps = 199, sorts = 0, auto_indexes = 0, vm_steps = 1000, purpose = "fetch Item", query_plan = "", call_site_file = "FaultlineBench/ProbeWorkload.swift", call_site_line = 84 }"#,
        #"[19:25:51.357124704] (+0.000021362) vm faultline:fetch: { cpu_id = 1 }, { context = "round", entity = "Item", predicate = "", sort = "", result_type = "objects", result_count = 200, duration_ns = 398072, fetch_limit = 0, fetch_offset = 0, batch_size = 0, returns_faults = 1, includes_values = 1, includes_pending = 1, prefetch = "", call_site_file = "FaultlineBench/ProbeWorkload.swift", call_site_line = 84 }"#,
        #"[19:25:51.357327726] (+0.000203022) vm faultline:fault: { cpu_id = 1 }, { context = "round", entity = "Item", primary_key = 1, source = "row cache", miss_reason = "", count = 200, duration_ns = 30701, call_site_file = "FaultlineBench/ProbeWorkload.swift", call_site_line = 85 }"#,
        #"[19:25:51.357479141] (+0.000151415) vm faultline:context: { cpu_id = 1 }, { context = "round", kind = "refresh", count = 200, objects_registered = 200, objects_registered_peak = 200, detail = "" }"#,
        #"[19:25:51.357585790] (+0.000106649) vm faultline:sql: { cpu_id = 1 }, { shape = 4, statement = "", arguments = "1", duration_ns = 900, rows_returned = 1, rows_changed = 0, full_scan_steps = 0, sorts = 0, auto_indexes = 0, vm_steps = 12, purpose = "fault", query_plan = "", call_site_file = "FaultlineBench/ProbeWorkload.swift", call_site_line = 90 }"#,
        #"[19:25:51.357588955] (+0.000003165) vm faultline:fault: { cpu_id = 1 }, { context = "round", entity = "Item", primary_key = 1, source = "database", miss_reason = "stale", count = 1, duration_ns = 107590, call_site_file = "FaultlineBench/ProbeWorkload.swift", call_site_line = 90 }"#,
        #"[19:25:51.358000000] (+0.000411045) vm faultline:relationship_fault: { cpu_id = 1 }, { context = "round", entity = "Group", relationship = "items", primary_key = 1, destination_entity = "Item", destination_count = 200, source = "database", miss_reason = "absent", duration_ns = 5000, call_site_file = "FaultlineBench/ProbeWorkload.swift", call_site_line = 92 }"#,
        #"[19:25:51.358500000] (+0.000500000) vm faultline:sql: { cpu_id = 1 }, { shape = 12, statement = "", arguments = "", duration_ns = 700, rows_returned = 0, rows_changed = 0, full_scan_steps = 0, sorts = 0, auto_indexes = 0, vm_steps = 3, purpose = "transaction", query_plan = "", call_site_file = "FaultlineBench/ProbeWorkload.swift", call_site_line = 93 }"#,
        #"[19:25:51.359000000] (+0.000500000) vm faultline:scenario: { cpu_id = 1 }, { scenario = "SingleFault", phase = "iteration-end", step = "", iteration = 1 }"#,
    ]

    /// A trace from before misses were fields and shapes were numbered:
    /// `cache_miss` events, `shape` as text.
    static let olderLines: [Substring] = [
        #"[19:25:51.356854392] (+0.000654392) vm faultline:scenario: { cpu_id = 1 }, { scenario = "SingleFault", phase = "iteration-begin", step = "", iteration = 1 }"#,
        #"[19:25:51.357103342] (+0.000248950) vm faultline:sql: { cpu_id = 1 }, { statement = "SELECT t0.pk FROM \"Item\" t0", shape = "SELECT t0.pk FROM \"Item\" t0", arguments = "", duration_ns = 2000, rows_returned = 200, rows_changed = 0, full_scan_steps = 199, sorts = 0, auto_indexes = 0, vm_steps = 1000, purpose = "fetch Item", query_plan = "", call_site_file = "FaultlineBench/ProbeWorkload.swift", call_site_line = 84 }"#,
        #"[19:25:51.357327726] (+0.000203022) vm faultline:fault: { cpu_id = 1 }, { context = "round", entity = "Item", primary_key = 1, source = "row cache", count = 200, duration_ns = 30701, call_site_file = "FaultlineBench/ProbeWorkload.swift", call_site_line = 85 }"#,
        #"[19:25:51.357482616] (+0.000002443) vm faultline:cache_miss: { cpu_id = 1 }, { entity = "Item", primary_key = 1, reason = "absent" }"#,
        #"[19:25:51.357585790] (+0.000103174) vm faultline:sql: { cpu_id = 1 }, { statement = "SELECT t0.pk FROM \"Item\" t0 WHERE t0.pk = ?", shape = "SELECT t0.pk FROM \"Item\" t0 WHERE t0.pk = ?", arguments = "1", duration_ns = 900, rows_returned = 1, rows_changed = 0, full_scan_steps = 0, sorts = 0, auto_indexes = 0, vm_steps = 12, purpose = "fault", query_plan = "", call_site_file = "FaultlineBench/ProbeWorkload.swift", call_site_line = 90 }"#,
        #"[19:25:51.357588955] (+0.000003165) vm faultline:fault: { cpu_id = 1 }, { context = "round", entity = "Item", primary_key = 1, source = "database", count = 1, duration_ns = 107590, call_site_file = "FaultlineBench/ProbeWorkload.swift", call_site_line = 90 }"#,
        #"[19:25:51.358000000] (+0.000411045) vm faultline:relationship_fault: { cpu_id = 1 }, { context = "round", entity = "Group", relationship = "items", primary_key = 1, destination_entity = "Item", destination_count = 200, source = "database", duration_ns = 5000, call_site_file = "FaultlineBench/ProbeWorkload.swift", call_site_line = 92 }"#,
        #"[19:25:51.359000000] (+0.001000000) vm faultline:scenario: { cpu_id = 1 }, { scenario = "SingleFault", phase = "iteration-end", step = "", iteration = 1 }"#,
    ]

    @Test func aRunOfRowCacheFaultsCountsAsManyFaults() {
        let counters = TraceCounters.read(Self.lines)
        var expected = Counters()
        expected.fetches = 1
        expected.faultsFired = 201
        expected.cacheHits = 200
        expected.cacheMisses = 2  // the database fault (stale) and the relationship fault (absent)
        expected.relationshipFaultsFired = 1
        expected.sqlStatements = 3
        expected.rowsRead = 201
        expected.fullScanSteps = 199
        expected.vmSteps = 1_015  // the sql lines' vm_steps: 1,000 + 12 + 3
        #expect(counters == ["SingleFault": expected])
    }

    /// A miss is a fault from the database: a row-cache fault whose empty
    /// `miss_reason` babeltrace2 2.0.4 prints as an earlier event's
    /// (`"absent"`) is no miss.
    @Test func aMissIsAFaultFromTheDatabaseWhateverItsReasonReads() {
        let lines = Self.lines.map { Substring($0.replacingOccurrences(of: #"miss_reason = """#, with: #"miss_reason = "absent""#)) }
        #expect(lines != Self.lines)
        #expect(TraceCounters.read(lines) == TraceCounters.read(Self.lines))
        #expect(TraceCounters.read(lines)["SingleFault"]?.cacheMisses == 2)
    }

    /// The statements of the last iteration per shape, numbers resolved
    /// through the `sql_shape` events seen before them, whichever
    /// iteration traced those; a number no event named stays a number.
    @Test func statementsAreCountedPerShapeText() {
        let readBack = TraceCounters.readBack(Self.lines)
        #expect(readBack.counters == TraceCounters.read(Self.lines))
        #expect(readBack.statements == [
            "SingleFault": [
                #"SELECT t0.pk FROM "Item" t0 WHERE t0.pk IN (…)"#: 1,
                #"SELECT t0.pk FROM "Item" t0 WHERE t0.pk = ?"#: 1,
                "#12": 1,
            ],
        ])
    }

    /// The run's cross-check: the statements per shape the trace gives
    /// back against the recorder's, shape by shape.
    @Test func statementsPerShapeAreCheckedAgainstTheRecorders() {
        let readBack = TraceCounters.readBack(Self.lines)
        let recorded = [
            #"SELECT t0.pk FROM "Item" t0 WHERE t0.pk IN (…)"#: 1, #"SELECT t0.pk FROM "Item" t0 WHERE t0.pk = ?"#: 1, "#12": 1,
        ]
        #expect(readBack.statementDisagreement(scenario: "SingleFault", recorded: recorded) == nil)
        var other = recorded
        other["#12"] = nil
        other["COMMIT"] = 1
        other[#"SELECT t0.pk FROM "Item" t0 WHERE t0.pk = ?"#] = 2
        #expect(readBack.statementDisagreement(scenario: "SingleFault", recorded: other) == """
            SingleFault: the trace's statements of 3 shapes differ from the recorder's (#12: 1 traced, 0 recorded; \
            COMMIT: 0 traced, 1 recorded; SELECT t0.pk FROM "Item" t0 WHERE t0.pk = ?: 1 traced, 2 recorded)
            """)
        #expect(readBack.statementDisagreement(scenario: "Prefetch", recorded: [:]) == nil)
        #expect(readBack.statementDisagreement(scenario: "Prefetch", recorded: ["COMMIT": 1]) != nil)
    }

    @Test func anOlderTraceCountsMissesBySourceAndShapesByText() {
        let readBack = TraceCounters.readBack(Self.olderLines)
        #expect(readBack.counters["SingleFault"]?.cacheMisses == 2)
        #expect(readBack.counters["SingleFault"]?.sqlStatements == 2)
        #expect(readBack.statements == [
            "SingleFault": [#"SELECT t0.pk FROM "Item" t0"#: 1, #"SELECT t0.pk FROM "Item" t0 WHERE t0.pk = ?"#: 1],
        ])
    }

    /// Lines of a trace with call sites' files numbered (provider version
    /// 3): the first event of a number carries the file's text, later ones
    /// `""`, which babeltrace2 2.0.4 may print as an earlier event's text.
    static let numberedFileLines: [Substring] = [
        #"[19:25:51.356000000] (+?.?????????) vm faultline:scenario: { cpu_id = 1 }, { scenario = "SingleFault", phase = "iteration-begin", step = "", iteration = -1 }"#,
        #"[19:25:51.356050000] (+0.000050000) vm faultline:sql_shape: { cpu_id = 1 }, { shape = 4, text = "SELECT t0.pk FROM \"Item\" t0 WHERE t0.pk = \?" }"#,
        #"[19:25:51.356060000] (+0.000010000) vm faultline:sql: { cpu_id = 1 }, { shape = 4, statement = "", arguments = "9", duration_ns = 900, rows_returned = 1, rows_changed = 0, full_scan_steps = 0, sorts = 0, auto_indexes = 0, vm_steps = 12, purpose = "fault", query_plan = "", call_site_file_id = 0, call_site_file = "FaultlineBench/ProbeWorkload.swift", call_site_line = 90 }"#,
        #"[19:25:51.356100000] (+0.000040000) vm faultline:fault: { cpu_id = 1 }, { context = "round", entity = "Item", primary_key = 9, source = ( "database" : container = 2 ), miss_reason = ( "absent" : container = 1 ), count = 1, duration_ns = 107590, call_site_file_id = 0, call_site_file = "", call_site_line = 90 }"#,
        #"[19:25:51.356200000] (+0.000100000) vm faultline:fault: { cpu_id = 1 }, { context = "round", entity = "Item", primary_key = 1, source = ( "row cache" : container = 1 ), miss_reason = ( "" : container = 0 ), count = 200, duration_ns = 30701, call_site_file_id = 1, call_site_file = "App/Other.swift", call_site_line = 12 }"#,
        #"[19:25:51.356300000] (+0.000100000) vm faultline:save: { cpu_id = 1 }, { context = "round", inserted = 0, updated = 1, deleted = 0, duration_ns = 5000, success = 1, error = "", call_site_file_id = 0, call_site_file = "App/Other.swift", call_site_line = 93 }"#,
        #"[19:25:51.356400000] (+0.000100000) vm faultline:fault: { cpu_id = 1 }, { context = "round", entity = "Item", primary_key = 2, source = ( "row cache" : container = 1 ), miss_reason = ( "" : container = 0 ), count = 1, duration_ns = 300, call_site_file_id = 7, call_site_file = "", call_site_line = 5 }"#,
        #"[19:25:51.356500000] (+0.000100000) vm faultline:scenario: { cpu_id = 1 }, { scenario = "SingleFault", phase = "iteration-end", step = "", iteration = -1 }"#,
    ]

    /// A call site's file is named once, by the first event of its number,
    /// and every event of the number resolves to it, whatever text its own
    /// field reads; a number no event named stays a number.
    @Test func callSiteFilesAreResolvedByTheirNumbers() {
        var counters = TraceCounters()
        var sites: [String?] = []
        for line in Self.numberedFileLines {
            counters.consume(line)
            sites.append(counters.callSite(of: line))
        }
        #expect(sites == [
            nil, nil, "FaultlineBench/ProbeWorkload.swift:90", "FaultlineBench/ProbeWorkload.swift:90", "App/Other.swift:12",
            "FaultlineBench/ProbeWorkload.swift:93", "#7:5", nil,
        ])
        #expect(counters.callSiteFiles == [0: "FaultlineBench/ProbeWorkload.swift", 1: "App/Other.swift"])
        // Sources and reasons read by their enumerations' labels.
        #expect(counters.result["SingleFault"]?.faultsFired == 202)
        #expect(counters.result["SingleFault"]?.cacheHits == 201)
        #expect(counters.result["SingleFault"]?.cacheMisses == 1)
        #expect(TraceCounters.field(Self.numberedFileLines[3], "miss_reason") == "absent")
        #expect(TraceCounters.field(Self.numberedFileLines[4], "miss_reason") == "")
        #expect(TraceCounters.field(Self.numberedFileLines[4], "source") == "row cache")
        // A trace from before files were numbered names each event's own.
        var older = TraceCounters()
        older.consume(Self.lines[2])
        #expect(older.callSite(of: Self.lines[2]) == "FaultlineBench/ProbeWorkload.swift:90")
        #expect(older.callSiteFiles.isEmpty)
    }

    /// Lines of a trace with interned call sites (provider version 4): a
    /// `call_site` event gives each site its number and text once, and
    /// each event carries the number alone. The second site's `module`
    /// reads as the first's, as babeltrace2 2.0.4 prints an empty string
    /// field: the file and line are what name a site.
    static let internedSiteLines: [Substring] = [
        #"[19:25:51.356000000] (+?.?????????) vm faultline:scenario: { cpu_id = 1 }, { scenario = "SingleFault", phase = "iteration-begin", step = "", iteration = -1 }"#,
        #"[19:25:51.356050000] (+0.000050000) vm faultline:sql_shape: { cpu_id = 1 }, { shape = 4, text = "SELECT t0.pk FROM \"Item\" t0 WHERE t0.pk = \?" }"#,
        #"[19:25:51.356055000] (+0.000005000) vm faultline:call_site: { cpu_id = 1 }, { call_site = 0, module = "FaultlineBench", file = "FaultlineBench/ProbeWorkload.swift", line = 90, function = "" }"#,
        #"[19:25:51.356060000] (+0.000005000) vm faultline:sql: { cpu_id = 1 }, { shape = 4, statement = "", arguments = "9", duration_ns = 900, rows_returned = 1, rows_changed = 0, full_scan_steps = 0, sorts = 0, auto_indexes = 0, vm_steps = 12, purpose = "fault", query_plan = "", call_site = 0 }"#,
        #"[19:25:51.356100000] (+0.000040000) vm faultline:fault: { cpu_id = 1 }, { context = "round", entity = "Item", primary_key = 9, source = ( "database" : container = 2 ), miss_reason = ( "absent" : container = 1 ), count = 1, duration_ns = 107590, call_site = 0 }"#,
        #"[19:25:51.356150000] (+0.000050000) vm faultline:call_site: { cpu_id = 1 }, { call_site = 1, module = "FaultlineBench", file = "no-call-site:store-work", line = 0, function = "" }"#,
        #"[19:25:51.356160000] (+0.000010000) vm faultline:sql: { cpu_id = 1 }, { shape = 4, statement = "", arguments = "2", duration_ns = 800, rows_returned = 1, rows_changed = 0, full_scan_steps = 0, sorts = 0, auto_indexes = 0, vm_steps = 12, purpose = "fault", query_plan = "", call_site = 1 }"#,
        #"[19:25:51.356200000] (+0.000040000) vm faultline:fault: { cpu_id = 1 }, { context = "round", entity = "Item", primary_key = 1, source = ( "row cache" : container = 1 ), miss_reason = ( "" : container = 0 ), count = 200, duration_ns = 30701, call_site = 0 }"#,
        #"[19:25:51.356300000] (+0.000100000) vm faultline:save: { cpu_id = 1 }, { context = "round", inserted = 0, updated = 1, deleted = 0, duration_ns = 5000, success = 1, error = "", call_site = 7 }"#,
        #"[19:25:51.356500000] (+0.000200000) vm faultline:scenario: { cpu_id = 1 }, { scenario = "SingleFault", phase = "iteration-end", step = "", iteration = -1 }"#,
    ]

    /// Each event's `call_site` number resolves to the text its
    /// `call_site` event gave, as the three fields of version 3 named it
    /// (`Module/File.swift:90`, no call site in words); a number no event
    /// named stays a number; the counters come back exactly.
    @Test func internedCallSitesAreResolvedByTheirNumbers() {
        var counters = TraceCounters()
        var sites: [String?] = []
        for line in Self.internedSiteLines {
            counters.consume(line)
            sites.append(counters.callSite(of: line))
        }
        #expect(sites == [
            nil, nil, nil, "FaultlineBench/ProbeWorkload.swift:90", "FaultlineBench/ProbeWorkload.swift:90", nil,
            "no call site (the store's own work)", "FaultlineBench/ProbeWorkload.swift:90", "#7", nil,
        ])
        #expect(counters.callSites == [
            0: CallSite(file: "FaultlineBench/ProbeWorkload.swift", line: 90), 1: CallSite(noSiteBecause: .storeWork),
        ])
        #expect(counters.callSiteFiles.isEmpty)
        var expected = Counters()
        expected.faultsFired = 201
        expected.cacheHits = 200
        expected.cacheMisses = 1
        expected.sqlStatements = 2
        expected.rowsRead = 2
        expected.vmSteps = 24
        expected.saves = 1
        #expect(counters.result == ["SingleFault": expected])
        #expect(counters.readBack.statements == ["SingleFault": [#"SELECT t0.pk FROM "Item" t0 WHERE t0.pk = ?"#: 2]])
        // The same site told again (a later session): the same number and text.
        counters.consume(Self.internedSiteLines[2])
        #expect(counters.callSites[0] == CallSite(file: "FaultlineBench/ProbeWorkload.swift", line: 90))
    }

    @Test func anEventWithoutACountIsOne() {
        // Traces recorded before runs: a fault line without `count`.
        let lines = Self.lines.map { Substring($0.replacingOccurrences(of: " count = 200,", with: "")) }
        #expect(TraceCounters.read(lines)["SingleFault"]?.faultsFired == 2)
    }
}
