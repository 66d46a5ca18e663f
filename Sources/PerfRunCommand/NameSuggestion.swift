/// The names closest to a mistyped one (a scenario, a command), for a
/// "did you mean" after the error: the fewest single-letter insertions,
/// deletions, substitutions and swaps of two neighbours (the
/// Damerau–Levenshtein distance, letters compared without case), within
/// a third of the name's length (at least one letter, at most three).
enum NameSuggestion {
    /// The names nearest to `name`, in the order given; none when every
    /// one is further than the limit.
    static func closest(to name: String, among names: [String]) -> [String] {
        let limit = Self.limit(for: name)
        let scored = names.map { ($0, distance(name, $0)) }.filter { $0.1 <= limit }
        guard let best = scored.map(\.1).min() else { return [] }
        return scored.filter { $0.1 == best }.map(\.0)
    }

    /// `; did you mean run?` (`… A or B?`), or "" when nothing is near.
    static func didYouMean(_ name: String, among names: [String]) -> String {
        let found = closest(to: name, among: names)
        guard !found.isEmpty else { return "" }
        let listed = found.count == 1 ? found[0] : found.dropLast().joined(separator: ", ") + " or " + found[found.count - 1]
        return "; did you mean \(listed)?"
    }

    /// The most edits a suggestion may be away: a third of the name.
    static func limit(for name: String) -> Int {
        min(3, max(1, name.count / 3))
    }

    /// The optimal string alignment distance between `a` and `b`, case
    /// ignored.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased()), b = Array(b.lowercased())
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
