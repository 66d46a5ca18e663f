import Foundation
import ObjectGraph
import BuiltInScenarios
import Scenarios

/// Starts the worker processes: the files each sample works on, the
/// capture of the engine's SQL, callgrind, and perf-run's own peak memory.
struct Bench {
    let work: URL
    let worker: String
    let cache = DataSetCache()

    /// What every sample of a pattern at one scale shares.
    struct Prepared {
        /// The cached data set (nil for CreateDataSet, which builds it).
        let source: String?
        /// The engine's SQL for the pattern, for the limit.
        let capture: String
        /// The pattern's object accesses.
        let accesses: Int
    }

    /// Builds (or reuses) the data set, and captures the engine's SQL and
    /// the number of accesses from one run of the Faultline variant.
    func prepare(_ pattern: Pattern, scale: Double) throws -> Prepared {
        let source = pattern.createsTheStore ? nil : try cache.file(for: pattern.dataSet, scale: scale, seed: 1)
        let capture = work.appendingPathComponent("\(pattern.rawValue)-\(scale).capture").path
        let files = try files(for: pattern, source: source, name: "capture")
        defer { files.remove() }
        let sample = try runWorker([
            "--pattern", pattern.rawValue, "--variant", Variant.faultline.rawValue, "--scale", "\(scale)", "--file", files.measured,
            "--warmup-file", files.warmup, "--capture", capture,
        ])
        return Prepared(source: source, capture: capture, accesses: sample.accesses)
    }

    /// One sample, in a worker process of its own, on fresh copies.
    func sample(_ pattern: Pattern, _ variant: Variant, _ prepared: Prepared, scale: Double) throws -> Sample {
        let files = try files(for: pattern, source: prepared.source, name: variant.rawValue, variant: variant)
        defer { files.remove() }
        return try runWorker(arguments(pattern, variant, prepared, files, scale: scale))
    }

    /// Instructions in the measured work of one run under callgrind. For
    /// the limit, the count is checked to be one replay's: the same run
    /// without its warm-up replay must count about the same. A replay
    /// alone starts cold (SQLite reads and parses its pages: FetchAll at
    /// scale 0.2 counts 1.7% more), so the check allows 25%; a second
    /// replay counted would double the figure.
    func instructions(_ pattern: Pattern, _ variant: Variant, _ prepared: Prepared, scale: Double) throws -> Int {
        let count = try countInstructions(pattern, variant, prepared, scale: scale, extra: [])
        guard variant == .limit else { return count }
        let alone = try countInstructions(pattern, variant, prepared, scale: scale, extra: ["--no-limit-warmup"])
        guard abs(Double(count - alone)) <= 0.25 * Double(alone) else {
            throw BenchmarkError("\(pattern.rawValue): the limit counted \(count) instructions, one replay alone \(alone): not one replay")
        }
        return count
    }

    private func countInstructions(_ pattern: Pattern, _ variant: Variant, _ prepared: Prepared, scale: Double, extra: [String]) throws -> Int {
        // valgrind 3.19 cannot read the DWARF 5 that swiftc writes: count
        // on a copy without debug information (symbols stay).
        let stripped = work.appendingPathComponent("worker-stripped").path
        if !FileManager.default.fileExists(atPath: stripped) {
            try FileManager.default.copyItem(atPath: worker, toPath: stripped)
            try run("/usr/bin/env", ["strip", "--strip-debug", stripped])
        }
        let files = try files(for: pattern, source: prepared.source, name: "callgrind-\(variant.rawValue)", variant: variant)
        defer { files.remove() }
        let output = work.appendingPathComponent("callgrind.out").path
        try? FileManager.default.removeItem(atPath: output)
        try run("/usr/bin/env", [
            "valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=*faultline_measured_pattern_body*",
            "--toggle-collect=climit_measured", "--callgrind-out-file=\(output)", stripped, "worker",
        ] + arguments(pattern, variant, prepared, files, scale: scale) + extra, quiet: true)
        let text = try String(contentsOfFile: output, encoding: .utf8)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("totals:") || $0.hasPrefix("summary:") }),
              let count = Int(line.split(separator: " ").last ?? "")
        else { throw BenchmarkError("no instruction total in \(output)") }
        return count
    }

    /// Peak resident memory of `perf-run run Prefetch` (one iteration).
    func perfRunPeak(_ perfRun: String, scale: Double) throws -> Int? {
        let json = work.appendingPathComponent("prefetch.json").path
        try run(perfRun, [
            "run", "Prefetch", "--scale", "\(scale)", "--iterations", "1", "--warmup", "0", "--quiet", "--json", json,
            "--html", work.appendingPathComponent("prefetch.html").path,
        ])
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any]
        let scenario = (report?["scenarios"] as? [[String: Any]])?.first
        return (scenario?["samples"] as? [[String: Any]])?.compactMap { $0["peakResidentBytes"] as? Int }.max()
    }

    // MARK: Files and processes

    struct Files {
        let measured: String
        let warmup: String
        func remove() {
            for path in [measured, warmup] {
                for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
            }
        }
    }

    /// Fresh copies of the data set for the measured and the warm-up run;
    /// paths where nothing is yet for CreateDataSet, except for the limit,
    /// whose replay of the engine's inserts starts from the empty schema
    /// (the engine creates it without statements the hook sees).
    private func files(for pattern: Pattern, source: String?, name: String, variant: Variant = .faultline) throws -> Files {
        let files = Files(
            measured: work.appendingPathComponent("\(name)-measured.sqlite").path, warmup: work.appendingPathComponent("\(name)-warmup.sqlite").path)
        files.remove()
        if let source {
            try FileManager.default.copyItem(atPath: source, toPath: files.measured)
            try FileManager.default.copyItem(atPath: source, toPath: files.warmup)
        } else if variant == .limit {
            var configuration = StoreConfiguration()
            configuration.sinks = []
            for path in [files.measured, files.warmup] {
                _ = try Store(model: pattern.dataSet.model, location: .file(path), configuration: configuration)
            }
        }
        return files
    }

    private func arguments(_ pattern: Pattern, _ variant: Variant, _ prepared: Prepared, _ files: Files, scale: Double) -> [String] {
        var arguments = [
            "--pattern", pattern.rawValue, "--variant", variant.rawValue, "--scale", "\(scale)", "--file", files.measured,
            "--warmup-file", files.warmup, "--accesses", "\(prepared.accesses)",
        ]
        // Only the limit reads the capture; only the preparation writes it.
        if variant == .limit { arguments += ["--capture", prepared.capture] }
        return arguments
    }

    private func runWorker(_ arguments: [String]) throws -> Sample {
        let output = try run(worker, ["worker"] + arguments)
        guard let line = output.split(separator: "\n").last, let sample = try? JSONDecoder().decode(Sample.self, from: Data(line.utf8)) else {
            throw BenchmarkError("the worker printed no sample: \(output)")
        }
        return sample
    }

    @discardableResult
    private func run(_ executable: String, _ arguments: [String], quiet: Bool = false) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = quiet ? FileHandle.nullDevice : err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = quiet ? Data() : err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("\((executable as NSString).lastPathComponent) \(arguments.prefix(6).joined(separator: " ")) failed: \(String(decoding: errors, as: UTF8.self))")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
