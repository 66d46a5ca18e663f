import ArgumentParser
import Foundation
import Insights
import Reporting
import ToolSupport

extension PerfRun {
    struct Compare: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compares two reports: counters exactly, insights by identity, timings as samples.",
            discussion: """
                Exit code 0: no regression (improvements do not fail); 1: a regression (a scenario or counter of BASE \
                that HEAD lacks is one, unless --allow-missing); 2: bad input, or nothing comparable (another scale or seed, \
                no scenario in both; --allow-incomparable accepts it). Timings are judged on CPU time by default (--timing), \
                beyond a minimum detectable effect the samples' spread gives and a 10% floor; a change the two reports' \
                machine speed probes explain is withheld. Any readable file will do, a pipe too (/dev/stdin, <(…)).
                """)

        @Argument(help: "The base report.")
        var base: String

        @Argument(help: "The report to judge.")
        var head: String

        @OptionGroup var outputOptions: OutputOptions

        @Flag(name: .customLong("exact-counters"), help: "Any change of a gating counter, up or down, is a regression.")
        var exactCounters = false

        @Option(help: "A JSON file of allowed counter increases (default: none allowed on a gating counter).")
        var thresholds: String?

        @Option(name: .customLong("noise-floor"), help: "A noise floor JSON, or the JSON comparison of an A/A pair (default: a floor of 25% per scenario).")
        var noiseFloor: String?

        @Option(
            name: .customLong("accepted-insights"),
            help: "Known insights that do not fail: rule/entity/keyPath per line (every site), or with @File.swift:line (one site).")
        var acceptedInsights: String?

        @Flag(name: .customLong("allow-missing"), help: "HEAD may lack scenarios (missing or skipped) and counters of BASE: a subset run on purpose.")
        var allowMissing = false

        @Flag(
            name: .customLong("allow-incomparable"),
            help: "Nothing comparable (another scale or seed, no scenario in both) is no failure: exit 0 unless something regressed.")
        var allowIncomparable = false

        @Option(help: "The time judged: cpu (the work done, steady on a shared machine) or wall (elapsed, for work that waits).")
        var timing = TimingMeasure.cpu

        func run() throws {
            var inputs = [OutputPlan.Input(option: "BASE", path: base), OutputPlan.Input(option: "HEAD", path: head)]
            if let thresholds { inputs.append(.init(option: "--thresholds", path: thresholds)) }
            if let noiseFloor { inputs.append(.init(option: "--noise-floor", path: noiseFloor)) }
            if let acceptedInsights { inputs.append(.init(option: "--accepted-insights", path: acceptedInsights)) }
            let outputs = try outputOptions.outputs("compare", formats: ReportFormats.formats(of: .comparison), default: .text)
            let plan = try OutputPlan(inputs: inputs, outputs: outputs)
            var comparer = ReportComparer()
            comparer.exactCounters = exactCounters
            comparer.allowMissing = allowMissing
            comparer.measure = timing
            if let thresholds { comparer.thresholds = try Thresholds.read(thresholds) }
            if let noiseFloor { comparer.noiseFloor = try NoiseFloor.read(noiseFloor) }
            if let acceptedInsights { comparer.accepted = try AcceptedInsights(contentsOf: acceptedInsights) }
            let headReport = try ReportFile.read(head)
            let comparison = comparer.compare(try ReportFile.read(base), headReport, basePath: base, headPath: head)
            try plan.writeAll(comparison)
            for entry in comparer.accepted.unmatched(by: headReport.scenarios.flatMap(\.insights)) {
                Console.warn("--accepted-insights: \(entry) matches no insight of \(head)")
            }
            if comparison.hasRegression { throw CommandExit(.failure) }
            if let reason = comparison.nothingComparable, !allowIncomparable {
                throw ReportError("nothing comparable between \(base) and \(head): \(reason) (--allow-incomparable accepts it)")
            }
        }
    }
}
