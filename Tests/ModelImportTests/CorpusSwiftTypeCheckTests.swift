import Foundation
import ObjectGraph
import TestSupport
import Testing
@testable import ModelImport

/// The Swift source `perf-run model import --swift` prints for every
/// version of every corpus model, and for a model holding every value kind,
/// compiles against the ObjectGraph module this build made: one
/// `swiftc -typecheck` over all of them, each model its own `let`.
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

    /// The compiler flags that find ObjectGraph and the C modules below it
    /// in the build directory and the package, as SwiftPM passes them.
    static func moduleFlags(build: URL) throws -> [String] {
        var flags = ["-I", build.appendingPathComponent("Modules").path]
        var moduleMaps: [String] = []
        for entry in try FileManager.default.contentsOfDirectory(atPath: build.path) where entry.hasSuffix(".build") {
            let map = build.appendingPathComponent(entry).appendingPathComponent("module.modulemap").path
            if FileManager.default.fileExists(atPath: map) { moduleMaps.append(map) }
        }
        let sources = packageRoot.appendingPathComponent("Sources")
        for target in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
            let folder = sources.appendingPathComponent(target)
            for map in [folder.appendingPathComponent("module.modulemap"), folder.appendingPathComponent("include/module.modulemap")]
            where FileManager.default.fileExists(atPath: map.path) {
                moduleMaps.append(map.path)
            }
            let include = folder.appendingPathComponent("include")
            if FileManager.default.fileExists(atPath: include.path) { flags += ["-Xcc", "-I" + include.path] }
        }
        for map in moduleMaps.sorted() { flags += ["-Xcc", "-fmodule-map-file=" + map] }
        return flags
    }

    /// `swiftc` from PATH, the toolchain that built the modules.
    static func swiftc() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let found = path.split(separator: ":").map { "\($0)/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        return try #require(found, "no swiftc on PATH (\(path)): the generated Swift cannot be type-checked")
    }

    @Test func theSwiftOfEveryCorpusModelTypeChecksAgainstObjectGraph() throws {
        let build = BuildProducts.directory
        #expect(FileManager.default.fileExists(atPath: build.appendingPathComponent("Modules/ObjectGraph.swiftmodule").path),
                "no ObjectGraph module in \(build.path)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-typecheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        var files: [String] = []
        var origins: [String: String] = [:]
        func add(_ declarations: [Entity], origin: String) throws {
            let name = "model\(files.count)"
            let file = folder.appendingPathComponent("\(name).swift")
            try ModelSwiftSource.render(declarations, name: name).write(to: file, atomically: true, encoding: .utf8)
            files.append(file.path)
            origins[file.lastPathComponent] = origin
        }
        let contents = try Self.corpusContents()
        #expect(contents.count >= 30, "\(contents.count) model files")
        for path in contents {
            let imported = CoreDataModelImport.importModel(try CoreDataModelXML.read(path))
            guard imported.model != nil else {
                Issue.record("\(path): no model (\(imported.error ?? ""))")
                continue
            }
            try add(imported.declarations, origin: path)
        }
        try add(Self.everyValueKind, origin: "every value kind")

        let result = try CommandResult.run(
            try Self.swiftc(),
            ["-typecheck", "-parse-as-library", "-swift-version", "6", "-module-cache-path", folder.appendingPathComponent("cache").path]
                + (try Self.moduleFlags(build: build)) + files)
        // Name the corpus model behind each file the compiler complains about.
        var message = result.stderr
        for (file, origin) in origins where message.contains(file) { message += "\n\(file): \(origin)" }
        #expect(result.status == 0, "\(message)")
        #expect(!result.stderr.contains("error:"), "\(message)")
        #expect(!result.stderr.contains("warning:"), "\(message)")
    }
}
