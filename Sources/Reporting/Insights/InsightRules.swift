import Foundation
import Probes

/// Rules over one iteration's events (their ``InsightEvidence``) that tell
/// the user what to change.
/// Each insight has a stable identity (rule, entity, key path) so that an
/// accepted-insights file can mark known findings, its evidence, and the call
/// site where it shows first.
///
/// | rule | fires when |
/// | --- | --- |
/// | `fault-storm` | at least `faultStormThreshold` faults of one entity are fulfilled from the database one by one after relationship faults lead to it, not counting re-reads of stale rows (a staleness interval), which a prefetch would not save: prefetch the relationship |
/// | `repeated-statement` | one statement with the same bound values runs at least `repetitionThreshold` times |
/// | `full-scan` | a statement shape steps through at least `fullScanThreshold` rows in full table scans: an index on the column it filters would serve |
/// | `save-in-loop` | at least `saveLoopThreshold` saves of one or two objects each |
/// | `repeated-count` | at least `countThreshold` relationship faults of one to-many relationship whose destinations are never read: a derived count attribute would do |
/// | `unused-prefetch` | a relationship prefetched for some objects and read for none of them (unused eager loading) |
///
/// The same rules, with the same thresholds, read a SQL debug log
/// (``analyze(_:)-(SQLLogAnalysis)``, in InsightRules+Log.swift) as far as a
/// log shows them, with `n-plus-one` for a SELECT shape run with at least
/// `nPlusOneThreshold` different values.
public struct InsightRules: Sendable {
    public var faultStormThreshold = 50
    public var repetitionThreshold = 10
    public var fullScanThreshold = 1_000
    public var saveLoopThreshold = 10
    public var countThreshold = 20
    /// Executions of one SELECT shape with different values that a log's
    /// `n-plus-one` insight needs (logs only: a run sees the faults).
    public var nPlusOneThreshold = 50
    /// Columns that have an index (`Table.column`), when the model is known:
    /// a full scan filtering one of them gets no advice to add the index.
    public var indexedColumns: Set<String> = []

    public init() {}

    /// Rules that know which columns of the model have an index.
    public init(indexedColumns: Set<String>) {
        self.indexedColumns = indexedColumns
    }

    /// The insights of a list of events (a log, a test).
    public func analyze(_ events: [Event]) -> [Insight] {
        analyze(InsightEvidence(events))
    }

    /// The insights of a run, from evidence gathered event by event
    /// (``Recorder/Snapshot/evidence``): every event counts, however many.
    public func analyze(_ evidence: InsightEvidence) -> [Insight] {
        faultStorms(evidence) + repeatedStatements(evidence) + fullScans(evidence) + savesInLoops(evidence)
            + repeatedCounts(evidence) + unusedPrefetches(evidence)
    }

    // MARK: Rules

    private func faultStorms(_ evidence: InsightEvidence) -> [Insight] {
        evidence.faultStorms.sorted { $0.key < $1.key }.compactMap { entity, storm in
            // Stale re-reads would happen after a prefetch too: only the
            // first reads are what prefetching saves.
            let avoidable = storm.count - storm.stale
            guard avoidable >= faultStormThreshold else { return nil }
            let key = storm.relationship.split(separator: ".").last.map(String.init) ?? storm.relationship
            var evidence = "\(storm.count) database faults of \(entity) after relationship faults of \(storm.relationship)"
            if storm.stale > 0 { evidence += ", \(storm.stale) of them re-reading stale rows (a prefetch would not save those)" }
            return Insight(
                rule: "fault-storm", entity: entity, keyPath: key,
                message: "\(avoidable) faults on \(entity) fulfilled one by one from the database; prefetch `\(key)`",
                evidence: evidence, callSite: storm.callSite.description)
        }
    }

    private func repeatedStatements(_ evidence: InsightEvidence) -> [Insight] {
        var found: [(sql: String, arguments: [String], repetition: InsightEvidence.Repetition)] = []
        for (sql, lists) in evidence.repetitions {
            for (arguments, repetition) in lists where repetition.count >= repetitionThreshold {
                found.append((sql, arguments, repetition))
            }
        }
        return found
            .sorted {
                $0.repetition.count != $1.repetition.count ? $0.repetition.count > $1.repetition.count
                    : $0.sql != $1.sql ? $0.sql < $1.sql : $0.arguments.lexicographicallyPrecedes($1.arguments)
            }
            .map { sql, arguments, repetition in
                let first = repetition.first
                let bound = arguments.isEmpty ? "" : " with (\(arguments.joined(separator: ", ")))"
                return Insight(
                    rule: "repeated-statement", entity: Self.table(in: sql) ?? "", keyPath: first.shape,
                    message: "the same statement ran \(repetition.count) times\(bound); keep its result instead of asking again",
                    evidence: "\(repetition.count) × \(sql)\(bound) (\(first.purpose))", callSite: first.callSite.description)
            }
    }

    private func fullScans(_ evidence: InsightEvidence) -> [Insight] {
        evidence.fullScans.filter { $0.value.steps >= fullScanThreshold }.sorted { $0.key < $1.key }.compactMap { shape, scans in
            guard let table = Self.table(in: shape) else { return nil }
            let column = Self.filteredColumn(in: shape)
            // Advice only where an index could serve: not for a column
            // matched through a pattern function, nor one that has an index.
            let advice: String
            if let column, Self.isOnlyMatched(column, in: shape) || Self.orsAPatternMatch(shape)
                || Self.globsFromAWildcard(shape, scans.first.arguments)
            {
                let what = Self.isOnlyMatched(column, in: shape)
                    ? "a pattern match on \(table).\(column)" : "this condition (a pattern from a wildcard, or an OR with a match)"
                advice = "no index serves \(what): put a cheaper, selective term first, or narrow the rows another way"
            } else if let column, indexedColumns.contains("\(table).\(column)") {
                advice = "\(table).\(column) has an index, which this condition cannot use (an OR across columns, or a function of the column)"
            } else {
                advice = column.map { "an index on \(table).\($0) would serve" } ?? "an index on the columns it filters would serve"
            }
            return Insight(
                rule: "full-scan", entity: table, keyPath: column ?? "",
                message: "full table scans of \(table): \(scans.steps) rows stepped in \(scans.executions) executions; \(advice)",
                evidence: shape, callSite: scans.first.callSite.description)
        }
    }

    private func savesInLoops(_ evidence: InsightEvidence) -> [Insight] {
        guard evidence.smallSaves >= saveLoopThreshold, let first = evidence.firstSmallSave else { return [] }
        return [Insight(
            rule: "save-in-loop", entity: "", keyPath: first.context,
            message: "\(evidence.smallSaves) saves of one or two objects each in context \(first.context); save once after the loop, or use a batch insert",
            evidence: "\(evidence.smallSaves) saves, \(evidence.smallSaveObjects) objects in all",
            callSite: first.callSite.description)]
    }

    private func repeatedCounts(_ evidence: InsightEvidence) -> [Insight] {
        evidence.relationshipFaults.sorted { $0.key < $1.key }.compactMap { key, faults in
            let first = faults.first
            // Destinations that faulted, or that a fetch loaded with their
            // values, may well be read: no advice then.
            let destination = first.destinationEntity
            guard faults.count >= countThreshold, !evidence.faultedEntities.contains(destination),
                  !evidence.fetchedWithValues.contains(destination)
            else { return nil }
            // Only the count, or only the IDs, can have been used: both ways out.
            return Insight(
                rule: "repeated-count", entity: first.entity, keyPath: first.relationship,
                message: "\(key) was loaded \(faults.count) times and none of its \(destination) objects was read: if only its count "
                    + "is used, a derived count attribute would do; if the IDs are, one fetch of them (a SUBQUERY, or fetchObjectIDs) would",
                evidence: "\(faults.count) relationship faults of \(key), no fault of \(first.destinationEntity)", callSite: first.callSite.description)
        }
    }

    private func unusedPrefetches(_ evidence: InsightEvidence) -> [Insight] {
        evidence.prefetchUsage.sorted { $0.key < $1.key }.compactMap { key, usage in
            guard usage.prefetched > 0, usage.read == 0 else { return nil }
            let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return nil }
            return Insight(
                rule: "unused-prefetch", entity: parts[0], keyPath: parts[1],
                message: "\(key) was prefetched for \(usage.prefetched) objects and read for none; drop `\(parts[1])` from the prefetch key paths",
                evidence: "prefetched=\(usage.prefetched) read=0 in context \(usage.context)", callSite: usage.callSite)
        }
    }

    // MARK: Reading SQL

    /// The table after the first FROM (`FROM "Selfie" t0` → `Selfie`).
    static func table(in sql: String) -> String? {
        guard let from = sql.range(of: "FROM \"") else { return nil }
        let rest = sql[from.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// Whether every use of the root table's `column` in the WHERE clause
    /// is inside a registered pattern or folding function.
    static func isOnlyMatched(_ column: String, in sql: String) -> Bool {
        guard let clause = sql.range(of: " WHERE ") else { return false }
        let condition = String(sql[clause.upperBound...])
        let reference = "t0.\"\(column)\""
        let uses = condition.components(separatedBy: reference).count - 1
        let wrapped = ["faultline_like(", "faultline_matches(", "faultline_fold("].reduce(0) { total, function in
            total + condition.components(separatedBy: function + reference).count - 1
        }
        return uses > 0 && uses == wrapped
    }

    /// Whether the statement matches a GLOB pattern that starts with a
    /// wildcard (`*abc`, `?bc`: a suffix, a CONTAINS): no index serves it.
    static func globsFromAWildcard(_ sql: String, _ arguments: [String]) -> Bool {
        sql.contains(" GLOB ?") && arguments.contains { $0.hasPrefix("'*") || $0.hasPrefix("'?") }
    }

    /// Whether the WHERE clause ORs a term with a pattern match: a row
    /// must then be read for the match whatever the other term's index.
    static func orsAPatternMatch(_ sql: String) -> Bool {
        guard let clause = sql.range(of: " WHERE ") else { return false }
        let condition = sql[clause.upperBound...]
        return condition.contains(" OR ") && (condition.contains("faultline_like(") || condition.contains("faultline_matches("))
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
