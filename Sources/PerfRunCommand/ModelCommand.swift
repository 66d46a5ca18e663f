import ArgumentParser
import Foundation
import ModelImport
import Reporting

extension PerfRun {
    /// `perf-run model …`: an application's own model.
    struct ModelCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "model", abstract: "Reads an application's model.", subcommands: [Import.self])

        struct Import: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Reads a Core Data model (.xcdatamodeld, .xcdatamodel or its contents file) into Faultline's model.",
                discussion: """
                    Prints what was imported, what changed on the way (inheritance flattened, ordered relationships \
                    unordered, …) and what was skipped and why (transformable attributes, fetched properties, \
                    configurations, …). Exit code 0 when a model was made, 1 when nothing of it makes a model, \
                    2 when the file cannot be read (the line says which file, line and element).
                    """)

            @Argument(help: "The model: a .xcdatamodeld (its current version), a .xcdatamodel, or a contents file.")
            var path: String

            @Flag(help: "Print the model as Swift source for a scenario package.")
            var swift = false

            @Flag(help: "Print the model as JSON: entities, attributes, relationships, what was skipped.")
            var json = false

            func validate() throws {
                if swift && json { throw ValidationError("--swift and --json: choose one") }
            }

            func run() throws {
                let output = OutputPlan.Output(option: "model import", destination: .standardOutput, format: swift ? .swift : json ? .json : .text)
                let plan = try OutputPlan(inputs: [.init(option: "PATH", path: path)], outputs: [output])
                let (contents, versions) = try CoreDataModelFile.locate(path)
                let imported = CoreDataModelImport.importModel(try CoreDataModelXML.read(contents))
                let description = ModelDescription(imported, source: contents, versions: versions)
                // A model that makes nothing has no Swift source: what was skipped says why.
                let document = ModelImportDocument(description, imported: imported)
                try plan.write(document, to: document.outputFormats.contains(output.format) ? output : .init(
                    option: output.option, destination: output.destination, format: .text))
                if swift, imported.model != nil, !description.skipped.isEmpty || !description.notes.isEmpty {
                    Console.warn("\(description.skipped.count) skipped, \(description.notes.count) changed: perf-run model import \(path) says which")
                }
                if imported.model == nil { throw CommandExit(.failure) }
            }
        }
    }
}
