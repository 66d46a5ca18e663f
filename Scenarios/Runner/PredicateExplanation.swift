import Foundation
import ObjectGraph
import Probes

/// `perf-run explain`: a predicate against a data set's model, its SQL, the
/// query plan, the matches and the counters of running it.
public struct PredicateExplanation: Codable, Sendable {
    public var entity: String
    public var predicate: String
    public var sql: String
    public var arguments: [String]
    public var queryPlan: [String]
    public var fullScans: [String]
    public var matches: Int
    /// Rows of the entity, and how many of them SQLite matched against a
    /// pattern through a registered function (a LIKE with inner wildcards,
    /// MATCHES): the costly terms, and how often the terms before them let
    /// rows skip them.
    public var rows: Int
    public var patternMatches: Int
    public var counters: [String: Int]

    /// Explains `format` for `entity` on a built-in data set.
    public static func explain(
        entity: String, format: String, dataSet: DataSetKind, scale: Double, seed: UInt64 = 1, cache: DataSetCache = DataSetCache()
    ) throws -> PredicateExplanation {
        let predicate = try ObjectPredicate(format: format)
        let path = try cache.file(for: dataSet, scale: scale, seed: seed)
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-explain-\(getpid()).sqlite").path
        try DataSetCache.copy(path, to: copy)
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) } }
        let recorder = Recorder(bufferCapacity: 0)
        var configuration = StoreConfiguration()
        configuration.sinks = [recorder]
        let store = try Store(model: dataSet.model, location: .file(copy), configuration: configuration)
        let request = FetchRequest<ManagedObject>(entityName: entity, predicate: predicate)
        let (sql, arguments) = try store.sql(for: request)
        let plan = try store.queryPlan(sql)
        recorder.reset()
        let context = ObjectContext(store: store, name: "explain")
        let before = store.patternMatches
        let matches = try context.perform { try context.fetch(request).count }
        let patternMatches = store.patternMatches - before
        let counters = Dictionary(uniqueKeysWithValues: recorder.counters.all.filter { $0.name != "objectsRegisteredPeak" }.map { ($0.name, $0.value) })
        let rows = try context.perform { try context.count(for: FetchRequest<ManagedObject>(entityName: entity)) }
        return PredicateExplanation(
            entity: entity, predicate: predicate.description, sql: sql, arguments: arguments.map(\.description), queryPlan: plan,
            fullScans: plan.filter(QueryPlan.isFullScan).map { $0.trimmingCharacters(in: .whitespaces) }, matches: matches,
            rows: rows, patternMatches: patternMatches, counters: counters)
    }

    /// The explanation for a terminal.
    public var text: String {
        var lines = ["predicate: \(predicate)", "sql:       \(sql)"]
        if !arguments.isEmpty { lines.append("bound:     \(arguments.joined(separator: ", "))") }
        lines.append("plan:")
        lines += queryPlan.map { "  \($0)\(QueryPlan.isFullScan($0) ? "   <- full table scan" : "")" }
        lines.append("matches:   \(matches) of \(rows) \(entity) objects")
        if patternMatches > 0 || sql.contains("faultline_like") || sql.contains("faultline_matches") {
            lines.append("patterns:  \(patternMatches) of \(rows) rows ran the pattern match (the terms before it decided the others)")
        }
        lines.append("counters:  " + counters.sorted { $0.key < $1.key }.filter { $0.value != 0 }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
        return lines.joined(separator: "\n")
    }
}
