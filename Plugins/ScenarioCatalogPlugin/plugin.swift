import Foundation
import PackagePlugin

/// Generates the scenario catalog of the Scenarios target from its files,
/// so that a new scenario is one new file.
@main
struct ScenarioCatalogPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let sources = target as? SourceModuleTarget else { return [] }
        let inputs = sources.sourceFiles(withSuffix: "swift").map(\.url)
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("DeclaredScenarios.swift")
        return [.buildCommand(
            displayName: "Listing the scenarios of \(target.name)",
            executable: try context.tool(named: "ScenarioCatalogGenerator").url,
            arguments: [output.path] + inputs.map(\.path),
            inputFiles: inputs,
            outputFiles: [output])]
    }
}
