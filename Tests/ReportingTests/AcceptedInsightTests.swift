import Insights
import Probes
import Reporting
import Testing

/// One insight per site, accepted per site: an entry with `@site` accepts
/// the insight at that site only, one without accepts it everywhere, and
/// an entry that matches nothing is said.
@Suite struct AcceptedInsightTests {
    static func insight(_ keyPath: String, at site: String) -> Insight {
        Insight(rule: .nPlusOne, entity: "Recipe", keyPath: keyPath, message: "", evidence: "", callSite: site, count: 5)
    }

    static let cards = insight("ingredientList", at: "App/Cards.swift:12")
    static let list = insight("ingredientList", at: "App/List.swift:40")

    @Test func anIdentityIsItsSubjectAtItsSite() {
        #expect(Self.cards.subject == "n-plus-one/Recipe/ingredientList")
        #expect(Self.cards.identity == "n-plus-one/Recipe/ingredientList@App/Cards.swift:12")
        #expect(Self.insight("x", at: "").identity == "n-plus-one/Recipe/x")
    }

    /// No empty part in a subject or an identity (`save-in-loop//writer`
    /// before); a site that is the words of no call site is no site.
    @Test func aSubjectLeavesOutTheEmptyParts() {
        let saves = Insight(rule: .saveInLoop, entity: "", keyPath: "writer", message: "", evidence: "", callSite: "App/Import.swift:20")
        #expect(saves.subject == "save-in-loop/writer")
        #expect(saves.identity == "save-in-loop/writer@App/Import.swift:20")
        let count = Insight(rule: .countByFetch, entity: "Person", keyPath: "", message: "", evidence: "", callSite: "App/List.swift:3")
        #expect(count.identity == "count-by-fetch/Person@App/List.swift:3")
        let nowhere = Insight(rule: .countByFetch, entity: "Person", keyPath: "", message: "", evidence: "",
                              callSite: CallSite(noSiteBecause: .notLogged).description)
        #expect(nowhere.identity == "count-by-fetch/Person")
        // An accepted list of the earlier spelling still accepts them.
        #expect(AcceptedInsights(identities: ["save-in-loop//writer@App/Import.swift:20"]).accepts(saves))
        #expect(AcceptedInsights(identities: ["count-by-fetch/Person/"]).accepts(count))
        #expect(!AcceptedInsights(identities: ["save-in-loop//main"]).accepts(saves))
    }

    @Test func anEntryWithASiteAcceptsThatSiteOnly() throws {
        let accepted = AcceptedInsights(identities: ["n-plus-one/Recipe/ingredientList@App/Cards.swift:12"])
        #expect(accepted.accepts(Self.cards))
        #expect(!accepted.accepts(Self.list))
        #expect(accepted.mark([Self.cards, Self.list]).map(\.accepted) == [true, false])
        let everywhere = AcceptedInsights(identities: ["n-plus-one/Recipe/ingredientList"])
        #expect(everywhere.accepts(Self.cards) && everywhere.accepts(Self.list))
    }

    @Test(arguments: [
        ("n-plus-one/Recipe/ingredientList", "n-plus-one/Recipe/ingredientList", nil),
        ("n-plus-one/Recipe/ingredientList@App/Cards.swift:12", "n-plus-one/Recipe/ingredientList", "App/Cards.swift:12"),
        ("repeated-count/Category/@count", "repeated-count/Category/@count", nil),
        ("repeated-count/Category/@count@Lists/Home.swift:7", "repeated-count/Category/@count", "Lists/Home.swift:7"),
        // A part the rule leaves empty is left out; the earlier spelling with it empty reads the same.
        ("save-in-loop/main@App/Import.swift:20", "save-in-loop/main", "App/Import.swift:20"),
        ("save-in-loop//main@App/Import.swift:20", "save-in-loop/main", "App/Import.swift:20"),
        ("count-by-fetch/Person", "count-by-fetch/Person", nil),
        ("count-by-fetch/Person/", "count-by-fetch/Person", nil),
    ] as [(String, String, String?)])
    func entriesAreRead(text: String, subject: String, site: String?) throws {
        let entry = try #require(AcceptedInsight(text))
        #expect(entry.subject == subject && entry.site == site && entry.description == text)
    }

    @Test(arguments: ["n-plus-one", "n-plus-one/", "n-plus-one//", "n-plus-one/Recipe/x@", "n-plus-one/Recipe/x@App.swift:", "n-plus-one/Recipe/x@App.swift:0",
                      "n-plus-one/Recipe/x@App.swift:1a", "/Recipe/x"])
    func malformedEntriesAreRefused(text: String) {
        #expect(AcceptedInsight(text) == nil)
    }

    /// A misspelled entry, or one whose site's line moved, matches nothing:
    /// it is listed, never ignored.
    @Test func entriesThatMatchNothingAreListed() {
        let accepted = AcceptedInsights(identities: [
            "n-plus-one/Recipe/ingredientList@App/Cards.swift:12", "n-plus-one/Recipe/ingredientLsit", "n-plus-one/Recipe/ingredientList@App/List.swift:41",
        ])
        #expect(accepted.unmatched(by: [Self.cards, Self.list])
            == ["n-plus-one/Recipe/ingredientList@App/List.swift:41", "n-plus-one/Recipe/ingredientLsit"])
        // One malformed in code (a file's is refused as it is read) is said too.
        #expect(AcceptedInsights(identities: ["n-plus-one"]).unmatched(by: [Self.cards]) == ["n-plus-one"])
    }

    /// Two screens that load one key path one by one are two insights, each
    /// at its own fetch site.
    @Test func twoFetchSitesAreTwoInsights() {
        var events: [Event] = []
        for (site, execution, count) in [(CallSite(file: "App/Cards.swift", line: 12), UInt64(1), 5), (CallSite(file: "App/List.swift", line: 40), 2, 100)] {
            let origin = FaultOrigin(fetchEntity: "Recipe", fetchSite: site, keyPath: "category", execution: execution)
            for key in 0..<count {
                events.append(.fault(FaultEvent(
                    start: 0, durationNanoseconds: 1_000, thread: 1, context: "main", entity: "Category", primaryKey: Int64(key),
                    source: .database, callSite: site, missReason: .absent, origin: origin)))
            }
        }
        let insights = InsightEngine().insights(events).filter { $0.rule == .nPlusOne }
        #expect(insights.map(\.identity) == ["n-plus-one/Recipe/category@App/Cards.swift:12", "n-plus-one/Recipe/category@App/List.swift:40"])
        #expect(insights.map(\.count) == [5, 100])
        #expect(insights.map { $0.fix?.fetchSites.map(\.description) ?? [] } == [["App/Cards.swift:12"], ["App/List.swift:40"]])
        let accepted = InsightEngine(settings: InsightSettings(accepted: ["n-plus-one/Recipe/category@App/Cards.swift:12"])).insights(events)
            .filter { $0.rule == .nPlusOne }
        #expect(accepted.map(\.accepted) == [true, nil])
    }

    /// Comparing, an accepted site is no regression and another site of the
    /// same key path is a new insight.
    @Test func aComparisonSeesEachSite() {
        func report(_ insights: [Insight]) -> Report {
            var scenario = ScenarioReport(
                name: "Recipes", description: "", dataSet: "recipes", status: .passed, error: nil,
                samples: [Sample(wallSeconds: 0.01, cpuSeconds: 0.01, peakResidentBytes: nil)], counters: ["sqlStatements": 3])
            scenario.insights = insights
            return Report(
                tool: .init(name: "perf-run", version: "0", commandLine: []),
                environment: .init(operatingSystem: "", cpuModel: "", cores: 1, swiftVersion: "", sqliteVersion: "", buildConfiguration: "debug",
                                   gitCommit: nil, hostName: ""),
                configuration: .init(scale: 1, seed: 1, iterations: 1, warmup: 0, store: .file, timeoutSeconds: nil), scenarios: [scenario])
        }
        var comparer = ReportComparer()
        comparer.accepted = AcceptedInsights(identities: ["n-plus-one/Recipe/ingredientList@App/Cards.swift:12"])
        let comparison = comparer.compare(report([]), report([Self.cards, Self.list]), basePath: "base.json", headPath: "head.json")
        #expect(comparison.scenarios.first?.newInsights.map(\.identity) == [Self.list.identity])
        #expect(comparison.hasRegression)
    }
}
