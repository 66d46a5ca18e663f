import Foundation
import Testing

/// The targets of `make bench-probes` (scripts/bench-probes-targets.sh):
/// each printed beside its figure, met, not met, or not measured, the
/// stretch judged where there is one, a timed figure by its interval
/// (inconclusive when it spans the bound); a figure that names no target is
/// an error.
@Suite struct ProbeTargetsScriptTests {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/bench-probes-targets.sh").path

    /// `probe_targets` with `figures` as its arguments: status, standard
    /// output's lines (trailing spaces kept), standard error.
    static func judge(_ figures: [String]) throws -> (status: Int32, lines: [String], errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "set -euo pipefail; source \"$0\"; probe_targets \"$@\"", script] + figures
        let (out, err) = (Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init),
                String(decoding: errors, as: UTF8.self))
    }

    /// A line's words, its padding folded.
    static func words(_ line: String) -> String { line.split(separator: " ").joined(separator: " ") }

    @Test func eachTargetIsPrintedBesideItsFigure() throws {
        let result = try Self.judge(["sinks-off=0.0800", "recorder=9.1234", "lttng=17.3"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.lines.map(Self.words) == [
            "sinks off, instructions against compiled out +0.08% target <= +0.1%: met",
            "recorder on, instructions against compiled out +9.12% target <= +6.6%: not met",
            "LTTng session, instructions against no session +17.30% target <= +20%: met; stretch <= +15%: not met",
            // No wall time measured (BENCH_WALL_PAIRS=0).
            "LTTng session, wall time against no session (median of pairs) - target <= +20%: not measured",
        ])
        // The figures line up in one column.
        let columns = Set(result.lines.map { $0.range(of: "  target")!.lowerBound.utf16Offset(in: $0) })
        #expect(columns.count == 1)
    }

    @Test func aBoundIsMetAtItsValueAndTheStretchJudgedApart() throws {
        let result = try Self.judge(["sinks-off=0.1", "recorder=6.61", "lttng=15", "lttng-wall=20.01"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.lines.map(Self.words) == [
            "sinks off, instructions against compiled out +0.10% target <= +0.1%: met",
            "recorder on, instructions against compiled out +6.61% target <= +6.6%: not met",
            "LTTng session, instructions against no session +15.00% target <= +20%: met; stretch <= +15%: met",
            "LTTng session, wall time against no session (median of pairs) +20.01% target <= +20%: not met; stretch <= +15%: not met",
        ])
    }

    /// A timed figure is judged by its 95% interval: met only when all of
    /// it is within the bound, not met only when all of it is beyond, and
    /// inconclusive when it spans the bound, whatever side its median is
    /// on (the machine's noise moves the median, not the verdict).
    @Test func aTimedFigureIsJudgedByItsInterval() throws {
        let verdicts = try ["18.8:15.1:19.9", "19.2:16.8:22.9", "23.5:17.2:27.0", "21.0:20.5:25.0", "14.0:12.0:15.0"].map {
            let result = try Self.judge(["lttng-wall=\($0)"])
            #expect(result.status == 0, "\(result.errors)")
            return Self.words(try #require(result.lines.last))
        }
        #expect(verdicts == [
            "LTTng session, wall time against no session (median of pairs) +18.80% target <= +20%: met; stretch <= +15%: not met (95% CI +15.1% .. +19.9%)",
            "LTTng session, wall time against no session (median of pairs) +19.20% target <= +20%: inconclusive; stretch <= +15%: not met (95% CI +16.8% .. +22.9%)",
            "LTTng session, wall time against no session (median of pairs) +23.50% target <= +20%: inconclusive; stretch <= +15%: not met (95% CI +17.2% .. +27.0%)",
            "LTTng session, wall time against no session (median of pairs) +21.00% target <= +20%: not met; stretch <= +15%: not met (95% CI +20.5% .. +25.0%)",
            "LTTng session, wall time against no session (median of pairs) +14.00% target <= +20%: met; stretch <= +15%: met (95% CI +12.0% .. +15.0%)",
        ])
    }

    @Test func aFigureThatIsNoTargetsOrNoNumberIsAnError() throws {
        let unknown = try Self.judge(["sinks-off=0.1", "lttng-idle=3.6"])
        #expect(unknown.status == 2 && unknown.lines.isEmpty)
        #expect(unknown.errors == "probe_targets: no target for lttng-idle\n")
        let notANumber = try Self.judge(["recorder=+9.1%"])
        #expect(notANumber.status == 2 && notANumber.lines.isEmpty)
        #expect(notANumber.errors == "probe_targets: recorder=+9.1% is not FIGURE=PERCENT or FIGURE=PERCENT:LOW:HIGH\n")
        let halfAnInterval = try Self.judge(["lttng-wall=20.4:16.8"])
        #expect(halfAnInterval.status == 2 && halfAnInterval.lines.isEmpty)
        #expect(halfAnInterval.errors.hasPrefix("probe_targets: lttng-wall=20.4:16.8 is not"))
    }
}
