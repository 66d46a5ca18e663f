import Foundation

/// The results as a plain-text table (also pasted into docs/performance.md).
enum BenchmarkTable {
    static func render(_ results: BenchmarkResults) -> String {
        var rows = [[
            "pattern", "limit (C)", "Faultline", "sinks off", "GRDB", BenchmarkRatio.faultlineOverLimit.column,
            BenchmarkRatio.faultlineOverGRDB.column, BenchmarkRatio.recorderOverSinksOff.column, "instr/access F (off, C)", "peak RSS F",
        ]]
        for pattern in results.patterns {
            func time(_ variant: Variant) -> String { milliseconds(pattern.seconds[variant.rawValue]?.median) }
            func ratio(_ ratio: BenchmarkRatio) -> String {
                guard let spread = pattern.ratios[ratio.rawValue] else { return "-" }
                return String(format: "%.2fx (%.2f–%.2f)", spread.median, spread.min, spread.max)
            }
            let instructions = pattern.instructionsPerAccess
            let counts = instructions.isEmpty ? "-" : String(
                format: "%.0f (%.0f, %.0f)", instructions[Variant.faultline.rawValue] ?? .nan,
                instructions[Variant.faultlineSinksOff.rawValue] ?? .nan, instructions[Variant.limit.rawValue] ?? .nan)
            rows.append([
                pattern.pattern, time(.limit), time(.faultline), time(.faultlineSinksOff), time(.grdb), ratio(.faultlineOverLimit),
                ratio(.faultlineOverGRDB), ratio(.recorderOverSinksOff), counts,
                megabytes(pattern.peakResidentBytes[Variant.faultline.rawValue]),
            ])
        }
        var text = markdown(rows)
        // Generated classes against hand-written ones, where the work is
        // typed property reads (the target is among the targets below).
        let generated = results.patterns.compactMap { pattern -> String? in
            guard let spread = pattern.ratios[BenchmarkRatio.generatedOverHandWritten.rawValue] else { return nil }
            let instructions = pattern.instructionsPerAccess
            let counts = instructions[Variant.faultlineGenerated.rawValue].map { generated in
                String(format: ", instructions per access %.0f against %.0f", generated, instructions[Variant.faultline.rawValue] ?? .nan)
            } ?? ""
            return String(format: "- %@: generated / hand-written classes %.3fx (%.3f–%.3f)%@",
                          pattern.pattern, spread.median, spread.min, spread.max, counts)
        }
        if !generated.isEmpty { text += "\n\nGenerated classes (perf-run model import --swift):\n" + generated.joined(separator: "\n") }
        let targets = BenchmarkTarget.render(results)
        if !targets.isEmpty { text += "\n\nTargets (BenchmarkTarget.all), each figure beside its target:\n" + targets }
        text += "\n\nScale \(results.scale), \(results.rounds) rounds, medians (ratios: median of the per-round ratios, min–max)."
        if let scale = results.patterns.first?.callgrindScale { text += " Instructions per access by callgrind at scale \(scale)." }
        if let peak = results.perfRunPrefetchPeakResidentBytes {
            text += "\nperf-run run Prefetch --scale \(results.scale): peak resident memory \(megabytes(peak))."
        }
        text += "\nMachine: \(results.machine.cpu), \(results.machine.cores) cores, SQLite \(results.machine.sqliteVersion), \(results.date)."
        return text
    }

    static func markdown(_ rows: [[String]]) -> String {
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        func line(_ row: [String]) -> String {
            "| " + row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: " | ") + " |"
        }
        return ([line(rows[0]), "| " + widths.map { String(repeating: "-", count: $0) }.joined(separator: " | ") + " |"]
            + rows.dropFirst().map(line)).joined(separator: "\n")
    }

    static func milliseconds(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite else { return "-" }
        return seconds < 0.01 ? String(format: "%.3f ms", seconds * 1000) : String(format: "%.1f ms", seconds * 1000)
    }

    static func megabytes(_ bytes: Int?) -> String {
        guard let bytes, bytes > 0 else { return "-" }
        return String(format: "%.0f MB", Double(bytes) / 1e6)
    }
}
