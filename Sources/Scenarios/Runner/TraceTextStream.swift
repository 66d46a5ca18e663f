import Foundation
import Probes

/// babeltrace2's text output as it comes, in chunks that split lines
/// anywhere, read line by line into ``TraceCounters``: a trace of a full
/// run holds millions of events, and is never held whole.
final class TraceTextStream {
    private var counters: TraceCounters
    private var pending = Data()

    /// Counts only the events of `processID` (the trace has the `vpid` context).
    init(processID: Int32) {
        counters = TraceCounters(processID: processID)
    }

    /// Reads the whole lines `chunk` completes; keeps the rest for the next.
    func append(_ chunk: Data) {
        pending.append(chunk)
        guard let last = pending.lastIndex(of: 0x0A) else { return }
        let text = String(decoding: pending[pending.startIndex..<last], as: UTF8.self)
        for line in text.split(separator: "\n") { counters.consume(line) }
        pending = Data(pending[(last + 1)...])
    }

    /// Reads what is left (a last line without its newline) and returns the
    /// counters and statements per scenario.
    func finish() -> TraceReadBack {
        if !pending.isEmpty { counters.consume(Substring(String(decoding: pending, as: UTF8.self))) }
        pending = Data()
        return counters.readBack
    }
}
