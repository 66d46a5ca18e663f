import Foundation

// Writes the list of what a target's files declare, so that adding a
// scenario or an insight rule is adding one file:
//
//   ScenarioCatalogGenerator OUTPUT INPUT...
//       the scenarios of Scenarios/*.swift (`public static let name = Scenario(`)
//   ScenarioCatalogGenerator --insight-rules OUTPUT INPUT...
//       the insight rules of Reporting (`struct Name: InsightRule`)
var arguments = Array(CommandLine.arguments.dropFirst())
let rules = arguments.first == "--insight-rules"
if rules { arguments.removeFirst() }
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: ScenarioCatalogGenerator [--insight-rules] OUTPUT INPUT...\n".utf8))
    exit(2)
}
var names: [String] = []
for input in arguments.dropFirst().sorted() {
    guard let text = try? String(contentsOfFile: input, encoding: .utf8) else { continue }
    for line in text.split(separator: "\n") {
        var trimmed = line.trimmingCharacters(in: .whitespaces)
        if rules {
            for prefix in ["public ", "final ", "internal "] where trimmed.hasPrefix(prefix) { trimmed.removeFirst(prefix.count) }
            guard trimmed.hasPrefix("struct "), trimmed.contains(": InsightRule") else { continue }
            let name = trimmed.dropFirst("struct ".count).prefix { $0 != " " && $0 != ":" && $0 != "<" }
            if !name.isEmpty { names.append(String(name)) }
        } else {
            guard trimmed.hasPrefix("public static let "), trimmed.hasSuffix("= Scenario(") else { continue }
            let name = trimmed.dropFirst("public static let ".count).prefix { $0 != " " && $0 != "=" && $0 != ":" }
            if !name.isEmpty { names.append(String(name)) }
        }
    }
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
            /// Every scenario declared in Scenarios/, in file order.
            static let declared: [Scenario] = [\(names.map { ".\($0)" }.joined(separator: ", "))]
        }

        """
try source.write(toFile: output, atomically: true, encoding: .utf8)
