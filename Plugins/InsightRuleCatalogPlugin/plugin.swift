import Foundation
import PackagePlugin

/// Generates the list of insight rules of the Insights target from its
/// files (`struct Name: InsightRule`), so that a new rule is one new file.
@main
struct InsightRuleCatalogPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let sources = target as? SourceModuleTarget else { return [] }
        let inputs = sources.sourceFiles(withSuffix: "swift").map(\.url).filter { $0.path.contains("/Insights/Rules/") }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("DeclaredInsightRules.swift")
        return [.buildCommand(
            displayName: "Listing the insight rules of \(target.name)",
            executable: try context.tool(named: "ScenarioCatalogGenerator").url,
            arguments: ["--insight-rules", output.path] + inputs.map(\.path),
            inputFiles: inputs,
            outputFiles: [output])]
    }
}
