/// The words a report defines once, where it shows them: each a sentence
/// that starts with the word, shown beside the figure (a note under a
/// table, a tooltip on its heading) in the page, the Markdown and the
/// terminal alike.
enum ReportWords {
    static let median = "median: the middle wall time of the scenario's measured iterations (warm-up iterations left out)"

    static let asItIs = "as it is: the scenario's own run, its iterations taken in turn with each fix's; "
        + "its median is the scenario's median"

    static let perThread = "per-thread time: time in SQLite and in the row cache summed over the threads that ran at once, "
        + "which can exceed the iteration's wall time; it is no share of it"

    static let breakdown = "where the time went: the parts of the median iteration (for an even number of iterations, "
        + "the mean of the two middle ones), which add up to its wall time"

    /// A definition as a sentence: its first letter upper-case, a full stop.
    static func sentence(_ definition: String) -> String {
        definition.prefix(1).uppercased() + definition.dropFirst() + (definition.hasSuffix(".") ? "" : ".")
    }
}
