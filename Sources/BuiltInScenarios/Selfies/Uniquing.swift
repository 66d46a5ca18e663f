import Insights
import ObjectGraph
import Reporting
import Scenarios

extension Scenario {
    /// One object per ID, however reached.
    public static let uniquing = Scenario(
        name: "Uniquing",
        summary: """
            Every selfie's people, sorted by name, must be the very same instances (===), whichever selfie they \
            were reached through: the context's identity map at work. Fails naming the first mismatch. Each \
            person is registered once however many relationships lead to it (objectsRegisteredPeak).
            """,
        dataSet: .selfies,
        insights: InsightSettings(intended: [.nPlusOne: "every selfie's people are walked to check they are the same instances", .sortWithoutIndex: "the selfies are listed by name to walk them in a fixed order"])
    ) { run in
        let context = run.context()
        try context.perform {
            let selfies = Array(try context.fetch(FetchRequest<Selfie>(sortKeys: [SortKey("name")])))
            guard let first = selfies.first else { return }
            let reference = first.people.sorted { $0.name < $1.name }
            for selfie in selfies.dropFirst() {
                let people = selfie.people.sorted { $0.name < $1.name }
                try run.check(people.count == reference.count, "\(selfie.name) has \(people.count) people, \(first.name) \(reference.count)")
                for (a, b) in zip(reference, people) where a !== b {
                    throw ScenarioFailure("\(a.name) reached through \(first.name) and through \(selfie.name) are two instances")
                }
            }
            run.record("people", Double(reference.count))
        }
    }
}

extension ExperimentReference {
    static let uniquing = ExperimentReference(
        name: "Uniquing",
        lesson: "A context holds one object per row: every selfie's people are the very same objects.",
        source: bookSource + ", Uniquing test: each selfie's people, sorted by name, are identical objects to the first selfie's",
        sourceSetting: bookSetting,
        kind: .behaviour(scenario: "Uniquing", expectation: "the same object for the same person through every selfie"))
}
