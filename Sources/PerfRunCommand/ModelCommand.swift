import ArgumentParser
import Foundation
import ModelImport
import ToolSupport

extension PerfRun {
    /// `perf-run model …`: an application's own model.
    struct ModelCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "model", abstract: "Reads an application's model.", subcommands: [Import.self, Diff.self])

        struct Import: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Reads a Core Data model (.xcdatamodeld, .xcdatamodel or its contents file) into Faultline's model.",
                discussion: """
                    Prints what was imported (fetch request templates with their predicates too), what changed on the \
                    way (ordered relationships unordered, a descending index as an index, …) and what was skipped and why \
                    (transient and transformable attributes, fetched properties, configurations, a fetch request whose \
                    predicate does not parse, an entity whose table would have more columns than SQLite allows, …); \
                    --swift writes the model as Swift source instead: the model and a typed class for each entity, as \
                    Xcode's codegen makes. \
                    The model is declared as `public enum <NAME> { public static let model = try! Model([...]) }`. Each \
                    entity gets a public class named after its representedClassName (the entity's name when it has \
                    none), a subclass of its parent entity's class, with typed properties for its attributes and \
                    to-one relationships, its to-many destinations with addTo…/removeFrom… methods, entityName, the \
                    key path names #Predicate reads (keyNames), and fetchRequest() typed by the class. Everything is \
                    public; the same model gives the same bytes. \
                    A .xcdatamodeld is read at its current version (.xccurrentversion), or at the one --model-version or \
                    PATH:VERSION names (Model.xcdatamodeld:"Model 2"); one whose .xccurrentversion names none needs one \
                    when it has several versions. Exit code 0 when a model was made, 1 when \
                    nothing of it makes a model (no entities, only abstract ones), 2 when the file cannot be read \
                    (the line says which file, line, column and element: XML that is not well-formed, a parentEntity \
                    that is missing, the entity itself or a cycle) or the version does not exist.
                    """)

            // Optional to the parser, required by run(): argument-parser takes a
            // command's own --version for its built-in one (and prints the
            // tool's version) when a required argument is missing.
            @Argument(help: ArgumentHelp(
                "The model: a .xcdatamodeld (its current version, or PATH:VERSION), a .xcdatamodel, or a contents file.",
                valueName: "path"))
            var path: String?

            @Option(
                name: .customLong("model-version"),
                help: ArgumentHelp(
                    "The version of a .xcdatamodeld to read instead of its current one (Model 2 or \"Model 2.xcdatamodel\"; default: its current version).",
                    valueName: "name"))
            var modelVersion: String?

            /// The option's earlier spelling, which shadowed the tool's
            /// own `--version`: still read, with a warning.
            @Option(name: .customLong("version"), help: .hidden)
            var deprecatedVersion: String?

            /// The version asked for and the option that asked (nil: the
            /// current one); both spellings at once are bad usage.
            func version() throws(UsageError) -> (name: String, option: String)? {
                switch (modelVersion, deprecatedVersion) {
                case (let name?, nil): return (name, "--model-version")
                case (nil, let name?): return (name, "--version")
                case (nil, nil): return nil
                case (_?, _?): throw UsageError("--version is --model-version's earlier spelling: give --model-version alone")
                }
            }

            @OptionGroup var outputOptions: OutputOptions

            @Option(help: ArgumentHelp(
                "With --swift, the enum that holds the model (default: the model file's name and Model, as BookStoreModel).",
                valueName: "name"))
            var name: String?

            /// Whether Swift source is asked for.
            var swift: Bool { outputOptions.swift != nil || outputOptions.format == OutputFormat.swift.rawValue }

            func validate() throws {
                do { _ = try version() } catch { throw ValidationError(error.reason) }
                if let name {
                    guard swift else { throw ValidationError("--name names the Swift source's model: it needs --swift") }
                    do { _ = try SwiftModelName(name) } catch { throw ValidationError("--name \(error.description)") }
                }
            }

            func run() throws {
                guard let path else { throw UsageError("Missing expected argument '<path>'") }
                let version = try version()
                if deprecatedVersion != nil {
                    Console.warn("--version is deprecated for model import (it is the tool's own): use --model-version")
                }
                let outputs = try outputOptions.outputs("model import", formats: [.text, .json, .swift], default: .text)
                let reference = CoreDataModelReference(argument: path)
                let plan = try OutputPlan(inputs: [.init(option: "PATH", path: reference.path)], outputs: outputs)
                let location = try ModelCommand.locate(reference, version: version?.name, option: version?.option ?? "--model-version")
                let imported = CoreDataModelImport.importModel(try CoreDataModelXML.read(location.contents))
                let description = ModelDescription(imported, location: location)
                // A model that makes nothing has no Swift source: what was skipped says why.
                let document = ModelImportDocument(
                    description, imported: imported, swiftName: try name.map { name throws(ModelImportError) in try SwiftModelName(name) })
                for output in outputs {
                    try plan.write(document, to: document.outputFormats.contains(output.format) ? output : .init(
                        option: output.option, destination: output.destination, format: .text))
                }
                if swift, imported.model != nil, !description.skipped.isEmpty || !description.notes.isEmpty {
                    Console.warn("\(description.skipped.count) skipped, \(description.notes.count) changed: perf-run model import \(path) says which")
                }
                if imported.model == nil { throw CommandExit(.failure) }
            }
        }

        struct Diff: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Compares two Core Data models: entities, attributes and relationships added, removed and changed.",
                discussion: """
                    A and B are models as model import takes them; a version of a .xcdatamodeld is named after a colon \
                    (Model.xcdatamodeld:"Model 2") or with --version-a and --version-b, and its current version is read \
                    otherwise. Elements are matched by name; a changed one lists each aspect that differs (type, optional, \
                    default, derivation, transient, destination, inverse, to-many, ordered, delete rule, parent entity, \
                    abstract) with its value in A and in B. Exit code 0 when the models declare the same, 1 when they \
                    differ (as diff), 2 when a model cannot be read or a version does not exist.
                    """)

            @Argument(help: "The first model (a .xcdatamodeld, PATH:VERSION, a .xcdatamodel or a contents file).")
            var a: String

            @Argument(help: "The second model, in the same forms.")
            var b: String

            @Option(name: .customLong("version-a"), help: ArgumentHelp("The version of A to read, when A is a .xcdatamodeld.", valueName: "name"))
            var versionA: String?

            @Option(name: .customLong("version-b"), help: ArgumentHelp("The version of B to read, when B is a .xcdatamodeld.", valueName: "name"))
            var versionB: String?

            @OptionGroup var outputOptions: OutputOptions

            func run() throws {
                let outputs = try outputOptions.outputs("model diff", formats: [.text, .json], default: .text)
                let referenceA = CoreDataModelReference(argument: a)
                let referenceB = CoreDataModelReference(argument: b)
                let plan = try OutputPlan(
                    inputs: [.init(option: "A", path: referenceA.path), .init(option: "B", path: referenceB.path)], outputs: outputs)
                let locationA = try ModelCommand.locate(referenceA, version: versionA, option: "--version-a")
                let locationB = try ModelCommand.locate(referenceB, version: versionB, option: "--version-b")
                let diff = ModelDiff(from: try CoreDataModelXML.read(locationA.contents), to: try CoreDataModelXML.read(locationB.contents))
                try plan.writeAll(ModelDiffDocument(a: locationA, b: locationB, diff: diff))
                if !diff.isIdentical { throw CommandExit(.failure) }
            }
        }

        /// The model file `reference` names, at the version `option` gives
        /// when it gives one; a version that is not there is bad usage of
        /// the option that named it.
        static func locate(_ reference: CoreDataModelReference, version: String?, option: String) throws -> CoreDataModelLocation {
            let chosen = try reference.with(version: version, option: option)
            do {
                return try chosen.resolve()
            } catch let error as ModelVersionError where version != nil {
                throw UsageError(option: option, error.description)
            }
        }
    }
}
