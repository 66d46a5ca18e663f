import GeneratedSelfies
import ObjectGraph
import Probes
import BuiltInScenarios
import Scenarios

/// A pattern run with Faultline: the scenario's own code, as perf-run runs
/// it (the scenario body on a store with the recorder, or with no sink).
struct FaultlineVariant {
    let pattern: Pattern
    let scale: Double
    let seed: UInt64
    let recorder: Recorder?
    let capture: SQLCapture?
    /// Whether the typed reads go through the generated classes
    /// (GeneratedSelfies) instead of the hand-written ones.
    var generatedClasses = false

    private var configuration: StoreConfiguration {
        var configuration = StoreConfiguration()
        configuration.sinks = recorder.map { [$0] } ?? []
        if let capture { configuration.statementHook = { capture.record($0) } }
        return configuration
    }

    /// Opens what the pattern needs (not measured) and returns its measured
    /// work, which returns the scenario's figures.
    func prepare(file: String) throws -> () throws -> [String: Double] {
        let kind = pattern.dataSet
        if pattern.createsTheStore {
            return { [configuration, scale, seed] in
                let store = try Store(model: kind.model, location: .file(file), configuration: configuration)
                try kind.build(into: store, scale: scale, seed: seed)
                return ["rows": Double(kind.expectedRows(scale: scale).values.reduce(0, +))]
            }
        }
        // The generated classes' model is the data set's, entity for entity
        // (the same hash opens the same file): only the classes differ.
        let model = generatedClasses ? SelfiesModel.model : kind.model
        let store = try Store(model: model, location: .file(file), configuration: configuration)
        let iteration = ScenarioIteration(store: store, scale: scale, seed: seed, scenario: pattern.rawValue)
        switch pattern {
        case .createDataSet: fatalError("handled above")
        case .fetchAll: return { try Scenario.fetchAll.body(iteration); return iteration.values }
        case .singleFault: return { try Scenario.singleFault.body(iteration); return iteration.values }
        case .batchFault: return { try Scenario.batchFaultByPredicate.body(iteration); return iteration.values }
        case .prefetch: return { try Scenario.prefetch.body(iteration); return iteration.values }
        case .subqueryByHand:
            let context = iteration.context()
            return { ["people": Double(try context.perform { try SubqueryExperiment.byHand(in: context) })] }
        case .subquery:
            let context = iteration.context()
            return { ["people": Double(try context.perform { try SubqueryExperiment.withSubquery(in: context) })] }
        case .batchUpdateOneAtATime:
            let context = iteration.context()
            return { ["selfies": Double(try context.perform { try BatchUpdateExperiment.oneAtATime(in: context) })] }
        case .batchUpdate:
            return {
                guard case .count(let rows) = try BatchUpdateExperiment.batch(on: store) else { return [:] }
                return ["rows": Double(rows)]
            }
        case .rowCacheFault, .attributeRead:
            // One fetch of every person as full objects, then many passes
            // without SQL: the fetch is a small share of the accesses, and
            // the limit replays it to fill its map.
            let context = iteration.context()
            let refreshes = pattern == .rowCacheFault
            if generatedClasses {
                // The same loops on the generated class: written out with
                // its concrete type (a generic loop would measure dispatch
                // that neither application's code has).
                return {
                    try context.perform {
                        var request = FetchRequest<GeneratedPerson>()
                        request.returnsObjectsAsFaults = false
                        let people = Array(try context.fetch(request))
                        var names = 0
                        if refreshes {
                            for _ in 0..<Pattern.microPasses {
                                for person in people {
                                    context.refresh(person, mergeChanges: false)
                                    names += person.name.isEmpty ? 0 : 1
                                }
                            }
                        } else {
                            for _ in 0..<Pattern.microPasses {
                                for person in people { names += person.name.isEmpty ? 0 : 1 }
                            }
                        }
                        return ["namesRead": Double(names)]
                    }
                }
            }
            return {
                try context.perform {
                    var request = FetchRequest<Person>()
                    request.returnsObjectsAsFaults = false
                    let people = Array(try context.fetch(request))
                    var names = 0
                    // Two loops rather than a branch in one: each is the
                    // loop an application writes.
                    if refreshes {
                        for _ in 0..<Pattern.microPasses {
                            for person in people {
                                context.refresh(person, mergeChanges: false)
                                names += person.name.isEmpty ? 0 : 1
                            }
                        }
                    } else {
                        for _ in 0..<Pattern.microPasses {
                            for person in people { names += person.name.isEmpty ? 0 : 1 }
                        }
                    }
                    return ["namesRead": Double(names)]
                }
            }
        case .batchInsertOneAtATime, .batchInsert:
            let count = DataSetKind.count(1_000, scale: scale)
            let (oneAtATime, batch) = BatchInsertExperiment.values(count: count, seed: seed)
            if pattern == .batchInsert {
                return {
                    guard case .count(let rows) = try BatchInsertExperiment.batch(batch, on: store) else { return [:] }
                    return ["rows": Double(rows)]
                }
            }
            let context = iteration.context()
            return {
                try context.perform { try BatchInsertExperiment.oneAtATime(oneAtATime, in: context) }
                return ["rows": Double(oneAtATime.count)]
            }
        }
    }

    /// What the pattern found, to compare with GRDB's: names read, people,
    /// objects or rows.
    func result(_ values: [String: Double]) -> Int? {
        let key: String
        switch pattern {
        case .singleFault, .batchFault, .prefetch, .rowCacheFault, .attributeRead: key = "namesRead"
        case .fetchAll: key = "objects"
        case .subqueryByHand, .subquery: key = "people"
        case .batchUpdateOneAtATime: key = "selfies"
        case .createDataSet, .batchUpdate, .batchInsertOneAtATime, .batchInsert: key = "rows"
        }
        return values[key].map { Int($0) }
    }

    /// The pattern's object accesses (``Pattern/accessUnit``), from the
    /// scenario's figures and the recorder's counters of one run.
    func accesses(values: [String: Double], counters: Counters) -> Int {
        switch pattern {
        case .singleFault, .batchFault, .prefetch:
            Int(values["namesRead"] ?? 0) + DataSetKind.count(500, scale: scale)
        case .rowCacheFault, .attributeRead: Int(values["namesRead"] ?? 0)
        case .fetchAll: Int(values["objects"] ?? 0)
        case .subqueryByHand, .subquery: counters.rowsRead
        case .createDataSet, .batchUpdateOneAtATime, .batchUpdate, .batchInsertOneAtATime, .batchInsert: counters.rowsWritten
        }
    }
}
