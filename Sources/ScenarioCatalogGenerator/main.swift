import CatalogDeclarations
import Foundation

// Writes the list of what a target's files declare, so that adding a
// scenario or an insight rule is adding one file (CatalogScanner says
// which forms it reads; any other form of such a declaration fails the
// build with its file and line):
//
//   ScenarioCatalogGenerator OUTPUT INPUT...
//       the scenarios of Sources/BuiltInScenarios (`public static let name = Scenario(`)
//   ScenarioCatalogGenerator --insight-rules OUTPUT INPUT...
//       the insight rules of Insights (`struct Name: InsightRule`)
var arguments = Array(CommandLine.arguments.dropFirst())
let rules = arguments.first == "--insight-rules"
if rules { arguments.removeFirst() }
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: ScenarioCatalogGenerator [--insight-rules] OUTPUT INPUT...\n".utf8))
    exit(2)
}
var names: [String] = []
var problems: [CatalogScanner.Problem] = []
for input in arguments.dropFirst().sorted() {
    guard let text = try? String(contentsOfFile: input, encoding: .utf8) else {
        problems.append(CatalogScanner.Problem(file: input, line: 1, message: "cannot be read as UTF-8 text"))
        continue
    }
    let found = CatalogScanner.names(in: text, file: input, kind: rules ? .insightRules : .scenarios)
    names += found.names
    problems += found.problems
}
guard problems.isEmpty else {
    for problem in problems { FileHandle.standardError.write(Data((problem.description + "\n").utf8)) }
    exit(1)
}
let source = rules
    ? """
        // Generated from the rule files by ScenarioCatalogGenerator; do not edit.

        extension InsightEngine {
            /// Every insight rule declared in the target, in file order.
            static let declared: [any InsightRule] = [\(names.map { "\($0)()" }.joined(separator: ", "))]
        }

        """
    : """
        // Generated from the scenario files by ScenarioCatalogGenerator; do not edit.
        import Scenarios

        extension ScenarioCatalog {
            /// Every scenario declared in the target, in file order.
            static let declared: [Scenario] = [\(names.map { ".\($0)" }.joined(separator: ", "))]
        }

        """
try source.write(toFile: output, atomically: true, encoding: .utf8)
