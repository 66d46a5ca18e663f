import Testing

@testable import CatalogDeclarations

/// The build plugins list what they can read and fail on what they cannot:
/// a scenario or an insight rule is never dropped without a word.
@Suite struct CatalogScannerTests {
    static func scenarios(_ text: String) -> (names: [String], problems: [CatalogScanner.Problem]) {
        CatalogScanner.names(in: text, file: "S.swift", kind: .scenarios)
    }

    static func rules(_ text: String) -> (names: [String], problems: [CatalogScanner.Problem]) {
        CatalogScanner.names(in: text, file: "R.swift", kind: .insightRules)
    }

    @Test func scenariosOfTheFormsItReadsAreListedInOrder() {
        let found = Self.scenarios("""
            extension Scenario {
                public static let fetchAll = Scenario(
                    name: "FetchAll")
                static let typed: Scenario = Scenario(name: "Typed")
                public static let oneLine = Scenario(name: "OneLine", body: { _ in })
                public static let split =
                    Scenario(name: "Split")
            }
            """)
        #expect(found.problems.isEmpty)
        #expect(found.names == ["fetchAll", "typed", "oneLine", "split"])
    }

    @Test(arguments: [
        ("public static var computed: Scenario { Scenario(name: \"C\") }", 2),
        ("    static var stored = Scenario(name: \"V\")", 2),
        ("    let local = Scenario(name: \"L\")", 2),
        ("public static let lazy: Scenario = .make()", 2),
    ])
    func aScenarioDeclarationItCannotReadIsAnErrorAtItsLine(line: String, number: Int) {
        let found = Self.scenarios("extension Scenario {\n\(line)\n}")
        #expect(found.names.isEmpty)
        #expect(found.problems.map(\.line) == [number], "\(found)")
        #expect(found.problems.first?.description.hasPrefix("S.swift:\(number): error: a scenario the catalog cannot read") == true)
    }

    @Test func scenariosInCommentsAndStringsAreNotDeclarations() {
        let found = Self.scenarios("""
            // public static let old = Scenario(
            /* static var x: Scenario { } */
            let text = "static var y: Scenario {"
            let doc = \"\"\"
                static let z = Scenario(
                \"\"\"
            """)
        #expect(found.names.isEmpty)
        #expect(found.problems.isEmpty)
    }

    @Test func rulesOfEveryConformanceListAreListed() {
        let found = Self.rules("""
            struct FullScanRule: InsightRule {}
            public struct Sendable1: Sendable, InsightRule { }
            final class Classy: InsightRule {}
            struct SplitHeader:
                Sendable,
                InsightRule
            {
            }
            extension Later: InsightRule {}
            struct NotARule: Sendable {}
            """)
        #expect(found.problems.isEmpty)
        #expect(found.names == ["FullScanRule", "Sendable1", "Classy", "SplitHeader", "Later"])
    }

    @Test func aGenericRuleIsAnErrorAtItsLine() {
        let found = Self.rules("import Probes\n\nstruct Generic<T>: InsightRule {}\n")
        #expect(found.names.isEmpty)
        #expect(found.problems == [CatalogScanner.Problem(
            file: "R.swift", line: 3, message: "an insight rule the catalog cannot read: declare it as `struct Name: InsightRule` (not generic)")])
    }

    @Test func aRuleNamedInACommentIsNotARule() {
        let found = Self.rules("/// Unlike `struct X: InsightRule`, this is not one.\nstruct Helper {}\n")
        #expect(found.names.isEmpty && found.problems.isEmpty)
    }
}
