import Foundation
import ObjectGraph
import TestSupport
import Testing
@testable import ModelImport

/// The Swift source `perf-run model import --swift` prints for every
/// version of every corpus model (the model and its classes), for a model
/// holding every value kind and for one whose names the source must
/// change, compiles against the ObjectGraph module this build made without
/// an error or a warning; so does each model's declaration alone
/// (``ModelSwiftSource/render(_:name:)``). Models whose classes share a
/// name (versions of one model) go to different `swiftc -typecheck`
/// runs: as few as the names allow.
@Suite struct CorpusSwiftTypeCheckTests {
    /// The package's folder (Tests/ModelImportTests/… → the root).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every `contents` file of the corpus, sorted.
    static func corpusContents() throws -> [String] {
        let folder = CorpusTests.folder.path
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix("/contents") }.sorted().map { folder + "/" + $0 }
    }

    /// A model with each kind of value, the ones no literal spells too.
    static let everyValueKind: [Entity] = [
        Entity("Values", properties: [
            .attribute("positive", .double, default: .double(.infinity)),
            .attribute("negative", .double, default: .double(-.infinity)),
            .attribute("notANumber", .double, default: .double(.nan)),
            .attribute("tiny", .double, default: .double(.leastNonzeroMagnitude)),
            .attribute("subnormal", .double, default: .double(-Double.leastNormalMagnitude / 3)),
            .attribute("smallest", .int64, default: .integer(.min)),
            .attribute("flag", .bool, default: .bool(true)),
            .attribute("text", .string, default: .string("quote \" backslash \\ \\(x) #\"raw\"# \n\r\t \u{0} \u{7F} \u{202E} \u{2028} café")),
            .attribute("day", .date, default: .date(Date(timeIntervalSinceReferenceDate: 631_123_200))),
            .attribute("before", .date, default: .date(Date(timeIntervalSinceReferenceDate: -1e9))),
            .attribute("id", .uuid, default: .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)),
            .attribute("bytes", .data, default: .data(Data([0, 1, 254, 255]))),
            .toOne("self_", "Values", optional: true),
        ], uniquenessConstraints: [["text"]]),
    ]

    /// A model whose names the classes cannot all take as they are:
    /// entities named like the types the source uses (`Date`, `Model`,
    /// `Entity`, `String`, `model`), two entities of one class and classes
    /// of a module or none, keywords and `ManagedObject`'s own names as
    /// properties, a property named like a class, names a subentity
    /// inherits renamed, and each derivation.
    static let awkwardNames: [Entity] = [
        Entity("Date", properties: [
            .attribute("class", .string, optional: true),
            .attribute("default", .int32, default: 3),
            .attribute("entity", .string, optional: true),
            .attribute("entity_", .string, optional: true),
            .attribute("description", .string, optional: true),
            .attribute("context", .bool, optional: true),
            .attribute("objectID", .int64, optional: true),
            .attribute("isFault", .bool, optional: true),
            .attribute("entityName", .string, optional: true),
            .attribute("keyNames", .string, optional: true),
            .attribute("self", .string, optional: true),
            .attribute("Type", .string, optional: true),
            .attribute("Protocol", .string, optional: true),
            .attribute("init", .string, optional: true),
            .attribute("value", .string, optional: true),
            .attribute("Book", .string, optional: true),
            .attribute("String", .string, optional: true),
            .attribute("when", .date, optional: true),
            .attribute("bytes", .data, optional: true),
            .attribute("id", .uuid, optional: true),
            .attribute("addObject", .string, optional: true),
            .attribute("removeObject", .string, optional: true),
            .attribute("fatalError", .string, optional: true),
            .attribute("Swift", .string, optional: true),
            .attribute("file", .string, optional: true),
            .attribute("line", .int64, optional: true),
            .attribute("error", .string, optional: true),
            .toMany("in", "Model", inverse: "for"),
            .toMany("objects", "Entity", inverse: nil),
            .derived("inCount", .int64, .count("in")),
            .derived("inTotal", .double, .sum("in", "amount")),
            .derived("lowerClass", .string, .lowercase("class")),
        ]),
        Entity("Model", properties: [
            .attribute("amount", .double, optional: true),
            .toOne("for", "Date", inverse: "in"),
        ]),
        Entity("Entity", abstract: true, properties: [.attribute("entity", .string, optional: true), .attribute("repeat", .int16, optional: true)]),
        Entity("String", parent: "Entity", properties: [.attribute("entity_", .string, optional: true)]),
        Entity("model", parent: "Entity", properties: [.toOne("while", "Entity", inverse: nil)]),
        Entity("Book", properties: [.attribute("title", .string, optional: true)]),
        Entity("Publication", properties: [.attribute("title", .string, optional: true)]),
        Entity("Plain", properties: []),
    ]

    /// The classes `awkwardNames` asks for: a module's (`Shop.Book`), two
    /// entities of one class, none (`NSManagedObject`), one that is not an
    /// identifier, and the model's enum's name.
    static let awkwardClassNames = [
        "Book": ".Book", "Publication": "Shop.Book", "Plain": "NSManagedObject", "String": "Not a name", "Model": "AwkwardModel",
    ]

    /// The compiler flags that find ObjectGraph and the C modules below it
    /// in the build directory, the package and its dependencies' checkouts
    /// (swift-numerics' shims, below Probes' histograms), as SwiftPM passes
    /// them.
    static func moduleFlags(build: URL) throws -> [String] {
        var flags = ["-I", build.appendingPathComponent("Modules").path]
        var moduleMaps: [String] = []
        for entry in try FileManager.default.contentsOfDirectory(atPath: build.path) where entry.hasSuffix(".build") {
            let map = build.appendingPathComponent(entry).appendingPathComponent("module.modulemap").path
            if FileManager.default.fileExists(atPath: map) { moduleMaps.append(map) }
        }
        moduleMaps += try Self.moduleMaps(in: packageRoot.appendingPathComponent("Sources"), flags: &flags)
        let checkouts = packageRoot.appendingPathComponent(".build/checkouts")
        for dependency in ((try? FileManager.default.contentsOfDirectory(atPath: checkouts.path)) ?? []).sorted() {
            let sources = checkouts.appendingPathComponent(dependency).appendingPathComponent("Sources")
            guard FileManager.default.fileExists(atPath: sources.path) else { continue }
            var unused: [String] = []
            moduleMaps += try Self.moduleMaps(in: sources, flags: &unused)
        }
        for map in moduleMaps.sorted() { flags += ["-Xcc", "-fmodule-map-file=" + map] }
        return flags
    }

    /// The module maps of the targets in `sources` (a package's Sources),
    /// with their include folders added to `flags`.
    private static func moduleMaps(in sources: URL, flags: inout [String]) throws -> [String] {
        var moduleMaps: [String] = []
        for target in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
            let folder = sources.appendingPathComponent(target)
            for map in [folder.appendingPathComponent("module.modulemap"), folder.appendingPathComponent("include/module.modulemap")]
            where FileManager.default.fileExists(atPath: map.path) {
                moduleMaps.append(map.path)
            }
            let include = folder.appendingPathComponent("include")
            if FileManager.default.fileExists(atPath: include.path) { flags += ["-Xcc", "-I" + include.path] }
        }
        return moduleMaps
    }

    /// `swiftc` from PATH, the toolchain that built the modules.
    static func swiftc() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let found = path.split(separator: ":").map { "\($0)/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        return try #require(found, "no swiftc on PATH (\(path)): the generated Swift cannot be type-checked")
    }

    /// One Swift file to type-check: its source, the corpus model (or
    /// test model) it comes from, and the names it declares at the top.
    struct SourceFile {
        var source: String
        var origin: String
        var topLevelNames: Set<String>
    }

    /// `files` in as few groups as possible with no top-level name twice
    /// in a group (each group is one module), in order.
    static func groups(_ files: [SourceFile]) -> [[SourceFile]] {
        var groups: [(files: [SourceFile], names: Set<String>)] = []
        for file in files {
            if let index = groups.firstIndex(where: { $0.names.isDisjoint(with: file.topLevelNames) }) {
                groups[index].files.append(file)
                groups[index].names.formUnion(file.topLevelNames)
            } else {
                groups.append(([file], file.topLevelNames))
            }
        }
        return groups.map(\.files)
    }

    /// The source with classes of `declarations`, and the names it declares.
    static func classes(_ declarations: [Entity], representedClassNames: [String: String] = [:], model: SwiftModelName, origin: String)
        -> SourceFile
    {
        let names = ModelSwiftNames(declarations, representedClassNames: representedClassNames, model: model)
        return SourceFile(
            source: ModelSwiftSource.render(classesOf: declarations, representedClassNames: representedClassNames, modelName: model),
            origin: origin, topLevelNames: Set(names.classes.values).union([model.identifier, model.objectProtocol]))
    }

    @Test func theSwiftOfEveryCorpusModelTypeChecksAgainstObjectGraph() throws {
        let build = BuildProducts.directory
        #expect(FileManager.default.fileExists(atPath: build.appendingPathComponent("Modules/ObjectGraph.swiftmodule").path),
                "no ObjectGraph module in \(build.path)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-typecheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        var files: [SourceFile] = []
        let contents = try Self.corpusContents()
        #expect(contents.count >= 30, "\(contents.count) model files")
        for path in contents {
            let imported = CoreDataModelImport.importModel(try CoreDataModelXML.read(path))
            guard imported.model != nil else {
                Issue.record("\(path): no model (\(imported.error ?? ""))")
                continue
            }
            // What the command prints: the model's classes, named after the file.
            let document = ModelImportDocument(ModelDescription(imported, source: path, versions: []), imported: imported)
            let names = ModelSwiftNames(imported.declarations, representedClassNames: imported.representedClassNames, model: document.swiftName)
            files.append(SourceFile(
                source: try document.render(.swift), origin: path,
                topLevelNames: Set(names.classes.values).union([document.swiftName.identifier, document.swiftName.objectProtocol])))
            // The model's declaration alone, as before.
            let plain = "model\(files.count)"
            files.append(SourceFile(source: ModelSwiftSource.render(imported.declarations, name: plain), origin: path, topLevelNames: [plain]))
        }
        files.append(Self.classes(Self.everyValueKind, model: try SwiftModelName("EveryValueKind"), origin: "every value kind"))
        files.append(SourceFile(
            source: ModelSwiftSource.render(Self.everyValueKind, name: "everyValueKind"), origin: "every value kind", topLevelNames: ["everyValueKind"]))
        #expect(throws: Never.self) { try Model(Self.awkwardNames) }
        files.append(Self.classes(
            Self.awkwardNames, representedClassNames: Self.awkwardClassNames, model: try SwiftModelName("AwkwardModel"), origin: "awkward names"))

        let groups = Self.groups(files)
        #expect(groups.map(\.count).reduce(0, +) == files.count)
        for (number, group) in groups.enumerated() {
            var paths: [String] = []
            var origins: [String: String] = [:]
            for file in group {
                let url = folder.appendingPathComponent("group\(number)-file\(paths.count).swift")
                try file.source.write(to: url, atomically: true, encoding: .utf8)
                paths.append(url.path)
                origins[url.lastPathComponent] = file.origin
            }
            let result = try CommandResult.run(
                try Self.swiftc(),
                ["-typecheck", "-parse-as-library", "-swift-version", "6", "-module-name", "Group\(number)",
                 "-module-cache-path", folder.appendingPathComponent("cache").path]
                    + (try Self.moduleFlags(build: build)) + paths)
            // Name the corpus model behind each file the compiler complains about.
            var message = result.stderr
            for (file, origin) in origins where message.contains(file) { message += "\n\(file): \(origin)" }
            #expect(result.status == 0, "\(message)")
            #expect(!result.stderr.contains("error:"), "\(message)")
            #expect(!result.stderr.contains("warning:"), "\(message)")
        }
    }
}
