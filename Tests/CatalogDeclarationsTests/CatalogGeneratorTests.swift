import Foundation
import TestSupport
import Testing

/// The generator the build plugins run: a declaration it cannot read fails
/// the build (exit 1) with the file and line in the compiler's form, and
/// writes no catalog.
@Suite struct CatalogGeneratorTests {
    static var generator: String { BuildProducts.path(of: "ScenarioCatalogGenerator") }

    @Test func anUnreadableScenarioFailsTheBuildWithItsFileAndLine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = directory.appendingPathComponent("Good.swift").path
        let bad = directory.appendingPathComponent("Bad.swift").path
        try "extension Scenario {\n    public static let good = Scenario(name: \"G\")\n}\n".write(toFile: good, atomically: true, encoding: .utf8)
        try "extension Scenario {\n\n    static var bad: Scenario { .good }\n}\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("Declared.swift").path

        let failed = try CommandResult.run(Self.generator, [output, good, bad])
        #expect(failed.status == 1)
        #expect(failed.stderr.hasPrefix("\(bad):3: error: a scenario the catalog cannot read"), "\(failed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))

        let listed = try CommandResult.run(Self.generator, [output, good])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8).contains("static let declared: [Scenario] = [.good]"))
    }

    @Test func aGenericRuleFailsTheBuild() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let rule = directory.appendingPathComponent("Rule.swift").path
        try "struct Good: Sendable, InsightRule {}\nstruct Bad<T>: InsightRule {}\n".write(toFile: rule, atomically: true, encoding: .utf8)
        let result = try CommandResult.run(Self.generator, ["--insight-rules", directory.appendingPathComponent("Declared.swift").path, rule])
        #expect(result.status == 1)
        #expect(result.stderr == "\(rule):2: error: an insight rule the catalog cannot read: declare it as `struct Name: InsightRule` (not generic)\n")
    }
}
