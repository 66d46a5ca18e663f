import Foundation
import Probes
import ToolSupport

/// The timed events of a run's last iterations, as the HTML report draws
/// them: each one's kind, start and duration. Made from the recorded events
/// or read back from the trace file they were written to
/// (`--trace-events`, ``TraceEventFile``), which gives the same timeline:
/// `perf-run report` makes the page `perf-run run` made from the same files.
public struct Timeline: Equatable, Sendable {
    public struct Slice: Equatable, Sendable {
        public var kind: EventKind
        /// Nanoseconds from any fixed origin.
        public var start: UInt64
        public var duration: UInt64
    }

    public var slices: [Slice]

    public init(slices: [Slice]) { self.slices = slices }

    /// The slices of `events` (instant events have none).
    public init(events: [Event]) {
        slices = events.map { Slice(kind: $0.kind, start: $0.start, duration: $0.durationNanoseconds) }
    }

    private struct TraceFile: Decodable {
        struct Entry: Decodable {
            let cat: String
            let ph: String
            let ts: Double
            let dur: Double?
        }

        let traceEvents: [Entry]
    }

    /// The timeline of a trace file that ``TraceEventFile`` wrote; `path`
    /// names it in errors. Complete slices (`"ph": "X"`) of Faultline's
    /// event kinds are kept; times in microseconds become nanoseconds again.
    public init(traceEvents data: Data, path: String) throws(ReportError) {
        let file: TraceFile
        do {
            file = try JSONDecoder().decode(TraceFile.self, from: data)
        } catch let error as DecodingError {
            throw ReportError("\(path): not a trace file of perf-run run --trace-events: \(ReportDecodingFailure.describe(error))")
        } catch {
            throw ReportError("\(path): not a trace file of perf-run run --trace-events: \(error)")
        }
        func nanoseconds(_ micros: Double, _ key: String, _ index: Int) throws(ReportError) -> UInt64 {
            let value = (micros * 1000).rounded()
            guard value.isFinite, value >= 0, value < 0x1p63 else {
                throw ReportError("\(path): traceEvents[\(index)].\(key): \(micros) is not a time in microseconds from the trace's start")
            }
            return UInt64(value)
        }
        var slices: [Slice] = []
        for (index, entry) in file.traceEvents.enumerated() where entry.ph == "X" {
            guard let kind = EventKind(rawValue: entry.cat) else { continue }
            slices.append(Slice(
                kind: kind, start: try nanoseconds(entry.ts, "ts", index), duration: try nanoseconds(entry.dur ?? 0, "dur", index)))
        }
        self.slices = slices
    }
}
