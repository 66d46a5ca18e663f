import Foundation
import Probes

/// Counters rebuilt from an LTTng trace read back with babeltrace2's text
/// output: per scenario, over the events between its last
/// `iteration-begin` and `iteration-end` (the last measured iteration), so
/// they can be checked against the recorder's; with the statements of that
/// iteration per shape, their numbers resolved to text through the
/// `sql_shape` events.
///
/// A cache miss is no event of its own: it is a `fault` or
/// `relationship_fault` event whose `source` is `database` (whose
/// `miss_reason` says why), counted by its `source`, not by whether its
/// `miss_reason` is empty: babeltrace2 2.0.4 (Debian 12's) prints an empty
/// string field as the value that field had in an earlier event, so a
/// row-cache fault may read `miss_reason = "absent"`. In a trace older
/// than the field, the `cache_miss` events are ignored the same way.
///
/// A call site is interned as a statement's shape is: a `call_site` event
/// gives its number and text, and each event carries the number in its
/// `call_site` field; ``callSite(of:)`` names any event's. (Version 3 of
/// the tracepoints numbered only a site's file, `call_site_file_id`, with
/// its text in the first event of that number and `call_site_line` in
/// every event; such a trace is named too.)
public struct TraceCounters {
    /// Counters per scenario so far.
    public private(set) var result: [String: Counters] = [:]
    /// Statements per scenario so far, by shape text.
    public private(set) var statements: [String: [String: Int]] = [:]
    private let processID: Int32?
    private var scenario: String?
    private var current = Counters()
    private var currentStatements: [String: Int] = [:]
    private var inIteration = false
    /// Shape texts by number, from the `sql_shape` events so far.
    private var shapes: [Int: String] = [:]
    /// Call sites by number, from the `call_site` events so far.
    public private(set) var callSites: [Int: CallSite] = [:]
    /// Call sites' files by number in a trace of version 3, from the first
    /// event of each number so far (the one that carries the text: an
    /// empty field a later event reads as an earlier event's text in
    /// babeltrace2 2.0.4 is not taken). Empty for a later trace, whose
    /// sites are ``callSites``.
    public private(set) var callSiteFiles: [Int: String] = [:]

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

    /// Counters and statements per scenario from babeltrace2's lines.
    public static func readBack(_ lines: some Sequence<Substring>, processID: Int32? = nil) -> TraceReadBack {
        var counters = TraceCounters(processID: processID)
        for line in lines { counters.consume(line) }
        return counters.readBack
    }

    /// Counters and statements per scenario so far.
    public var readBack: TraceReadBack { TraceReadBack(counters: result, statements: statements) }

    /// Reads one line of babeltrace2's text output.
    public mutating func consume(_ line: Substring) {
        do {
            if let processID, !line.contains("vpid = \(processID) }") { return }
            guard let start = line.range(of: " faultline:") else { return }
            let name = line[start.upperBound...].prefix { $0 != ":" }
            learnCallSiteFile(line)
            switch name {
            case "scenario":
                let phase = Self.field(line, "phase")
                if phase == ScenarioPhase.iterationBegin.rawValue {
                    scenario = Self.field(line, "scenario")
                    current = Counters()
                    currentStatements = [:]
                    inIteration = true
                } else if phase == ScenarioPhase.iterationEnd.rawValue, inIteration, let scenario {
                    result[scenario] = current
                    statements[scenario] = currentStatements
                    inIteration = false
                }
            case "sql_shape":
                // Traced once per session, whenever the shape first ran in it.
                if let number = Int(Self.field(line, "shape") ?? ""), let text = Self.field(line, "text") { shapes[number] = text }
            case "call_site":
                // Traced once per session, before the first event of the site.
                if let site = Self.callSite(definedBy: line) { callSites[site.number] = site.site }
            default:
                guard inIteration, let kind = EventKind(rawValue: String(name)), let counted = Self.counted(kind, line) else { return }
                if kind == .sql { currentStatements[shapeText(line), default: 0] += 1 }
                current.count(counted)
                return
            }
        }
    }

    /// What a tracepoint of `kind` adds to the counters, from its fields
    /// (the same rule as the recorder's, ``Counters/count(_:)``); nil for
    /// one no counter reads.
    private static func counted(_ kind: EventKind, _ line: Substring) -> CountedEvent? {
        func number(_ name: String) -> Int { Int(field(line, name) ?? "") ?? 0 }
        func source() -> FaultSource { field(line, "source").flatMap { FaultSource(rawValue: String($0)) } ?? .context }
        switch kind {
        case .fetch: return .fetch
        // One event stands for a run of `count` row-cache faults.
        case .fault: return .fault(source: source(), times: field(line, "count").flatMap { Int($0) } ?? 1)
        case .relationshipFault: return .relationshipFault(source: source())
        case .sql:
            return .sql(
                rowsReturned: number("rows_returned"), rowsChanged: number("rows_changed"), fullScanSteps: number("full_scan_steps"),
                vmSteps: number("vm_steps"))
        case .save: return .save
        case .batchRequest: return .batchRequest
        case .context, .scenario: return nil
        }
    }

    /// The call site of an event, `Module/File.swift:42`: its `call_site`
    /// number resolved through the `call_site` event that named it (`#N`
    /// for a number no event of the trace named: one told before the
    /// session started, or in a session that left `faultline:call_site`
    /// out). In a trace of version 3, its file's number resolved through
    /// the first event that carried it (`#N:42` for a number no event
    /// named), and in one from before files were numbered the event's own
    /// text. Nil for an event without a call site field; no call site, in
    /// words, for a site that says there is none (``CallSite/traceFile``).
    public func callSite(of line: Substring) -> String? {
        if !line.contains(" faultline:call_site: "), let number = Self.field(line, "call_site").flatMap({ Int($0) }) {
            return callSites[number]?.description ?? "#\(number)"
        }
        guard let number = Self.field(line, "call_site_line") else { return nil }
        let file: String
        if let id = Self.field(line, "call_site_file_id").flatMap({ Int($0) }) {
            file = callSiteFiles[id] ?? "#\(id)"
        } else if let text = Self.field(line, "call_site_file") {
            file = text
        } else {
            return nil
        }
        return CallSite(logFile: file, line: Int(number) ?? 0).description
    }

    /// The number and site a `call_site` event gives (its `file` and
    /// `line`, as ``CallSite/traceFile`` and ``CallSite/traceLine`` wrote
    /// them); nil for a line that is none.
    static func callSite(definedBy line: Substring) -> (number: Int, site: CallSite)? {
        guard let number = field(line, "call_site").flatMap({ Int($0) }), let file = field(line, "file"),
            let site = field(line, "line").flatMap({ Int($0) })
        else { return nil }
        return (number, CallSite(logFile: file, line: site))
    }

    /// Reads a call site's file text from the first event of its number
    /// (a trace of version 3).
    private mutating func learnCallSiteFile(_ line: Substring) {
        guard let id = Self.field(line, "call_site_file_id").flatMap({ Int($0) }), callSiteFiles[id] == nil,
            let text = Self.field(line, "call_site_file"), !text.isEmpty
        else { return }
        callSiteFiles[id] = text
    }

    /// The shape of an `sql` line: the text its number names, `#N` for a
    /// number no `sql_shape` event named; in a trace from before shapes
    /// were numbered, the `shape` text itself.
    private func shapeText(_ line: Substring) -> String {
        let value = Self.field(line, "shape") ?? ""
        guard let number = Int(value) else { return value }
        return shapes[number] ?? "#\(number)"
    }

    /// The value of `name = value` in a babeltrace2 line (quotes removed);
    /// an enumeration's label (`source = ( "database" : container = 2 )`,
    /// version 3 of the tracepoints) as a string's value.
    static func field(_ line: Substring, _ name: String) -> String? {
        guard let range = line.range(of: " \(name) = ") else { return nil }
        var rest = line[range.upperBound...]
        if rest.hasPrefix("( \"") { rest = rest.dropFirst(2) }
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
