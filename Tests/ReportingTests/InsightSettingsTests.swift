import Foundation
import Insights
import Probes
import Testing
import ToolSupport

/// Thresholds as data: the insights file an application commits, and
/// `--insight-threshold rule=value`; every mistake named with its key path.
@Suite struct InsightSettingsTests {
    static func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("insights-\(UUID()).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func theJSONFormHoldsAcceptedThresholdsAndIntentions() throws {
        let path = try Self.file("""
            { "accepted": ["n-plus-one/Post/author"],
              "thresholds": { "full-scan": 1000, "n-plus-one": 3 },
              "intended": { "sort-without-index": "the export reads every row, sorted" } }
            """)
        let settings = try InsightSettings(contentsOf: path)
        #expect(settings.accepted == ["n-plus-one/Post/author"])
        #expect(settings.thresholds == [.fullScan: 1000, .nPlusOne: 3])
        #expect(settings.intended == [.sortWithoutIndex: "the export reads every row, sorted"])
        #expect(try AcceptedInsights(contentsOf: path).identities == ["n-plus-one/Post/author"])
    }

    /// The size below which a table is small: the default (50 rows), or
    /// the file's; merged settings take the later one's.
    @Test func theSmallTableSizeIsASetting() throws {
        #expect(InsightSettings().smallTableRowLimit == 50)
        let settings = try InsightSettings(contentsOf: try Self.file(#"{ "smallTableRows": 200 }"#))
        #expect(settings.smallTableRows == 200)
        #expect(settings.smallTableRowLimit == 200)
        #expect(InsightSettings().merging(settings).smallTableRowLimit == 200)
        #expect(settings.merging(InsightSettings(thresholds: [.nPlusOne: 3])).smallTableRowLimit == 200)
        #expect(settings.merging(InsightSettings(smallTableRows: 10)).smallTableRowLimit == 10)
        // A shape's full-scan steps per execution tell its table's size.
        var small = StatementAggregate(shape: "SELECT 1", purpose: "fetch Tag", firstCallSite: .unknown)
        small.count = 2
        small.fullScanSteps = 98
        #expect(InsightSettings().scansASmallTable(small))
        #expect(!InsightSettings().scansASmallTable(small, stepsKnown: false))
        #expect(!InsightSettings(smallTableRows: 49).scansASmallTable(small))
        #expect(!InsightSettings(smallTableRows: 1).scansASmallTable(small))
    }

    @Test func theOlderListFormIsTheAcceptedList() throws {
        let path = try Self.file("# known\nfault-storm/Person/selfies\n\nrepeated-statement/Selfie/SELECT 1  # on purpose\n")
        let settings = try InsightSettings(contentsOf: path)
        #expect(settings.accepted == ["fault-storm/Person/selfies", "repeated-statement/Selfie/SELECT 1"])
        #expect(settings.thresholds.isEmpty)
    }

    @Test(arguments: [
        (#"{ "acepted": [] }"#, "acepted: unknown key (accepted, thresholds, intended, smallTableRows)"),
        (#"{ "smallTableRows": 0 }"#, "smallTableRows: 0 is below 1"),
        (#"{ "smallTableRows": 2.5 }"#, "smallTableRows: expected a whole number of 1 or more"),
        (#"{ "smallTableRows": "few" }"#, "smallTableRows: expected a whole number of 1 or more"),
        (#"{ "thresholds": { "ful-scan": 10 } }"#, "thresholds.ful-scan: unknown rule (count-by-fetch, fetch-without-batch-size, full-scan, n-plus-one"),
        (#"{ "thresholds": { "full-scan": 0 } }"#, "thresholds.full-scan: 0 is below 1"),
        (#"{ "thresholds": { "full-scan": 1.5 } }"#, "thresholds.full-scan: expected a whole number of 1 or more for each rule"),
        (#"{ "thresholds": { "full-scan": "many" } }"#, "thresholds.full-scan: expected a whole number of 1 or more for each rule"),
        (#"{ "intended": { "n-plus-one": "" } }"#, "intended.n-plus-one: the reason is empty"),
        (#"{ "accepted": ["n-plus-one"] }"#, "accepted[0]: expected \"\(AcceptedInsight.form)\", got \"n-plus-one\""),
        (#"{ "accepted": ["n-plus-one/Post/author@App/List.swift:"] }"#,
         "accepted[0]: expected \"\(AcceptedInsight.form)\", got \"n-plus-one/Post/author@App/List.swift:\""),
        (#"{ "accepted": ["n-plus-one/Post/author@App/List.swift:0"] }"#,
         "accepted[0]: expected \"\(AcceptedInsight.form)\", got \"n-plus-one/Post/author@App/List.swift:0\""),
        (#"{ "accepted": ["n-plus-one/Post/author@"] }"#, "accepted[0]: expected \"\(AcceptedInsight.form)\", got \"n-plus-one/Post/author@\""),
        (#"{ "accepted": "n-plus-one/a/b" }"#, "accepted: expected a list of \"\(AcceptedInsight.form)\""),
        (#"[1]"#, "expected a JSON object with accepted, thresholds, intended and smallTableRows"),
        (#"{ "accepted": [ "#, "not valid JSON"),
    ])
    func aMistakeIsNamedWithItsKeyPath(text: String, reason: String) throws {
        let path = try Self.file(text)
        do {
            _ = try InsightSettings(contentsOf: path)
            Issue.record("\(text) was read")
        } catch {
            #expect(error.description.hasPrefix("\(path): "), "\(error.description)")
            #expect(error.description.contains(reason), "\(error.description)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func aThresholdOption() throws {
        #expect(try InsightSettings.threshold("full-scan=1000") == (.fullScan, 1000))
        #expect(throws: ReportError.self) { try InsightSettings.threshold("full-scan") }
        #expect(throws: ReportError.self) { try InsightSettings.threshold("fullscan=3") }
        #expect(throws: ReportError.self) { try InsightSettings.threshold("full-scan=-1") }
    }

    /// Every rule is listed once, with a threshold of at least 1 and a
    /// summary; the names reports have used are kept.
    @Test func theRulesAreListedByTheBuild() {
        let names = InsightEngine.rules.map(\.id.rawValue)
        #expect(names == [
            "count-by-fetch", "fetch-without-batch-size", "full-scan", "n-plus-one", "query-in-loop", "repeated-count", "repeated-statement",
            "save-in-loop", "sort-without-index", "unused-prefetch",
        ])
        #expect(InsightEngine.rules.allSatisfy { $0.threshold.defaultValue >= 1 && !$0.summary.isEmpty && !$0.threshold.counts.isEmpty })
        // Reports of schema version 2 and before named fault storms so; they still read.
        #expect(InsightRuleID.faultStorm.rawValue == "fault-storm")
    }
}
