import Foundation
import ObjectGraph
import Probes
import Testing

@Suite struct TraceEventFileTests {
    @Test func slicesHaveWhatTheFormatRequiresAndNest() throws {
        let path = try Workload.populate(people: 2, selfies: 3, networks: 1)
        let recorder = Recorder(bufferCapacity: 50_000)
        try LogWorkload.run(try Workload.store(path, sinks: [recorder]))
        let events = recorder.snapshot().events
        let data = try TraceEventFile.render(events, processID: 42)
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let slices = try #require(document["traceEvents"] as? [[String: Any]])
        // An object fault from the database is also marked by a cache-miss
        // instant, with the fault's miss reason: the engine sends no
        // cache-miss event.
        let misses = events.compactMap { event -> FaultEvent? in
            if case .fault(let e) = event, e.source == .database { return e }
            return nil
        }
        #expect(misses.count == 1)
        #expect(slices.count == events.count + misses.count)
        let marks = slices.filter { $0["cat"] as? String == "cache_miss" }
        #expect(marks.map { $0["name"] as? String } == misses.map { "cache miss \($0.entity)" })
        #expect(marks.map { $0["args"] as? [String: String] } == misses.map { ["object": $0.objectID, "reason": "absent"] })
        #expect(marks.allSatisfy { $0["ph"] as? String == "i" })
        #expect(document["displayTimeUnit"] as? String == "ms")
        for slice in slices {
            #expect(slice["name"] is String)
            #expect(slice["pid"] as? Int == 42)
            #expect(slice["tid"] as? Int != nil)
            let phase = try #require(slice["ph"] as? String)
            #expect(phase == "X" || phase == "i")
            #expect((slice["ts"] as? Double ?? -1) >= 0)
            if phase == "X" { #expect((slice["dur"] as? Double ?? -1) >= 0) }
        }
        // Timestamps are microseconds from the first event.
        let first = try #require(events.map(\.start).min())
        let fetchEvent = try #require(events.first { $0.kind == .fetch })
        let fetchSlice = try #require(slices.first { ($0["name"] as? String) == "fetch Selfie" })
        #expect(fetchSlice["ts"] as? Double == Double(fetchEvent.start - first) / 1000)
        #expect(fetchSlice["dur"] as? Double == Double(fetchEvent.durationNanoseconds) / 1000)
        // The fetch's own statements nest inside its slice, on its thread.
        let begin = fetchSlice["ts"] as! Double
        let end = begin + (fetchSlice["dur"] as! Double)
        let inside = slices.filter { slice in
            (slice["name"] as? String)?.hasPrefix("sql fetch Selfie") == true || (slice["name"] as? String)?.hasPrefix("sql prefetch") == true
        }
        #expect(inside.count == 3)
        for slice in inside {
            let ts = slice["ts"] as! Double
            #expect(ts >= begin && ts + (slice["dur"] as! Double) <= end)
            #expect(slice["tid"] as? Int == fetchSlice["tid"] as? Int)
        }
    }
}
