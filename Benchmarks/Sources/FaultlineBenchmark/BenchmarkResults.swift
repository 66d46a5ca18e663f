import Foundation

/// A whole `make bench` run, as written to Benchmarks/results/.
struct BenchmarkResults: Codable, Sendable {
    struct Machine: Codable, Sendable {
        var cpu: String
        var cores: Int
        var sqliteVersion: String
        var swiftVersion: String
    }

    /// Min, median and max of a set of samples.
    struct Spread: Codable, Sendable {
        var min: Double
        var median: Double
        var max: Double

        init(_ values: [Double]) {
            let sorted = values.sorted()
            min = sorted.first ?? .nan
            max = sorted.last ?? .nan
            median = sorted.isEmpty ? .nan
                : sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }

        /// Whether `value` lies outside min…max.
        func excludes(_ value: Double) -> Bool { value < min || value > max }
    }

    struct PatternResult: Codable, Sendable {
        var pattern: String
        var accessUnit: String
        var accesses: Int
        /// Seconds per variant (``Variant`` raw values), over the rounds.
        var seconds: [String: Spread]
        /// Per-round ratios, summarised: Faultline (recorder on) over the
        /// limit, over GRDB, and the recorder's cost over sinks off.
        var ratios: [String: Spread]
        /// Instructions per access by variant (callgrind), when measured.
        var instructionsPerAccess: [String: Double]
        /// The callgrind run's scale and accesses.
        var callgrindScale: Double?
        /// Peak resident memory of the worker processes, by variant (max).
        var peakResidentBytes: [String: Int]
    }

    var date: String
    var machine: Machine
    var scale: Double
    var rounds: Int
    var patterns: [PatternResult]
    /// Peak resident memory of `perf-run run Prefetch` at this scale, when measured.
    var perfRunPrefetchPeakResidentBytes: Int?
}

extension BenchmarkResults.Machine {
    static func current(sqliteVersion: String) -> Self {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "unknown"
        #if compiler(>=6.3)
        let swift = "6.3 or later"
        #else
        let swift = "before 6.3"
        #endif
        return .init(cpu: model, cores: ProcessInfo.processInfo.activeProcessorCount, sqliteVersion: sqliteVersion, swiftVersion: swift)
    }
}
