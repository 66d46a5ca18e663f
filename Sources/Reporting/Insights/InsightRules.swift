import Foundation
import Probes

/// Rules over one iteration's events that tell the user what to change.
/// Each insight has a stable identity (rule, entity, key path) so that an
/// accepted-insights file can mark known findings, its evidence, and the call
/// site where it shows first.
///
/// | rule | fires when |
/// | --- | --- |
/// | `fault-storm` | at least `faultStormThreshold` faults of one entity are fulfilled from the database one by one after relationship faults lead to it: prefetch the relationship |
/// | `repeated-statement` | one statement with the same bound values runs at least `repetitionThreshold` times |
/// | `full-scan` | a statement shape steps through at least `fullScanThreshold` rows in full table scans: an index on the column it filters would serve |
/// | `save-in-loop` | at least `saveLoopThreshold` saves of one or two objects each |
/// | `repeated-count` | at least `countThreshold` relationship faults of one to-many relationship whose destinations are never read: a derived count attribute would do |
/// | `unused-prefetch` | a relationship prefetched for some objects and read for none of them (unused eager loading) |
public struct InsightRules: Sendable {
    public var faultStormThreshold = 50
    public var repetitionThreshold = 10
    public var fullScanThreshold = 1_000
    public var saveLoopThreshold = 10
    public var countThreshold = 20

    public init() {}

    public func analyze(_ events: [Event]) -> [Insight] {
        var insights: [Insight] = []
        insights += faultStorms(events)
        insights += repeatedStatements(events)
        insights += fullScans(events)
        insights += savesInLoops(events)
        insights += repeatedCounts(events)
        insights += unusedPrefetches(events)
        return insights
    }

    // MARK: Rules

    private func faultStorms(_ events: [Event]) -> [Insight] {
        // Which relationship led to each entity's objects, and how many of
        // them were then faulted from the database.
        var leadingRelationship: [String: (String, CallSite)] = [:]
        var storms: [String: (count: Int, relationship: String, callSite: CallSite)] = [:]
        for event in events {
            switch event {
            case .relationshipFault(let e):
                leadingRelationship[e.destinationEntity] = ("\(e.entity).\(e.relationship)", e.callSite)
            case .fault(let e) where e.source == .database:
                guard let (relationship, _) = leadingRelationship[e.entity] else { continue }
                let current = storms[e.entity] ?? (0, relationship, e.callSite)
                storms[e.entity] = (current.count + 1, current.relationship, current.callSite)
            default:
                continue
            }
        }
        return storms.sorted { $0.key < $1.key }.compactMap { entity, storm in
            guard storm.count >= faultStormThreshold else { return nil }
            let key = storm.relationship.split(separator: ".").last.map(String.init) ?? storm.relationship
            return Insight(
                rule: "fault-storm", entity: entity, keyPath: key,
                message: "\(storm.count) faults on \(entity) fulfilled one by one from the database; prefetch `\(key)`",
                evidence: "\(storm.count) database faults of \(entity) after relationship faults of \(storm.relationship)",
                callSite: storm.callSite.description)
        }
    }

    private func repeatedStatements(_ events: [Event]) -> [Insight] {
        struct Key: Hashable {
            let sql: String
            let arguments: [String]
        }
        var counts: [Key: (Int, SQLEvent)] = [:]
        for case .sql(let e) in events where e.purpose != "transaction" {
            let key = Key(sql: e.sql, arguments: e.arguments)
            counts[key] = ((counts[key]?.0 ?? 0) + 1, counts[key]?.1 ?? e)
        }
        return counts.filter { $0.value.0 >= repetitionThreshold }
            .sorted { $0.value.0 != $1.value.0 ? $0.value.0 > $1.value.0 : $0.key.sql < $1.key.sql }
            .map { key, value in
                let (count, first) = value
                let bound = key.arguments.isEmpty ? "" : " with (\(key.arguments.joined(separator: ", ")))"
                return Insight(
                    rule: "repeated-statement", entity: Self.table(in: key.sql) ?? "", keyPath: first.shape,
                    message: "the same statement ran \(count) times\(bound); keep its result instead of asking again",
                    evidence: "\(count) × \(key.sql)\(bound) (\(first.purpose))", callSite: first.callSite.description)
            }
    }

    private func fullScans(_ events: [Event]) -> [Insight] {
        var steps: [String: (Int, Int, SQLEvent)] = [:]
        // A statement without WHERE wants every row: scanning is right.
        for case .sql(let e) in events where e.fullScanSteps > 0 && e.shape.contains(" WHERE ") {
            let current = steps[e.shape] ?? (0, 0, e)
            steps[e.shape] = (current.0 + e.fullScanSteps, current.1 + 1, current.2)
        }
        return steps.filter { $0.value.0 >= fullScanThreshold }.sorted { $0.key < $1.key }.compactMap { shape, value in
            let (total, executions, first) = value
            guard let table = Self.table(in: shape) else { return nil }
            let column = Self.filteredColumn(in: shape)
            let advice = column.map { "an index on \(table).\($0) would serve" } ?? "an index on the columns it filters would serve"
            return Insight(
                rule: "full-scan", entity: table, keyPath: column ?? "",
                message: "full table scans of \(table): \(total) rows stepped in \(executions) executions; \(advice)",
                evidence: shape, callSite: first.callSite.description)
        }
    }

    private func savesInLoops(_ events: [Event]) -> [Insight] {
        let small = events.compactMap { event -> SaveEvent? in
            if case .save(let e) = event, e.inserted + e.updated + e.deleted <= 2 { return e }
            return nil
        }
        guard small.count >= saveLoopThreshold, let first = small.first else { return [] }
        return [Insight(
            rule: "save-in-loop", entity: "", keyPath: first.context,
            message: "\(small.count) saves of one or two objects each in context \(first.context); save once after the loop, or use a batch insert",
            evidence: "\(small.count) saves, \(small.reduce(0) { $0 + $1.inserted + $1.updated + $1.deleted }) objects in all",
            callSite: first.callSite.description)]
    }

    private func repeatedCounts(_ events: [Event]) -> [Insight] {
        var faults: [String: (Int, RelationshipFaultEvent)] = [:]
        var destinationsRead = Set<String>()
        for event in events {
            switch event {
            case .relationshipFault(let e):
                let key = "\(e.entity).\(e.relationship)"
                faults[key] = ((faults[key]?.0 ?? 0) + 1, faults[key]?.1 ?? e)
            case .fault(let e):
                destinationsRead.insert(e.entity)
            default:
                continue
            }
        }
        return faults.sorted { $0.key < $1.key }.compactMap { key, value in
            let (count, first) = value
            guard count >= countThreshold, !destinationsRead.contains(first.destinationEntity) else { return nil }
            return Insight(
                rule: "repeated-count", entity: first.entity, keyPath: first.relationship,
                message: "\(key) was loaded \(count) times and none of its \(first.destinationEntity) objects was read; a derived count attribute would do",
                evidence: "\(count) relationship faults of \(key), no fault of \(first.destinationEntity)", callSite: first.callSite.description)
        }
    }

    private func unusedPrefetches(_ events: [Event]) -> [Insight] {
        var usage: [String: (prefetched: Int, read: Int, context: String, site: String)] = [:]
        for case .context(let e) in events where e.kind == "prefetch-usage" {
            let fields = e.detail.split(separator: " ", maxSplits: 4).map(String.init)
            guard fields.count >= 3, let prefetched = Int(fields[1].dropFirst("prefetched=".count)),
                let read = Int(fields[2].dropFirst("read=".count))
            else { continue }
            let site = fields.count == 5 && fields[3] == "at" ? fields[4] : ""
            let current = usage[fields[0]] ?? (0, 0, e.context, site)
            usage[fields[0]] = (current.prefetched + prefetched, current.read + read, current.context, current.site)
        }
        return usage.sorted { $0.key < $1.key }.compactMap { key, value in
            guard value.prefetched > 0, value.read == 0 else { return nil }
            let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return nil }
            return Insight(
                rule: "unused-prefetch", entity: parts[0], keyPath: parts[1],
                message: "\(key) was prefetched for \(value.prefetched) objects and read for none; drop `\(parts[1])` from the prefetch key paths",
                evidence: "prefetched=\(value.prefetched) read=0 in context \(value.context)", callSite: value.site)
        }
    }

    // MARK: Reading SQL

    /// The table after the first FROM (`FROM "Selfie" t0` → `Selfie`).
    static func table(in sql: String) -> String? {
        guard let from = sql.range(of: "FROM \"") else { return nil }
        let rest = sql[from.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// The first column the root table is filtered on (`WHERE t0."rating" < ?` → `rating`).
    static func filteredColumn(in sql: String) -> String? {
        guard let clause = sql.range(of: " WHERE ") else { return nil }
        let rest = sql[clause.upperBound...]
        guard let start = rest.range(of: "t0.\"") else { return nil }
        let name = rest[start.upperBound...]
        return name.firstIndex(of: "\"").map { String(name[..<$0]) }
    }
}
