import Foundation

/// A goal the benchmark's figures are held to, as data: which figure of
/// which pattern, and the bound it must stay within. `make bench` prints
/// every target beside its figure and whether it is met; a target whose
/// figure was not measured in the run (a pattern left out, callgrind
/// skipped) says so instead.
struct BenchmarkTarget: Sendable {
    /// Which figure of a pattern's results a target reads.
    enum Figure: Sendable {
        /// The median of the per-round ratio of two variants' times
        /// (`faultline/limit`, `faultline/grdb`, `generated/hand-written`).
        case ratio(String)
        /// Instructions per access of a variant (callgrind).
        case instructionsPerAccess(Variant)
    }

    /// The patterns it applies to; nil for every pattern of the run.
    let patterns: [Pattern]?
    let figure: Figure
    /// The largest value that meets the target.
    let atMost: Double
    /// Whether the figure must be strictly below `atMost` ("faster than").
    var strictly = false

    /// The project's targets (issue by issue; docs/performance.md explains
    /// each).
    static let all: [BenchmarkTarget] = [
        // Every persistence pattern faster than GRDB at the median. Not the
        // two micro patterns: GRDB's records are plain structs, so there a
        // "fault" or a read is a stored property's load, not the same work.
        BenchmarkTarget(
            patterns: Pattern.allCases.filter { $0 != .rowCacheFault && $0 != .attributeRead }, figure: .ratio("faultline/grdb"), atMost: 1,
            strictly: true),
        // A fault and a prefetch within 1.6x of the SQLite C API doing the same SQL.
        BenchmarkTarget(patterns: [.singleFault, .prefetch], figure: .ratio("faultline/limit"), atMost: 1.6),
        // A fault from the row cache: at most 250 instructions with no sink, 350 with the recorder.
        BenchmarkTarget(patterns: [.rowCacheFault], figure: .instructionsPerAccess(.faultlineSinksOff), atMost: 250),
        BenchmarkTarget(patterns: [.rowCacheFault], figure: .instructionsPerAccess(.faultline), atMost: 350),
        // Generated classes cost what hand-written ones do, within 5%.
        BenchmarkTarget(patterns: [.rowCacheFault, .attributeRead], figure: .ratio("generated/hand-written"), atMost: 1.05),
    ]

    /// What the figure is called in the output.
    var figureName: String {
        switch figure {
        case .ratio(let name): "\(name) (median)"
        case .instructionsPerAccess(let variant): "instructions per access, \(variant.rawValue)"
        }
    }

    /// The bound, as printed.
    var boundText: String {
        let bound = switch figure {
        case .ratio: String(format: "%.2fx", atMost)
        case .instructionsPerAccess: String(format: "%.0f", atMost)
        }
        return (strictly ? "< " : "≤ ") + bound
    }

    /// The figure in one pattern's results, if the run measured it.
    func value(in result: BenchmarkResults.PatternResult) -> Double? {
        switch figure {
        case .ratio(let name): result.ratios[name].map(\.median)
        case .instructionsPerAccess(let variant): result.instructionsPerAccess[variant.rawValue]
        }
    }

    func isMet(by value: Double) -> Bool {
        strictly ? value < atMost : value <= atMost
    }

    /// One line per target and pattern of the run: the figure, the bound,
    /// "met" or "not met" (or why there is no figure).
    static func render(_ results: BenchmarkResults, targets: [BenchmarkTarget] = all) -> String {
        var lines: [String] = []
        for target in targets {
            let names = target.patterns.map { $0.map(\.rawValue) } ?? results.patterns.map(\.pattern)
            for name in names {
                guard let result = results.patterns.first(where: { $0.pattern == name }) else { continue }
                let label = "- \(name): \(target.figureName) "
                guard let value = target.value(in: result), value.isFinite else {
                    lines.append(label + "not measured in this run; target \(target.boundText)")
                    continue
                }
                let figure = switch target.figure {
                case .ratio: String(format: "%.2fx", value)
                case .instructionsPerAccess: String(format: "%.0f", value)
                }
                lines.append(label + "\(figure); target \(target.boundText): \(target.isMet(by: value) ? "met" : "not met")")
            }
        }
        return lines.joined(separator: "\n")
    }
}
