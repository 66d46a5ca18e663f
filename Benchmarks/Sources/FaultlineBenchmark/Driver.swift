import ArgumentParser
import Foundation
import ObjectGraph
import BuiltInScenarios
import Scenarios

/// `make bench`: every pattern three ways (the C limit, Faultline with the
/// recorder and with no sink, GRDB), one worker process per sample,
/// interleaved round by round (limit, Faultline, Faultline without sinks,
/// GRDB, then the next pattern, then the next round), so that a machine
/// whose speed drifts slows every variant alike. Then instruction counts
/// under callgrind, a table, and the results as JSON.
struct Drive: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Runs the benchmark: samples, instruction counts, a table and a JSON file.")

    @Option(help: "Rounds of samples (at least 9).")
    var rounds = 9

    @Option(help: "Data set scale of the timed rounds.")
    var scale = 1.0

    @Option(name: .customLong("callgrind-scale"), help: "Data set scale of the instruction counts (0 skips them).")
    var callgrindScale = 0.2

    @Option(help: "Patterns to run (comma-separated; all by default).")
    var patterns: String?

    @Option(help: "Where to write the results (JSON).")
    var json = "results/latest.json"

    @Option(help: "An earlier results file: say which ratios moved beyond their spread.")
    var base: String?

    @Option(name: .customLong("perf-run"), help: "A perf-run binary whose Prefetch run's peak memory to record.")
    var perfRun: String?

    func validate() throws {
        guard rounds >= 1, rounds <= 1_000 else { throw ValidationError("--rounds must be 1 to 1000, not \(rounds)") }
        guard scale >= 0.01, scale <= 4 else { throw ValidationError("--scale must be 0.01 to 4, not \(scale)") }
        guard callgrindScale == 0 || (callgrindScale >= 0.01 && callgrindScale <= 4) else {
            throw ValidationError("--callgrind-scale must be 0 or 0.01 to 4, not \(callgrindScale)")
        }
        _ = try selectedPatterns()
    }

    func selectedPatterns() throws -> [Pattern] {
        guard let patterns else { return Pattern.allCases }
        return try patterns.split(separator: ",").map { name in
            guard let pattern = Pattern(rawValue: String(name)) else {
                throw ValidationError("unknown pattern \(name) (\(Pattern.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return pattern
        }
    }

    func run() throws {
        let selected = try selectedPatterns()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-bench-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let bench = Bench(work: work, worker: try Self.executable())

        var results: [BenchmarkResults.PatternResult] = []
        for pattern in selected {
            let prepared = try bench.prepare(pattern, scale: scale)
            var samples: [Variant: [Sample]] = [:]
            for round in 1...rounds {
                for variant in pattern.variants {
                    progress("\(pattern.rawValue): round \(round) of \(rounds), \(variant.rawValue)")
                    samples[variant, default: []].append(try bench.sample(pattern, variant, prepared, scale: scale))
                }
            }
            try Self.checkAgreement(pattern, samples)
            var instructions: [String: Double] = [:]
            if callgrindScale > 0 {
                let small = try bench.prepare(pattern, scale: callgrindScale)
                for variant in [Variant.limit, .faultline, .faultlineSinksOff, .faultlineGenerated] where pattern.variants.contains(variant) {
                    progress("\(pattern.rawValue): instructions, \(variant.rawValue) (callgrind, scale \(callgrindScale))")
                    let count = try bench.instructions(pattern, variant, small, scale: callgrindScale)
                    instructions[variant.rawValue] = Double(count) / Double(max(1, small.accesses))
                }
            }
            results.append(Self.summarize(pattern, prepared.accesses, samples, instructions, callgrindScale: callgrindScale > 0 ? callgrindScale : nil))
        }
        var peak: Int?
        if let perfRun, selected.contains(.prefetch) {
            progress("perf-run run Prefetch --scale \(scale): peak memory")
            peak = try bench.perfRunPeak(perfRun, scale: scale)
        }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        let report = BenchmarkResults(
            date: ISO8601DateFormatter().string(from: Date()), machine: .current(sqliteVersion: Connection.sqliteVersion), scale: scale,
            rounds: rounds, patterns: results, perfRunPrefetchPeakResidentBytes: peak)
        print(BenchmarkTable.render(report))
        try BenchmarkFile.write(report, to: json)
        print("results: \(json)")
        if let base {
            print("")
            print(BenchmarkComparison.render(base: try BenchmarkFile.read(base), head: report))
        }
    }

    static func summarize(
        _ pattern: Pattern, _ accesses: Int, _ samples: [Variant: [Sample]], _ instructions: [String: Double], callgrindScale: Double?
    ) -> BenchmarkResults.PatternResult {
        func seconds(_ variant: Variant) -> [Double] { samples[variant]?.map(\.seconds) ?? [] }
        func perRound(_ a: Variant, _ b: Variant) -> BenchmarkResults.Spread {
            .init(zip(seconds(a), seconds(b)).map { $0 / $1 })
        }
        return .init(
            pattern: pattern.rawValue, accessUnit: pattern.accessUnit, accesses: accesses,
            seconds: Dictionary(uniqueKeysWithValues: pattern.variants.map { ($0.rawValue, BenchmarkResults.Spread(seconds($0))) }),
            ratios: [
                BenchmarkRatio.faultlineOverLimit.rawValue: perRound(.faultline, .limit), BenchmarkRatio.faultlineOverGRDB.rawValue: perRound(.faultline, .grdb),
                BenchmarkRatio.recorderOverSinksOff.rawValue: perRound(.faultline, .faultlineSinksOff),
            ].merging(
                pattern.readsTypedProperties ? [BenchmarkRatio.generatedOverHandWritten.rawValue: perRound(.faultlineGenerated, .faultline)] : [:]
            ) { a, _ in a },
            instructionsPerAccess: instructions, callgrindScale: callgrindScale,
            peakResidentBytes: Dictionary(uniqueKeysWithValues: pattern.variants.map { v in
                (v.rawValue, samples[v]?.map(\.peakResidentBytes).max() ?? 0)
            }))
    }

    /// Faultline and GRDB must have found the same (a benchmark of
    /// different results would compare nothing), and the limit must have
    /// read the rows the engine read.
    static func checkAgreement(_ pattern: Pattern, _ samples: [Variant: [Sample]]) throws {
        let found = Set([Variant.faultline, .faultlineSinksOff, .grdb, .faultlineGenerated].flatMap { samples[$0] ?? [] }.map(\.result))
        guard found.count == 1, found.first! != nil else {
            throw BenchmarkError("\(pattern.rawValue): the variants found different results (\(found.map { $0.map(String.init) ?? "none" }.sorted()))")
        }
        // The limit replays the engine's statements: it must read the rows
        // the engine read.
        let engine = Set((samples[.faultline] ?? []).compactMap(\.rowsRead))
        let replay = Set((samples[.limit] ?? []).compactMap(\.rowsRead))
        guard engine == replay else {
            throw BenchmarkError("\(pattern.rawValue): the replay read \(replay.sorted()) rows, the engine \(engine.sorted())")
        }
    }

    /// This executable: the driver starts itself as the worker.
    static func executable() throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }

    private func progress(_ text: String) {
        let line = isatty(STDERR_FILENO) == 1 ? "\r\u{1B}[K" + text : text + "\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
