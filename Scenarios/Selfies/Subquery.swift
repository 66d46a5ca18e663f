import ObjectGraph

extension Scenario {
    /// Walking relationships by hand against one SUBQUERY fetch.
    public static let subquery = Scenario(
        name: "Subquery",
        summary: """
            Finds the people in a selfie with rating < 5 OR name LIKE '*e*ie*' two ways: by hand (fetch the \
            selfies, walk their people, dedupe by object ID; manualSeconds, manualPeople) and with one fetch of \
            SUBQUERY(selfies, $x, …).@count > 0, which compiles to an EXISTS subquery (subquerySeconds, \
            subqueryPeople). The counts must be equal; compare relationshipFaultsFired and rowsRead.
            """,
        dataSet: .selfies
    ) { run in
        let condition = "$x.rating < 5 OR $x.name LIKE '*e*ie*'"
        let context = run.context()
        try context.perform {
            let (manual, manualSeconds) = try run.time { () -> Int in
                let selfies = try context.fetch(FetchRequest<Selfie>(predicate: try ObjectPredicate(format: "rating < 5 OR name LIKE '*e*ie*'")))
                var seen = Set<ObjectID>()
                for selfie in selfies {
                    for person in selfie.people { seen.insert(person.objectID) }
                }
                return seen.count
            }
            context.reset()
            let (found, subquerySeconds) = try run.time { () -> Int in
                try context.fetch(FetchRequest<Person>(predicate: try ObjectPredicate(format: "SUBQUERY(selfies, $x, \(condition)).@count > 0"))).count
            }
            try run.check(manual == found, "by hand \(manual) people, with SUBQUERY \(found)")
            run.record("manualPeople", Double(manual))
            run.record("subqueryPeople", Double(found))
            run.record("manualSeconds", manualSeconds)
            run.record("subquerySeconds", subquerySeconds)
        }
    }
}
