import Foundation
import ToolSupport

/// The numbers of a report's JSON, checked before it is decoded, so that a
/// value that is valid JSON but wrong for its key is named with its key
/// path and what is wrong with it: a counter that is fractional, too big or
/// negative, a time that is negative, a number where text is.
///
/// Counts (counters, statement counts and rows, iterations, bytes) are
/// whole numbers from 0 to `Int.max`; the seed one from 0 to `UInt64.max`;
/// times (samples, summaries, time breakdown, statement times and
/// percentiles, figures whose name ends in `Seconds`, the timeout) are 0
/// or more. JSON has no NaN nor infinity, and numbers beyond a `Double` are
/// refused by the JSON reader itself.
enum ReportValueCheck {
    /// What a number at some key path must be.
    enum Kind {
        case count, seed, time, number
        /// A scenario's own figure: a time when its name ends in `Seconds`.
        case figure
    }

    /// One step of a key path: an object's key or an array's index.
    typealias Step = JSONKeyPath.Step

    /// Key path patterns: `#` is any array index, `*` any key.
    static let rules: [(pattern: [String], kind: Kind)] = ([
        ("environment.cores", .count), ("configuration.seed", .seed), ("configuration.iterations", .count),
        ("configuration.warmup", .count), ("configuration.scale", .number), ("configuration.timeoutSeconds", .time),
        ("scenarios.#.samples.#.wallSeconds", .time), ("scenarios.#.samples.#.cpuSeconds", .time),
        ("scenarios.#.samples.#.peakResidentBytes", .count), ("scenarios.#.summary.*.*", .time),
        ("scenarios.#.counters.*", .count), ("scenarios.#.traceCounters.*", .count), ("scenarios.#.droppedEvents", .count), ("scenarios.#.values.*", .figure),
        ("scenarios.#.timeBreakdown.sqliteSeconds", .time), ("scenarios.#.timeBreakdown.rowCacheSeconds", .time),
        ("scenarios.#.timeBreakdown.otherSeconds", .time), ("scenarios.#.timeBreakdown.wallSeconds", .time),
        ("scenarios.#.statements.#.count", .count),
        ("scenarios.#.statements.#.rowsReturned", .count), ("scenarios.#.statements.#.rowsChanged", .count),
        ("scenarios.#.statements.#.fullScanSteps", .count), ("scenarios.#.statements.#.totalSeconds", .time),
        ("scenarios.#.statements.#.maxSeconds", .time), ("scenarios.#.statements.#.durations.executions", .count),
        ("scenarios.#.statements.#.durations.p50Seconds", .time), ("scenarios.#.statements.#.durations.p90Seconds", .time),
        ("scenarios.#.statements.#.durations.p99Seconds", .time), ("scenarios.#.statements.#.durations.maxSeconds", .time),
        ("scenarios.#.statements.#.durations.iterationP90Seconds.#", .time), ("scenarios.#.insights.#.count", .count),
        ("scenarios.#.insights.#.costSeconds", .time), ("scenarios.#.insights.#.whatIf.*.samples.#", .time),
        ("scenarios.#.insights.#.whatIf.*.medianSeconds", .time), ("scenarios.#.insights.#.whatIf.*.counters.*", .count),
        ("configuration.insightThresholds.*", .count),
    ] as [(String, Kind)]).map { (pattern: $0.0.split(separator: ".").map(String.init), kind: $0.1) }

    /// The first wrong value of `object` (a report parsed by
    /// `JSONSerialization`), as "key.path: what is wrong", or nil.
    /// Objects are walked in key order, so the answer does not vary.
    static func problem(in object: Any) -> String? {
        problem(in: object, at: [])
    }

    private static func problem(in value: Any, at path: [Step]) -> String? {
        if let kind = kind(at: path), let reason = reason(value, kind: kind, at: path) {
            return "\(keyPath(path)): \(reason)"
        }
        if let dictionary = value as? [String: Any] {
            for key in dictionary.keys.sorted() {
                if let problem = problem(in: dictionary[key]!, at: path + [.key(key)]) { return problem }
            }
        } else if let array = value as? [Any] {
            for (index, element) in array.enumerated() {
                if let problem = problem(in: element, at: path + [.index(index)]) { return problem }
            }
        }
        return nil
    }

    static func kind(at path: [Step]) -> Kind? {
        rules.first { rule in
            rule.pattern.count == path.count && zip(rule.pattern, path).allSatisfy { pattern, step in
                switch step {
                case .index: return pattern == "#"
                case .key(let key): return pattern == "*" || pattern == key
                }
            }
        }?.kind
    }

    /// `scenarios[0].counters.sqlStatements`.
    static func keyPath(_ path: [Step]) -> String { JSONKeyPath(path).text }

    /// What is wrong with `value` for a number of `kind`, or nil.
    private static func reason(_ value: Any, kind: Kind, at path: [Step]) -> String? {
        var kind = kind
        if kind == .figure, case .key(let name)? = path.last { kind = name.hasSuffix("Seconds") ? .time : .number }
        let expected = kind == .count || kind == .seed ? "a whole number" : "a number"
        if value is NSNull { return nil }  // required values: the decoder says which
        guard let number = value as? NSNumber, !(value is String) else {
            return "expected \(expected), found \(description(of: value))"
        }
        let type = String(cString: number.objCType)
        if type == "c" || type == "B" { return "expected \(expected), found \(number.boolValue)" }
        let text = type == "d" || type == "f" ? "\(number.doubleValue)" : number.stringValue
        let double = number.doubleValue
        switch kind {
        case .count, .seed:
            let noun = kind == .seed ? "a seed" : "a count"
            if double < 0 { return "\(text) is negative (\(noun) is 0 or more)" }
            if double.rounded(.towardZero) != double { return "\(text) is not a whole number" }
            if kind == .count, number as? Int == nil { return "\(text) is too big (at most \(Int.max))" }
            if kind == .seed, number as? UInt64 == nil { return "\(text) is too big (at most \(UInt64.max))" }
            return nil
        case .time:
            if !double.isFinite { return "\(text) is not a finite number" }
            return double < 0 ? "\(text) is negative (a time is 0 or more)" : nil
        case .number, .figure:
            return double.isFinite ? nil : "\(text) is not a finite number"
        }
    }

    private static func description(of value: Any) -> String {
        switch value {
        case is String: return "a string"
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        default: return "\(value)"
        }
    }
}
