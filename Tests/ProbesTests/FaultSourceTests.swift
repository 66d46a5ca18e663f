import Testing
@testable import Probes

/// The tracepoints receive a fault's source as a static C string; it must
/// spell what the recorder, the log and the reports call it.
@Suite struct FaultSourceTests {
    @Test(arguments: [FaultSource.context, .rowCache, .database])
    func cNameSpellsTheRawValue(source: FaultSource) {
        #expect(String(cString: source.cName) == source.rawValue)
    }
}
