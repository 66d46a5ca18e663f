import Insights
import ObjectGraph
import Reporting
import Scenarios

extension Scenario {
    /// Fetching every object of the three entities.
    public static let fetchAll = Scenario(
        name: "FetchAll",
        summary: """
            Fetches every person, selfie and social network: three fetches, three SELECTs, every row read once and \
            kept in the row cache. The baseline cost of loading the whole graph's objects (as faults) without \
            touching a relationship; compare rowsRead with the other scenarios.
            """,
        dataSet: .selfies,
        insights: InsightSettings(intended: [.countByFetch: "the scenario measures loading every object; it counts them only to check"])
    ) { run in
        let context = run.context()
        try context.perform {
            let people = try context.fetch(FetchRequest<Person>())
            let selfies = try context.fetch(FetchRequest<Selfie>())
            let networks = try context.fetch(FetchRequest<SocialNetwork>())
            run.record("objects", Double(people.count + selfies.count + networks.count))
        }
    }
}

extension ExperimentReference {
    static let fetchAll = ExperimentReference(
        name: "FetchAll",
        lesson: "Fetching every person, selfie and social network returns all of them, as faults, in one query each.",
        source: bookSource + ", FetchAll test: the counts of people, selfies and social networks",
        sourceSetting: bookSetting,
        kind: .behaviour(scenario: "FetchAll", expectation: "every object of the three entities, one fetch each"))
}
