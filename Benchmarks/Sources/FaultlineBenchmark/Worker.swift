import ArgumentParser
import CLimit
import Foundation
import ObjectGraph
import Probes
import BuiltInScenarios
import Scenarios

/// One sample of one pattern and variant, in a process of its own: the
/// driver starts one per (round, pattern, variant), so no variant inherits
/// another's heap, caches or page faults. The pattern runs once to warm up
/// (on its own copy when it writes), then once measured.
struct Worker: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Runs one pattern one way and prints one sample as JSON (the driver starts these).")

    @Option(help: "The pattern (\(Pattern.allCases.map(\.rawValue).joined(separator: ", "))).")
    var pattern: Pattern

    @Option(help: "limit, faultline, faultline-sinks-off, grdb or faultline-generated.")
    var variant: Variant

    @Option(help: "Data set scale.")
    var scale = 1.0

    @Option(help: "Data set seed.")
    var seed: UInt64 = 1

    @Option(help: "The database file the measured run uses (absent for CreateDataSet).")
    var file: String

    @Option(name: .customLong("warmup-file"), help: "The file the warm-up run uses (the same file for a pattern that only reads).")
    var warmupFile: String

    @Option(help: "The engine's SQL capture (the limit replays it; with the faultline variant, write it here).")
    var capture: String?

    @Option(help: "Object accesses in the pattern (the limit does as many lookups and copies).")
    var accesses = 0

    @Flag(inversion: .prefixedNo, help: "Whether the limit replays once before its measured replay.")
    var limitWarmup = true

    func run() throws {
        Self.keepTheHeap()
        let sample: Sample
        switch variant {
        case .limit: sample = try runLimit()
        case .faultline, .faultlineSinksOff, .faultlineGenerated: sample = try runFaultline()
        case .grdb: sample = try runGRDB()
        }
        print(String(decoding: try JSONEncoder().encode(sample), as: UTF8.self))
    }

    /// Keeps what the warm-up allocated mapped for the measured run: glibc
    /// returns a freed heap top to the system (trimming) and unmaps large
    /// blocks, so without this a variant whose warm-up freed more paid
    /// hundreds of page faults more in its measured run, and a sink could
    /// look cheaper than none (a recorder cost below 1x). Every variant
    /// runs with the same settings.
    static func keepTheHeap() {
        climit_keep_heap()
    }

    private func runLimit() throws -> Sample {
        guard let capture else { throw ValidationError("the limit needs --capture") }
        var result = climit_result()
        var error = [CChar](repeating: 0, count: 512)
        // The warm-up replay (unless asked not to) and the measured one:
        // callgrind counts only the measured one.
        for (path, measured) in (limitWarmup ? [(warmupFile, false)] : []) + [(file, true)] {
            guard climit_replay(path, capture, Int64(accesses), measured ? 1 : 0, &result, &error, error.count) == 0 else {
                throw BenchmarkError("limit replay: " + String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
        }
        return Sample(
            seconds: result.seconds, accesses: accesses, peakResidentBytes: ProcessMeasurements.peakResidentBytes() ?? 0,
            rowsRead: Int(result.rows_read), statements: Int(result.statements))
    }

    private func runFaultline() throws -> Sample {
        let recorder = variant == .faultlineSinksOff ? nil : ScenarioRunner.recorder()
        let sqlCapture = capture.map { _ in SQLCapture() }
        let run = FaultlineVariant(
            pattern: pattern, scale: scale, seed: seed, recorder: recorder, capture: sqlCapture, generatedClasses: variant == .faultlineGenerated)
        _ = try run.prepare(file: warmupFile)()
        let work = try run.prepare(file: file)
        recorder?.reset()
        sqlCapture?.isOn = true
        let start = ProbeClock.kernelNow()
        let values = try measuredPatternBody(work)
        let seconds = Double(ProbeClock.kernelNow() - start) / 1e9
        sqlCapture?.isOn = false
        var counted = accesses
        if let capture, let sqlCapture {
            try sqlCapture.write(to: capture)
            guard let recorder else { throw ValidationError("capturing needs the recorder (--variant faultline)") }
            counted = run.accesses(values: values, counters: recorder.counters)
        }
        return Sample(
            seconds: seconds, accesses: counted, peakResidentBytes: ProcessMeasurements.peakResidentBytes() ?? 0,
            rowsRead: recorder?.counters.rowsRead, statements: recorder?.counters.sqlStatements, result: run.result(values))
    }

    private func runGRDB() throws -> Sample {
        let run = GRDBVariant(pattern: pattern, scale: scale, seed: seed)
        _ = try run.prepare(file: warmupFile)()
        let work = try run.prepare(file: file)
        let start = ProbeClock.kernelNow()
        let found = try measuredPatternBody(work)
        return Sample(
            seconds: Double(ProbeClock.kernelNow() - start) / 1e9, accesses: accesses, peakResidentBytes: ProcessMeasurements.peakResidentBytes() ?? 0,
            result: found)
    }
}

/// Runs the measured work in a function of its own, with a fixed symbol
/// name, so that callgrind counts it alone
/// (`--toggle-collect=*faultline_measured_pattern_body*`: specialised
/// copies carry the name inside theirs).
func measuredPatternBody<T>(_ work: () throws -> T) throws -> T {
    var result: T?
    try measuredPatternBody { result = try work() }
    return result!
}

@inline(never) @_silgen_name("faultline_measured_pattern_body")
func measuredPatternBody(_ work: () throws -> Void) throws {
    try work()
}

extension Pattern: ExpressibleByArgument {}
extension Variant: ExpressibleByArgument {}
