import ObjectGraph
import Reporting
import Scenarios

extension Scenario {
    /// A fault's life: fault, object, fault again.
    public static let didFault = Scenario(
        name: "DidFault",
        summary: """
            Fetches "Selfie 1", takes one of its social networks and reports its fault state before reading its \
            name (before = 1), after (afterRead = 0) and after refreshing it (afterRefresh = 1); the \
            willTurnIntoFault and didTurnIntoFault hooks run (hookCalls = 2). One relationship fault and one object \
            fault from the database.
            """,
        dataSet: .selfies
    ) { run in
        let context = run.context()
        try context.perform {
            let selfie = try context.fetch(FetchRequest<Selfie>(predicate: Key("name") == "Selfie 1"))[0]
            guard let network = selfie.socialNetworks.first else { throw ScenarioFailure("Selfie 1 has no social network") }
            SocialNetwork.hookCalls = 0
            run.record("before", network.isFault ? 1 : 0)
            _ = network.name
            run.record("afterRead", network.isFault ? 1 : 0)
            context.refresh(network, mergeChanges: false)
            run.record("afterRefresh", network.isFault ? 1 : 0)
            run.record("hookCalls", Double(SocialNetwork.hookCalls))
            try run.check(SocialNetwork.hookCalls == 2, "the fault hooks ran \(SocialNetwork.hookCalls) times, not 2")
        }
    }
}

extension ExperimentReference {
    static let didFault = ExperimentReference(
        name: "DidFault",
        lesson: "A related object is a fault until a property is read, and refreshing it turns it back into one.",
        source: bookSource + ", DidFault test: isFault before a read, after it, and after refreshObject(_:mergeChanges: false)",
        sourceSetting: bookSetting,
        kind: .behaviour(
            scenario: "DidFault", expectation: "a fault before the read (1), not after it (0), a fault again after the refresh (1)",
            figures: ["before": 1, "afterRead": 0, "afterRefresh": 1]))
}
