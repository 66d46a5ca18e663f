import ObjectGraph
import Scenarios

extension DataSetKind {
    /// People, selfies and social networks; every selfie related to every
    /// person and every network (500 of each at scale 1, 250,000 rows in
    /// each join table).
    public static let selfies = DataSetKind(name: "selfies", model: SelfiesDataSet.model, spec: SelfiesDataSet.spec)

    /// Fireballs (10,000 at scale 1) with a timestamp, energies, position
    /// and velocity, in groups (100 at scale 1) that count them in a
    /// derived attribute.
    public static let fireballs = DataSetKind(name: "fireballs", model: FireballsDataSet.model, spec: FireballsDataSet.spec)

    /// A media library with entity inheritance: books (3,000 at scale 1),
    /// audiobooks (1,000, a kind of book) and podcasts (1,000), all kinds of
    /// an abstract LibraryItem, in one table.
    public static let library = DataSetKind(name: "library", model: LibraryDataSet.model, spec: LibraryDataSet.spec)
}

extension ScenarioSet {
    /// The built-in scenarios and the book's experiments.
    public static let builtIn = ScenarioSet(scenarios: ScenarioCatalog.all, experiments: ScenarioCatalog.experiments)
}
