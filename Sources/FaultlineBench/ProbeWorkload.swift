import ArgumentParser
import Foundation
import ObjectGraph
import Probes

/// A fault-heavy workload for measuring what instrumentation costs and for
/// checking LTTng traces against the recorder: `make bench-probes` runs it
/// with each set of sinks, and the LTTng test runs it under a session.
///
/// Each round: a new context fetches every item (rows go to the row cache),
/// reads each (a cache hit), refreshes each and reads it again (hits),
/// resets, reads each again (a miss: one SELECT), reads one group's items
/// (a relationship fault), changes one item and saves.
@main
struct ProbeWorkload: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faultline-bench",
        abstract: "Runs a fault-heavy workload with chosen event sinks and prints the counters as JSON.")

    @Option(help: "Number of items.")
    var objects = 1_000

    @Option(help: "Number of rounds.")
    var rounds = 20

    @Option(help: "Comma-separated sinks: none, recorder, lttng, log, logging (the swift-log bridge, logger at debug), logging-info (logger at info), metrics, tracing.")
    var sinks = "recorder"

    static let knownSinks = ["none", "recorder", "lttng", "log", "logging", "logging-info", "metrics", "tracing"]


    func validate() throws {
        guard objects >= 1, rounds >= 1 else { throw ValidationError("--objects and --rounds must be at least 1") }
        for sink in sinks.split(separator: ",") where !Self.knownSinks.contains(String(sink)) {
            throw ValidationError("unknown sink \(sink) (\(Self.knownSinks.joined(separator: ", ")))")
        }
    }

    func run() throws {
        let wanted = Set(sinks.split(separator: ",").map(String.init))
        var eventSinks: [any EventSink] = []
        let recorder = Recorder(bufferCapacity: 0)
        if wanted.contains("recorder") { eventSinks.append(recorder) }
        var lttngStatus = "not asked for"
        if wanted.contains("lttng") {
            switch LTTngSink.load() {
            case .success(let sink):
                eventSinks.append(sink)
                lttngStatus = "loaded"
            case .failure(let reason):
                lttngStatus = "off: \(reason)"
            }
        }
        if wanted.contains("log") {
            eventSinks.append(SQLDebugLogSink(level: 1) { _ in })
        }
        // The server bridges, with back ends that drop what they are given
        // (BridgeBackends): what a bridge itself costs.
        if wanted.contains("logging") { eventSinks.append(BridgeBackends.logging(.debug)) }
        if wanted.contains("logging-info") { eventSinks.append(BridgeBackends.logging(.info)) }
        var bridgeFigures: [String: Int] = [:]
        let metrics = wanted.contains("metrics") ? BridgeBackends.metrics() : nil
        if let metrics { eventSinks.append(metrics.0) }
        let tracing = wanted.contains("tracing") ? BridgeBackends.tracing() : nil
        if let tracing { eventSinks.append(tracing.0) }

        let model = try Model([
            Entity("Group", properties: [
                .attribute("name", .string),
                .toMany("items", "Item", inverse: "group"),
            ]),
            Entity("Item", properties: [
                .attribute("name", .string),
                .attribute("value", .int64, default: 0),
                .toOne("group", "Group", inverse: "items"),
            ]),
        ])
        // The data is built through a store without sinks, so that only the
        // measured rounds reach the sinks (and the trace).
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let location = Connection.Location.file(directory.appendingPathComponent("bench.sqlite").path)
        var configuration = StoreConfiguration()
        configuration.sinks = []
        try populate(Store(model: model, location: location, configuration: configuration))
        configuration.sinks = eventSinks
        let instrumented = try Store(model: model, location: location, configuration: configuration)

        let start = ProbeClock.kernelNow()
        for round in 0..<rounds {
            let context = ObjectContext(store: instrumented, name: "round")
            try context.perform {
                let items = Array(try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")))
                for item in items { _ = try item.value(forKey: "name") }
                for item in items { context.refresh(item, mergeChanges: false) }
                for item in items { _ = try item.value(forKey: "name") }
                let keys = items.map(\.objectID)
                context.reset()
                for id in keys { _ = try context.object(with: id).value(forKey: "name") }
                let group = try context.fetch(FetchRequest<ManagedObject>(entityName: "Group"))[0]
                _ = try group.objects(forKey: "items")
                try context.object(with: keys[round % keys.count]).setValue(.integer(Int64(round + 1)), forKey: "value")
                try context.save()
            }
        }
        let seconds = Double(ProbeClock.kernelNow() - start) / 1e9
        let counters = recorder.counters
        if let metrics { bridgeFigures["metricsMade"] = metrics.1.metricsMade }
        if let tracing { bridgeFigures["spansEnded"] = tracing.1.spansEnded }
        var output: [String: Any] = ["seconds": seconds, "lttng": lttngStatus, "sinks": sinks]
        if !bridgeFigures.isEmpty { output["bridges"] = bridgeFigures }
        output["counters"] = Dictionary(uniqueKeysWithValues: counters.all.map { ($0.name, $0.value) })
        let data = try JSONSerialization.data(withJSONObject: output, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }

    private func populate(_ store: Store) throws {
        let context = ObjectContext(store: store, name: "setup")
        return try context.perform {
            let group = try context.insert(entityName: "Group")
            try group.setValue("all", forKey: "name")
            for number in 0..<objects {
                let item = try context.insert(entityName: "Item")
                try item.setValue(.string("Item \(number)"), forKey: "name")
                try item.setObject(group, forKey: "group")
            }
            try context.save()
        }
    }
}
