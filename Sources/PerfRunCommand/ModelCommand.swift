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
                let description: ModelDescription
                let imported: ImportedModel
                do {
                    let (contents, versions) = try CoreDataModelFile.locate(path)
                    imported = CoreDataModelImport.importModel(try CoreDataModelXML.read(contents))
                    description = ModelDescription(imported, source: contents, versions: versions)
                } catch let error as ModelImportError {
                    throw UsageError(error.description)
                }
                if json {
                    print(String(decoding: try ReportFile.json(description), as: UTF8.self))
                } else if swift, imported.model != nil {
                    print(ModelSwiftSource.render(imported.declarations), terminator: "")
                    if !description.skipped.isEmpty || !description.notes.isEmpty {
                        FileHandle.standardError.write(Data("\(description.skipped.count) skipped, \(description.notes.count) changed: perf-run model import \(path) says which\n".utf8))
                    }
                } else {
                    print(description.text)
                }
                if imported.model == nil { throw ExitCode.failure }
            }
        }
    }
}
