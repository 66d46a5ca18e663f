import Faultline
import Foundation
import RecipesApp
import Synchronization
import Testing

/// The diagnosis tried as an application team tries it: the recipes app
/// (Apple's recipes model imported, typed requests, async screens) run as
/// it is and with each common mistake seeded one at a time. Each mistake
/// must be found by its rule at its line in the run's report, fail that
/// rule's gate in a test at the gate's line, and be found the same in the
/// run's level-2 SQL debug log; the efficient app gets no insight but the
/// search's scan, which no index serves.
@Suite(.serialized) struct SeededMistakeTests {
    /// The rule that finds each mistake, and its count at each of its sites.
    static let expected: [Mistake: (rule: InsightRuleID, counts: [Int])] = [
        // 12 types, one fault each.
        .toOneNPlusOne: (.nPlusOne, [12]),
        // The list's 100 recipes: 100 relationship faults and 400
        // ingredient faults; the cards' 5: 5 and 20.
        .toManyNPlusOne: (.nPlusOne, [500, 25]),
        .fetchByKeyInLoop: (.queryInLoop, [10]),
        .objectPerIDInLoop: (.queryInLoop, [10]),
        .countByFetch: (.countByFetch, [500]),
        .saveInLoop: (.saveInLoop, [20]),
        .unusedToOnePrefetch: (.unusedPrefetch, [100]),
        // The 50 recipes the search finds.
        .unusedToManyPrefetch: (.unusedPrefetch, [50]),
        // 500 fetched, 20 shown.
        .fetchWithoutBatchSize: (.fetchWithoutBatchSize, [480]),
        // The 2,000 ingredients stepped through (SQLite's counter steps one fewer).
        .unindexedFilter: (.fullScan, [1_999]),
        // The list's, the history's and the browser's sorts by name: one
        // index fixes them, and the rule names one site for them
        // (docs/insights.md).
        .sortWithoutIndex: (.sortWithoutIndex, [3]),
        .repeatedFetch: (.repeatedStatement, [20]),
        // The type menu loads each type's `recipes` only to count them: the
        // 12 loads, and none of the recipes they loaded read (the app's
        // other screens read recipes, in other contexts: not these).
        .countThroughToMany: (.repeatedCount, [12]),
    ]

    /// The efficient app's one insight: the search's scan, which no index serves.
    static func searchScan() throws -> String {
        "full-scan/Recipe/name@\(try #require(RecipesDiagnosis.sites(of: "searchScan").first)) ×499"
    }

    @Test func theEfficientAppGetsNoInsightButTheScanNoIndexServes() async throws {
        let found = try RecipesDiagnosis.runAndLog(nil)
        let store = try RecipesDiagnosis.store(nil)
        let measured = try await Faultline.measure(store) { _ = try await Tour.visit(store) }
        for insights in [found.run, measured.insights, found.log] {
            #expect(RecipesDiagnosis.described(insights) == [try Self.searchScan()])
            #expect(insights.allSatisfy { $0.noIndexServes == true })
        }
        try measured.requireNoInsight(.nPlusOne)
        try measured.requireNoInsight(.queryInLoop)
        // The engine's own loads (the import's `recipe.type = type` loads
        // each type's recipes to add the new one) are counted, never read.
        #expect(found.counters["relationshipFaultsFired"] == 12)
        #expect(found.counters["fetches"] == 13)
        #expect(found.counters["sqlStatements"] == 123)
        #expect(found.counters["rowsRead"] == 2_263)
        #expect(found.counters["rowsWritten"] == 80)
        #expect(found.counters["saves"] == 1)
        #expect(found.counters["fullScanSteps"] == 1_638)
        #expect(measured.counters.sqlStatements == 123)
    }

    @Test func aMistakeChangesTheWorkNotWhatTheScreensShow() async throws {
        let efficient = try await Tour.visit(try RecipesDiagnosis.store(nil))
        #expect(efficient.list.count == 100)
        let first = try #require(efficient.list.first)
        #expect([first.name, first.category] == ["Basil Appetizer 108", "Appetizer"])
        #expect(first.ingredients == ["Milk", "Basil", "Cream", "Mushroom"])
        #expect(efficient.cards.count == 5)
        #expect(efficient.found.count == 50)
        #expect(efficient.shopping.count == 50)
        #expect(efficient.badge == 500)
        #expect(efficient.favorites.count == 10)
        #expect(efficient.history.count == 10)
        #expect(efficient.browser.count == 20)
        #expect(efficient.menu.map(\.recipes).reduce(0, +) == 500)
        #expect(efficient.imported == 20)
        for mistake in Mistake.allCases {
            let shown = try await Tour.visit(try RecipesDiagnosis.store(mistake), mistake)
            #expect(shown.list == efficient.list, "\(mistake)")
            #expect(shown.cards == efficient.cards, "\(mistake)")
            #expect(shown.found == efficient.found, "\(mistake)")
            #expect(shown.shopping == efficient.shopping, "\(mistake)")
            #expect(shown.favorites == efficient.favorites, "\(mistake)")
            #expect(shown.history == efficient.history, "\(mistake)")
            #expect(shown.browser == efficient.browser, "\(mistake)")
            #expect(shown.menu == efficient.menu, "\(mistake)")
            #expect(shown.badge == efficient.badge, "\(mistake)")
            #expect(shown.imported == efficient.imported, "\(mistake)")
        }
    }

    @Test(arguments: Mistake.allCases)
    func eachMistakeIsFoundAtItsLineInTheRunTheGateAndTheLog(mistake: Mistake) async throws {
        let (rule, counts) = try #require(Self.expected[mistake])
        let sites = try RecipesDiagnosis.sites(of: mistake)
        // (1) The run's report: the rule, at the mistake's line(s), and
        // nothing else but the efficient app's scan (and, without the
        // index on Recipe.name, the favorites' lookup by name scans too).
        let found = try RecipesDiagnosis.runAndLog(mistake)
        // (The search's scan, which no index serves, is the efficient app's.)
        let ofRule = found.run.filter { $0.rule == rule && $0.noIndexServes != true }
        #expect(ofRule.allSatisfy { $0.isActionable })
        if rule == .sortWithoutIndex {
            #expect(ofRule.count == 1)
            let site = try #require(ofRule.first).callSite
            #expect(sites.contains(site))
        } else {
            #expect(Set(ofRule.map(\.callSite)) == Set(sites))
        }
        #expect(ofRule.map(\.count) == counts.map(Optional.some))
        var others = [try Self.searchScan()]
        if mistake == .sortWithoutIndex {
            others.append("full-scan/Recipe/name@\(try #require(RecipesDiagnosis.sites(of: "favoritesByName").first)) ×499")
        }
        #expect(Set(RecipesDiagnosis.described(found.run)) == Set(RecipesDiagnosis.described(ofRule) + others))
        // (3) The level-2 SQL debug log of that run: the same insights.
        #expect(RecipesDiagnosis.described(found.log) == RecipesDiagnosis.described(found.run))
        // (2) The gate in a test: `Faultline.measure` of the tour finds the
        // same, and the rule's gate fails at the line that calls it,
        // naming the mistake's line.
        let store = try RecipesDiagnosis.store(mistake)
        let measured = try await Faultline.measure(store) { _ = try await Tour.visit(store, mistake) }
        #expect(RecipesDiagnosis.described(measured.insights) == RecipesDiagnosis.described(found.run))
        let failure = try #require(try recordedFailure(line: #line) { try measured.requireNoInsight(rule) })
        #expect(failure.hasPrefix("expected no \(rule) insight, found \(rule == .fullScan ? ofRule.count + 1 : ofRule.count):"))
        let listed = try #require(failure.components(separatedBy: "\nstatements (").first)
        for insight in ofRule { #expect(listed.contains(insight.callSite)) }
        // The gates of the other rules pass (the search's scan aside).
        for other in Set(Self.expected.values.map(\.rule)).subtracting([rule, .fullScan]) {
            try measured.requireNoInsight(other)
        }
    }

    @Test func twoScreensWithOneNPlusOneAreTwoInsightsAndAcceptingOneLeavesTheOther() async throws {
        let sites = try RecipesDiagnosis.sites(of: .toManyNPlusOne)
        let (list, cards) = (sites[0], sites[1])
        let store = try RecipesDiagnosis.store(.toManyNPlusOne)
        let measured = try await Faultline.measure(store) { _ = try await Tour.visit(store, .toManyNPlusOne) }
        #expect(measured.insights.filter { $0.rule == .nPlusOne }.map(\.identity).sorted() == [
            "n-plus-one/Recipe/ingredients@\(list)", "n-plus-one/Recipe/ingredients@\(cards)",
        ])
        // The cards' five rows are accepted on purpose, at their site: the
        // list's hundred still fail the gate, which names the list only.
        let accepting = InsightSettings(accepted: ["n-plus-one/Recipe/ingredients@\(cards)"])
        let store2 = try RecipesDiagnosis.store(.toManyNPlusOne)
        let known = try await Faultline.measure(store2, insights: accepting) { _ = try await Tour.visit(store2, .toManyNPlusOne) }
        #expect(known.insights.first { $0.callSite == cards && $0.rule == .nPlusOne }?.isActionable == false)
        #expect(known.insights.first { $0.callSite == list && $0.rule == .nPlusOne }?.isActionable == true)
        let failure = try #require(try recordedFailure(line: #line) { try known.requireNoInsight(.nPlusOne) })
        #expect(failure.hasPrefix("expected no n-plus-one insight, found 1:"))
        // (The failure then lists the block's statements, by their first site.)
        let listed = try #require(failure.components(separatedBy: "\nstatements (").first)
        #expect(listed.contains(list))
        #expect(!listed.contains(cards))
        // Accepting the list's as well, the gate passes.
        let both = InsightSettings(accepted: ["n-plus-one/Recipe/ingredients@\(cards)", "n-plus-one/Recipe/ingredients@\(list)"])
        let store3 = try RecipesDiagnosis.store(.toManyNPlusOne)
        try await Faultline.measure(store3, insights: both) { _ = try await Tour.visit(store3, .toManyNPlusOne) }.requireNoInsight(.nPlusOne)
    }
}

/// The failure a check records at the line that called it (`line`), as
/// Swift Testing shows it; nil when it recorded none there.
func recordedFailure(line: Int, _ check: () throws -> Void) throws -> String? {
    let text = Mutex<String?>(nil)
    try withKnownIssue {
        try check()
    } matching: { issue in
        guard issue.sourceLocation?.line == line else { return false }
        text.withLock { $0 = issue.comments.map(\.rawValue).joined(separator: "\n") }
        return true
    }
    return text.withLock { $0 }
}
