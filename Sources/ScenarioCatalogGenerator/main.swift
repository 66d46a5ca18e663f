import Foundation

// Writes the list of scenarios declared in Scenarios/*.swift
// (`public static let name = Scenario(`), so that adding a scenario is
// adding one file. Usage: ScenarioCatalogGenerator OUTPUT INPUT...
let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: ScenarioCatalogGenerator OUTPUT INPUT...\n".utf8))
    exit(2)
}
var names: [String] = []
for input in arguments.dropFirst().sorted() {
    guard let text = try? String(contentsOfFile: input, encoding: .utf8) else { continue }
    for line in text.split(separator: "\n") {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("public static let "), trimmed.hasSuffix("= Scenario(") else { continue }
        let name = trimmed.dropFirst("public static let ".count).prefix { $0 != " " && $0 != "=" && $0 != ":" }
        if !name.isEmpty { names.append(String(name)) }
    }
}
let source = """
    // Generated from the scenario files by ScenarioCatalogGenerator; do not edit.
    import Scenarios

    extension ScenarioCatalog {
        /// Every scenario declared in Scenarios/, in file order.
        static let declared: [Scenario] = [\(names.map { ".\($0)" }.joined(separator: ", "))]
    }

    """
try source.write(toFile: output, atomically: true, encoding: .utf8)
