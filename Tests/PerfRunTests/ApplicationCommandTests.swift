import Foundation
import ObjectGraph
@testable import PerfRunCommand
import Scenarios
import Testing

/// An application's own command (`PerfRunCommand.main(scenarios:tool:)`)
/// carries its own name and version: in its help, its `--version`, the
/// explain example (an entity of its own data set), and its reports.
@Suite(.serialized) struct ApplicationCommandTests {
    static let model = try! Model([Entity("Recipe", properties: [.attribute("title", .string)])])
    static let dataSet = DataSetKind(
        name: "recipes", model: model, spec: DataSetSpec(entities: [.init("Recipe", base: 10, attributes: [.init("title", .text("R{n}"))])]))
    static let scenario = Scenario(name: "RecipeList", summary: "Lists recipes.", dataSet: dataSet) { _ in }

    /// Runs `body` with the command set up as an application's, then puts
    /// perf-run's own back.
    func asApplication<T>(_ body: () throws -> T) rethrows -> T {
        let (catalog, tool) = (PerfRunCommand.catalog, PerfRunCommand.tool)
        PerfRunCommand.catalog = ScenarioSet(scenarios: [Self.scenario])
        PerfRunCommand.tool = ToolIdentity(name: "recipes-perf", version: "2.3.0")
        defer { (PerfRunCommand.catalog, PerfRunCommand.tool) = (catalog, tool) }
        return try body()
    }

    @Test func helpVersionAndExplainNameTheApplication() {
        asApplication {
            let help = PerfRun.helpMessage()
            #expect(help.contains("USAGE: recipes-perf <subcommand>"))
            #expect(!help.contains("perf-run"))
            #expect(PerfRun.configuration.version == "2.3.0 (Faultline \(RunReport.toolVersion))")
            let explain = PerfRun.helpMessage(for: PerfRun.Explain.self)
            #expect(explain.contains("Example: recipes-perf explain Recipe \"title != nil\" --scale 0.1"))
            // Help wraps its lines: compare the words.
            let words = explain.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words.contains("(by default the first scenario's: recipes)"))
            #expect(!explain.lowercased().contains("selfie"))
        }
        // perf-run's own is unchanged.
        #expect(PerfRun.helpMessage().contains("USAGE: perf-run <subcommand>"))
        #expect(PerfRun.helpMessage(for: PerfRun.Explain.self).contains("Example: perf-run explain Selfie"))
    }

    @Test func theReportNamesTheApplicationsCommand() {
        let report = RunReport.make([], options: RunOptions(), commandLine: ["recipes-perf", "run"],
                                    tool: ToolIdentity(name: "recipes-perf", version: "2.3.0"))
        #expect(report.tool.name == "recipes-perf")
        #expect(report.tool.version == "2.3.0")
        #expect(RunReport.make([], options: RunOptions(), commandLine: []).tool.name == "perf-run")
    }
}
