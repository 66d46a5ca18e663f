import ObjectGraph
import Probes
import Testing

/// The workload's counters and statements, from the recorder and a
/// collector: the reference the bridges' figures are checked against.
@Suite struct WorkloadReferenceTests {
    @Test func theWorkloadsEventsAreTheOnesTheBridgeTestsCount() throws {
        let path = try BridgeWorkload.populate()
        let recorder = Recorder()
        let events = InMemorySink(details: [])
        try BridgeWorkload.run(try BridgeWorkload.store(path, sinks: [recorder, events]))
        var expected = Counters()
        expected.fetches = 2
        expected.faultsFired = 5
        expected.cacheHits = 3
        expected.relationshipFaultsFired = 2
        expected.cacheMisses = 4
        expected.saves = 1
        expected.batchRequests = 1
        expected.sqlStatements = 15
        expected.rowsRead = recorder.counters.rowsRead
        expected.rowsWritten = 4
        expected.fullScanSteps = recorder.counters.fullScanSteps
        expected.vmSteps = recorder.counters.vmSteps
        expected.objectsRegisteredPeak = recorder.counters.objectsRegisteredPeak
        #expect(recorder.counters == expected)
        let statements = events.events.compactMap { event -> String? in
            if case .sql(let e) = event { return "\(StatementSummary(e.shape).summary) [\(e.purpose)]" }
            return nil
        }
        #expect(statements == [
            "BEGIN [transaction]", "SELECT Selfie [fetch Selfie]", "SELECT Person_selfies [relationship fault Selfie.people]",
            "SELECT Person [fault]", "SELECT Person [fault]", "SELECT Person_selfies [relationship fault Selfie.people]",
            "BEGIN [transaction]", "UPDATE Selfie [save]", "COMMIT [transaction]", "COMMIT [transaction]", "BEGIN [transaction]",
            "SELECT Person [count Person]", "BEGIN [transaction]", "UPDATE Selfie [batch]", "COMMIT [transaction]",
        ])
    }
}
