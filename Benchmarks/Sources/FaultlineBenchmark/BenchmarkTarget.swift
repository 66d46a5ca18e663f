import Foundation

/// A goal the benchmark's figures are held to, as data (as
/// package-benchmark's thresholds are: a metric of a benchmark and its
/// bound): which figure of which patterns, and the bound it must stay
/// within. `make bench` prints every target beside its figure and whether
/// it is met; a target whose figure was not measured in the run (callgrind
/// skipped) says so, and the targets of patterns left out of the run are
/// named as such.
struct BenchmarkTarget: Sendable {
    /// Which figure of a pattern's results a target reads.
    enum Figure: Sendable, Equatable {
        /// The median of the per-round ratio of two variants' times.
        case ratio(BenchmarkRatio)
        /// Instructions per access of a variant (callgrind).
        case instructionsPerAccess(Variant)

        var isRatio: Bool { if case .ratio = self { true } else { false } }
    }

    /// What a target's figure in one pattern's results says.
    enum Verdict: String, Sendable {
        case met
        case notMet = "not met"
        /// The run did not measure the figure (`--callgrind-scale 0`).
        case notMeasured = "not measured"
    }

    /// One target judged on one pattern of the run.
    struct Judgement: Sendable {
        let target: BenchmarkTarget
        let pattern: String
        /// The figure, nil when the run did not measure it.
        let value: Double?
        let verdict: Verdict
    }

    /// The patterns it applies to; nil for every pattern of the run.
    let patterns: [Pattern]?
    let figure: Figure
    /// The largest value that meets the target.
    let atMost: Double
    /// Whether the figure must be strictly below `atMost` ("faster than").
    var strictly = false

    /// The project's targets (issue 47; docs/performance.md explains each).
    static let all: [BenchmarkTarget] = [
        // Every persistence pattern faster than GRDB at the median. Not the
        // two micro patterns, which have targets of their own below.
        BenchmarkTarget(
            patterns: Pattern.allCases.filter { $0 != .rowCacheFault && $0 != .attributeRead }, figure: .ratio(.faultlineOverGRDB), atMost: 1,
            strictly: true),
        // A fault and a prefetch within 1.6x of the SQLite C API doing the same SQL.
        BenchmarkTarget(patterns: [.singleFault, .prefetch], figure: .ratio(.faultlineOverLimit), atMost: 1.6),
        // A read of a loaded object's attribute: at most 1.5x GRDB's time
        // (a stored property's load there), at most 60 instructions with the recorder.
        BenchmarkTarget(patterns: [.attributeRead], figure: .ratio(.faultlineOverGRDB), atMost: 1.5),
        BenchmarkTarget(patterns: [.attributeRead], figure: .instructionsPerAccess(.faultline), atMost: 60),
        // A fault from the row cache: at most GRDB's time (GRDB re-reads its
        // records), at most 250 instructions with no sink, 350 with the recorder.
        BenchmarkTarget(patterns: [.rowCacheFault], figure: .ratio(.faultlineOverGRDB), atMost: 1),
        BenchmarkTarget(patterns: [.rowCacheFault], figure: .instructionsPerAccess(.faultlineSinksOff), atMost: 250),
        BenchmarkTarget(patterns: [.rowCacheFault], figure: .instructionsPerAccess(.faultline), atMost: 350),
        // Generated classes cost what hand-written ones do, within 5%.
        BenchmarkTarget(patterns: [.rowCacheFault, .attributeRead], figure: .ratio(.generatedOverHandWritten), atMost: 1.05),
    ]

    /// What the figure is called in the output: the results table's column.
    var figureName: String {
        switch figure {
        case .ratio(let ratio): ratio.column
        case .instructionsPerAccess(let variant):
            switch variant {
            case .faultline: "instr/access F"
            case .faultlineSinksOff: "instr/access F, sinks off"
            case .limit: "instr/access C"
            case .grdb: "instr/access GRDB"
            case .faultlineGenerated: "instr/access generated"
            }
        }
    }

    /// A figure as printed: ratios with two decimals and an x, instruction
    /// counts whole; a figure that would print as its bound without being
    /// it gets the digits that tell them apart (`0.998x` against `< 1.00x`).
    func text(_ value: Double) -> String {
        var digits = figure.isRatio ? 2 : 0
        func shown(_ number: Double) -> String { String(format: "%.\(digits)f", number) }
        while value != atMost, digits < 6, shown(value) == shown(atMost) { digits += 1 }
        return shown(value) + (figure.isRatio ? "x" : "")
    }

    /// The bound, as printed: `< 1.00x`, `≤ 350`.
    var boundText: String { (strictly ? "< " : "≤ ") + text(atMost) }

    /// The figure in one pattern's results, if the run measured it.
    func value(in result: BenchmarkResults.PatternResult) -> Double? {
        let value = switch figure {
        case .ratio(let ratio): result.ratios[ratio.rawValue].map(\.median)
        case .instructionsPerAccess(let variant): result.instructionsPerAccess[variant.rawValue]
        }
        return value.flatMap { $0.isFinite ? $0 : nil }
    }

    func isMet(by value: Double) -> Bool {
        strictly ? value < atMost : value <= atMost
    }

    /// The target judged on one pattern's results.
    func judge(_ result: BenchmarkResults.PatternResult) -> Judgement {
        let value = value(in: result)
        let verdict: Verdict = value.map { isMet(by: $0) ? .met : .notMet } ?? .notMeasured
        return Judgement(target: self, pattern: result.pattern, value: value, verdict: verdict)
    }

    /// Every target on every pattern of the run it applies to, in the
    /// targets' order; and, per target, the patterns it names that the run
    /// left out.
    static func judge(_ results: BenchmarkResults, targets: [BenchmarkTarget] = all)
        -> (judgements: [Judgement], notRun: [(target: BenchmarkTarget, patterns: [String])])
    {
        var judgements: [Judgement] = []
        var notRun: [(target: BenchmarkTarget, patterns: [String])] = []
        for target in targets {
            let names = target.patterns.map { $0.map(\.rawValue) } ?? results.patterns.map(\.pattern)
            var missing: [String] = []
            for name in names {
                guard let result = results.patterns.first(where: { $0.pattern == name }) else {
                    missing.append(name)
                    continue
                }
                judgements.append(target.judge(result))
            }
            if !missing.isEmpty { notRun.append((target, missing)) }
        }
        return (judgements, notRun)
    }

    /// The targets as a table, each figure beside its bound with "met",
    /// "not met" or "not measured", then the tally and the targets of
    /// patterns the run left out; empty when no target applies.
    static func render(_ results: BenchmarkResults, targets: [BenchmarkTarget] = all) -> String {
        let (judgements, notRun) = judge(results, targets: targets)
        guard !judgements.isEmpty || !notRun.isEmpty else { return "" }
        var text = ""
        if !judgements.isEmpty {
            var rows = [["pattern", "figure", "measured", "target", "verdict"]]
            for judgement in judgements {
                rows.append([
                    judgement.pattern, judgement.target.figureName, judgement.value.map(judgement.target.text) ?? "-", judgement.target.boundText,
                    judgement.verdict.rawValue,
                ])
            }
            text = BenchmarkTable.markdown(rows) + "\n"
        }
        let tally = [Verdict.met, .notMet, .notMeasured].map { verdict in
            "\(judgements.filter { $0.verdict == verdict }.count) \(verdict.rawValue)"
        }
        text += "\(judgements.count) judged: " + tally.joined(separator: ", ")
        if judgements.contains(where: { $0.verdict == .notMeasured }) {
            text += results.patterns.contains { $0.callgrindScale == nil } ? " (instructions: --callgrind-scale 0)" : ""
        }
        text += "."
        for (target, patterns) in notRun {
            text += "\nNot in this run: \(target.figureName) \(target.boundText) for \(patterns.joined(separator: ", "))."
        }
        return text
    }
}
