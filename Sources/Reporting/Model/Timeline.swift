import Foundation
import Probes
import ToolSupport

/// The timed events of a run's last iterations, as the HTML report draws
/// them: each one's kind, start and duration. Made from the recorded events
/// or read back from the trace file they were written to
/// (`--trace-events`, ``TraceEventFile``), which gives the same timeline:
/// `perf-run report` makes the page `perf-run run` made from the same files.
///
/// Each slice belongs to the scenario whose iteration ended next after it
/// began (the `iteration-end` scenario event, which a bounded buffer never
/// drops: it drops the oldest events), so that the page draws each
/// scenario on its own axis.
public struct Timeline: Equatable, Sendable {
    public struct Slice: Equatable, Sendable {
        public var kind: EventKind
        /// Nanoseconds from any fixed origin.
        public var start: UInt64
        public var duration: UInt64
        /// The scenario it ran in; nil where no scenario event follows it.
        public var scenario: String?
    }

    /// One scenario's slices.
    public struct Part: Equatable, Sendable {
        /// The scenario; nil for slices no scenario event follows.
        public var scenario: String?
        public var slices: [Slice]
    }

    public var slices: [Slice]

    public init(slices: [Slice]) { self.slices = slices }

    /// The slices of `events` (instant events have none), each with its scenario.
    public init(events: [Event]) {
        let ends = events.compactMap { event -> (start: UInt64, scenario: String)? in
            guard case .scenario(let e) = event, e.phase == .iterationEnd || e.phase == .end else { return nil }
            return (e.start, e.scenario)
        }
        slices = Self.attributed(events.map { Slice(kind: $0.kind, start: $0.start, duration: $0.durationNanoseconds) }, ends: ends)
    }

    /// `slices` with the scenario of the first end at or after each one's start.
    static func attributed(_ slices: [Slice], ends: [(start: UInt64, scenario: String)]) -> [Slice] {
        let ends = ends.sorted { $0.start < $1.start }
        guard !ends.isEmpty else { return slices }
        return slices.map { slice in
            var slice = slice
            // The first end not before the slice (a binary search: traces are long).
            var (low, high) = (0, ends.count)
            while low < high {
                let middle = (low + high) / 2
                if ends[middle].start < slice.start { low = middle + 1 } else { high = middle }
            }
            slice.scenario = low < ends.count ? ends[low].scenario : nil
            return slice
        }
    }

    /// The slices by scenario, in the order the scenarios ran (slices that
    /// no scenario event follows last).
    public var parts: [Part] {
        var parts: [Part] = []
        var index: [String?: Int] = [:]
        for slice in slices.sorted(by: { $0.start < $1.start }) {
            if let position = index[slice.scenario] {
                parts[position].slices.append(slice)
            } else {
                index[slice.scenario] = parts.count
                parts.append(Part(scenario: slice.scenario, slices: [slice]))
            }
        }
        if let position = index[nil], position != parts.count - 1 { parts.append(parts.remove(at: position)) }
        return parts
    }

    private struct TraceFile: Decodable {
        struct Entry: Decodable {
            let cat: String
            let ph: String
            let ts: Double
            let dur: Double?
            let args: Arguments?
        }

        /// A scenario event's arguments; others are not read.
        struct Arguments: Decodable {
            let scenario: String?
            let phase: String?

            private enum CodingKeys: String, CodingKey { case scenario, phase }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                scenario = try? container.decodeIfPresent(String.self, forKey: .scenario)
                phase = try? container.decodeIfPresent(String.self, forKey: .phase)
            }
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
        var ends: [(start: UInt64, scenario: String)] = []
        for (index, entry) in file.traceEvents.enumerated() {
            if entry.ph == "i", entry.cat == EventKind.scenario.rawValue, let scenario = entry.args?.scenario,
               let phase = entry.args?.phase.flatMap(ScenarioPhase.init(rawValue:)), phase == .iterationEnd || phase == .end {
                ends.append((try nanoseconds(entry.ts, "ts", index), scenario))
            }
            guard entry.ph == "X", let kind = EventKind(rawValue: entry.cat) else { continue }
            slices.append(Slice(
                kind: kind, start: try nanoseconds(entry.ts, "ts", index), duration: try nanoseconds(entry.dur ?? 0, "dur", index)))
        }
        self.slices = Self.attributed(slices, ends: ends)
    }
}
