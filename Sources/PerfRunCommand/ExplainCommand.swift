import ArgumentParser
import Foundation
import ModelImport
import Scenarios
import ToolSupport

extension PerfRun {
    struct Explain: ParsableCommand {
        /// The example names the command and, for an application's command,
        /// an entity and attribute of its own first data set.
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                abstract: "Shows what a predicate compiles to, its query plan and what running it costs.",
                discussion: "Example: \(example)")
        }

        static var example: String {
            let tool = PerfRunCommand.tool
            guard tool != .perfRun, let model = PerfRunCommand.catalog.dataSets.first?.model,
                let entity = model.entities.first(where: { !$0.isAbstract && !$0.attributes.isEmpty })
            else { return "perf-run explain Selfie \"rating < 5 OR name LIKE '*e*ie*'\" --scale 0.1" }
            return "\(tool.name) explain \(entity.name) \"\(entity.attributes[0].name) != nil\" --scale 0.1"
        }

        @Argument(help: "The entity to fetch.")
        var entity: String

        @Argument(help: "The predicate, in format-string syntax (docs/predicates.md).")
        var predicate: String

        @Option(help: "The data set (by default the first scenario's: \(PerfRunCommand.catalog.dataSets.first?.name ?? "none")).")
        var dataset: DataSetKind?

        /// The data set to explain on.
        var dataSet: DataSetKind? { dataset ?? PerfRunCommand.catalog.dataSets.first }

        @Option(help: "A Core Data model (.xcdatamodeld, PATH.xcdatamodeld:VERSION, .xcdatamodel or contents) to explain on instead of --dataset, with a default data set of 100 × scale objects per entity.")
        var model: String?

        @OptionGroup var scale: ScaleOption

        @OptionGroup var outputOptions: OutputOptions

        func validate() throws {
            guard model == nil else { return }  // checked once the model is read
            guard let dataSet else { throw ValidationError("no data set to explain on: give --model") }
            guard dataSet.model.entity(named: entity) != nil else {
                throw ValidationError(
                    "the \(dataSet.name) data set has no entity \(entity) (\(dataSet.model.entities.map(\.name).joined(separator: ", ")))")
            }
        }

        func run() throws {
            let outputs = try outputOptions.outputs("explain", formats: [.text, .json], default: .text)
            let plan = try OutputPlan(inputs: model.map { [.init(option: "--model", path: $0)] } ?? [], outputs: outputs)
            let explanation: PredicateExplanation
            if let model {
                let imported = try ImportedModelFile.read(model)
                guard imported.entity(named: entity) != nil else {
                    throw UsageError("\(model) has no entity \(entity) (\(imported.entities.map(\.name).joined(separator: ", ")))")
                }
                explanation = try PredicateExplanation.explain(entity: entity, format: predicate, model: imported, scale: scale.scale)
            } else {
                explanation = try PredicateExplanation.explain(entity: entity, format: predicate, dataSet: dataSet!, scale: scale.scale)
            }
            try plan.writeAll(explanation)
        }
    }
}
