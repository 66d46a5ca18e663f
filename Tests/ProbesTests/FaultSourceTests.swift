import Testing
@testable import Probes

/// The tracepoints receive a fault's source and a miss's reason as values
/// of their enumerations, whose labels (faultline_tp.h: `context` 0, `row
/// cache` 1, `database` 2; `""` 0, `absent` 1, `stale` 2) spell what the
/// recorder, the log and the reports call them.
@Suite struct FaultSourceTests {
    @Test func sourcesAreTheEnumerationsValues() {
        #expect([FaultSource.context, .rowCache, .database].map(\.traceValue) == [0, 1, 2])
        #expect([FaultSource.context, .rowCache, .database].map(\.rawValue) == ["context", "row cache", "database"])
    }

    @Test func missReasonsAreTheEnumerationsValuesAfterNone() {
        #expect([CacheMissReason.absent, .stale].map(\.traceValue) == [1, 2])
        #expect([CacheMissReason.absent, .stale].map(\.rawValue) == ["absent", "stale"])
    }
}
