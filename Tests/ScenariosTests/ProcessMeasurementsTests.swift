import Foundation
import Testing
@testable import Scenarios

/// Peak resident memory as reports and the benchmark's workers record it.
@Suite(.serialized) struct ProcessMeasurementsTests {
    static let megabyte = 1 << 20

    /// Allocates `megabytes`, writes every page, and frees it on return of
    /// `body` (an allocation this large is mapped, so freeing unmaps it).
    static func touching<R>(_ megabytes: Int, _ body: () -> R) -> R {
        let count = megabytes * megabyte
        let memory = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 4096)
        defer { memory.deallocate() }
        for offset in stride(from: 0, to: count, by: 4096) { memory.storeBytes(of: 1, toByteOffset: offset, as: UInt8.self) }
        return body()
    }

    @Test func thePeakCountsMemoryThisProcessTouched() throws {
        // At least what is resident while the memory is held, whatever
        // other tests running beside this one reset or allocate.
        let during = try #require(Self.touching(64) { ProcessMeasurements.peakResidentBytes() })
        #expect(during >= 64 * Self.megabyte)
    }

    @Test func aResetPeakStartsAgainFromWhatIsResident() throws {
        let peak = try #require(Self.touching(256) { ProcessMeasurements.peakResidentBytes() })
        #expect(ProcessMeasurements.resetPeakResident(), "/proc/self/clear_refs is not writable here")
        let afterReset = try #require(ProcessMeasurements.peakResidentBytes())
        // The 256 MB were unmapped before the reset: the new peak is what
        // is resident now, well below the old one.
        #expect(afterReset < peak - 128 * Self.megabyte)
    }
}
