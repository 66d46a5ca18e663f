/// An earlier run against this one: which ratios moved beyond their spread.
///
/// A ratio moved when each run's median lies outside the other run's
/// per-round min…max: timing noise that both runs saw does not count.
/// Ratios, not times, are compared: both sides of a ratio were measured in
/// the same rounds on the same machine.
enum BenchmarkComparison {
    static func render(base: BenchmarkResults, head: BenchmarkResults) -> String {
        var lines = ["Against \(base.date) (scale \(base.scale), \(base.rounds) rounds):"]
        var moved = 0
        for pattern in head.patterns {
            guard let earlier = base.patterns.first(where: { $0.pattern == pattern.pattern }) else {
                lines.append("  \(pattern.pattern): not in the base")
                continue
            }
            for (name, now) in pattern.ratios.sorted(by: { $0.key < $1.key }) {
                guard let before = earlier.ratios[name] else { continue }
                guard before.excludes(now.median), now.excludes(before.median) else { continue }
                moved += 1
                let direction = now.median < before.median ? "better" : "worse"
                lines.append(String(format: "  %@ %@: %.2fx → %.2fx (%@)", pattern.pattern, name, before.median, now.median, direction))
            }
        }
        if moved == 0 { lines.append("  no ratio moved beyond its spread") }
        return lines.joined(separator: "\n")
    }
}
