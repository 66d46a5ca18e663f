import ObjectGraph
import Scenarios

extension Scenario {
    /// What a fetch of an abstract parent costs against a fetch of one
    /// subentity, in one table shared by a hierarchy.
    public static let inheritanceFetch = Scenario(
        name: "InheritanceFetch",
        summary: """
            A media library whose books, audiobooks and podcasts inherit from an abstract LibraryItem, all in \
            one table with an entity column (Core Data's Z_ENT). The parent phase fetches LibraryItem and reads \
            each title: one SELECT of every row of the hierarchy, each with every entity's columns, each object \
            made of its own entity. The subentity phase fetches only Podcast (includesSubentities false) and reads \
            each title: the entity column's index keeps its rows (t0.ent = ?), so it reads a fifth of the rows. \
            parentRows and podcastRows, and the phases' SQL time, show what asking for the parent costs.
            """,
        dataSet: .library
    ) { run in
        let context = run.context()
        try context.perform {
            let everything = try run.phase("parent") {
                try context.fetch(FetchRequest<LibraryItem>()).map(\.title)
            }
            context.reset()
            let podcasts = try run.phase("subentity") {
                var request = FetchRequest<Podcast>()
                request.includesSubentities = false
                return try context.fetch(request).map(\.title)
            }
            let expected = LibraryDataSet.spec.expectedRows(model: LibraryDataSet.model, scale: run.scale)
            try run.check(
                everything.count == expected.values.reduce(0, +),
                "the parent fetch returned \(everything.count) items, the data set has \(expected.values.reduce(0, +))")
            try run.check(podcasts.count == expected["Podcast"], "the subentity fetch returned \(podcasts.count) podcasts")
            run.record("parentRows", Double(everything.count))
            run.record("podcastRows", Double(podcasts.count))
        }
    }
}
