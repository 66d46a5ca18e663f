import Foundation
import ObjectGraph
import Probes
import ToolSupport

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
        return try explain(entity: entity, predicate: predicate, model: dataSet.model, cache: cache) { copy in
            try DataSetCache.copy(path, to: copy)
        }
    }

    /// Explains `format` for `entity` of any model (an application's,
    /// `perf-run model import`) on its default data set (``ModelDataSet``),
    /// built for this explanation.
    public static func explain(
        entity: String, format: String, model: Model, scale: Double, cache: DataSetCache = DataSetCache()
    ) throws -> PredicateExplanation {
        let predicate = try ObjectPredicate(format: format)
        return try explain(entity: entity, predicate: predicate, model: model, cache: cache) { copy in
            var configuration = StoreConfiguration()
            configuration.sinks = []
            try ModelDataSet.build(into: try Store(model: model, location: .file(copy), configuration: configuration), scale: scale)
        }
    }

    /// Explains `predicate` on a scratch store that `fill` makes at the path
    /// it gets: a new file in the data set cache's private directory,
    /// registered as a temporary file while it exists, so that a signal
    /// ending the process (Ctrl-C, SIGTERM) removes it with its -wal and
    /// -shm, as the end of the explanation does.
    private static func explain(
        entity: String, predicate: ObjectPredicate, model: Model, cache: DataSetCache, fill: (String) throws -> Void
    ) throws -> PredicateExplanation {
        let scratch = try cache.scratchStore("explain")
        defer { scratch.remove() }
        TerminationSignals.checkpoint("explain.scratch-store")
        let copy = scratch.path
        try fill(copy)
        let recorder = Recorder(bufferCapacity: 0)
        var configuration = StoreConfiguration()
        configuration.sinks = [recorder]
        let store = try Store(model: model, location: .file(copy), configuration: configuration)
        let request = FetchRequest<ManagedObject>(entityName: entity, predicate: predicate)
        let (sql, arguments) = try store.sql(for: request)
        let plan = try store.queryPlan(sql)
        recorder.reset()
        let context = ObjectContext(store: store, name: "explain")
        let before = store.patternMatches
        let matches = try context.perform { try context.fetch(request).count }
        let patternMatches = store.patternMatches - before
        var counters = recorder.counters.byName
        counters[.objectsRegisteredPeak] = nil
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
