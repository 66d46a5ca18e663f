import Foundation
import Probes

/// A fixed workload, timed before each measured iteration, that tells how
/// fast the machine is at that moment (``MachineProbe`` in the report).
///
/// It does what the engine does most, in a fixed amount: it follows a
/// chain of indices through 128 KiB (memory latency, as a fault's lookup
/// in the row cache and the identity map), hashes and sorts 512 numbers
/// (compute, as a predicate or a statement's binding), and allocates and
/// frees (as objects come and go). Every run does the same instructions on
/// the same data, so a change of its time is a change of the machine: a
/// slower CPU, another job on the same cores or caches, a throttled
/// virtual machine. About 0.15 ms in a release build, 0.7 ms in a debug one.
///
/// Before an iteration of a scenario that writes, it also times writing a
/// page and syncing it to the disk (``sync(in:)``): the disk is the other
/// part of the machine a save waits for, and on a shared machine its
/// latency moves with what others write (a build beside the run made a
/// sync take 20 times longer in one run than in the next).
public enum MachineSpeedProbe {
    /// One run's time.
    public struct Timing: Equatable, Sendable {
        public var cpuSeconds: Double
        public var wallSeconds: Double
    }

    /// Entries in the chain: 32 Ki of UInt32, 128 KiB.
    static let chainLength = 1 << 15
    /// Numbers hashed and sorted.
    static let sortedCount = 512

    /// The chain, made once: a single cycle through every entry, in an
    /// order a fixed seed decides (Sattolo's shuffle).
    private static let chain: [UInt32] = {
        var next = [UInt32](unsafeUninitializedCapacity: chainLength) { buffer, count in
            for index in 0..<chainLength { buffer[index] = UInt32(index) }
            count = chainLength
        }
        var generator = SeededGenerator(seed: 0x5EED_F00D)
        for index in stride(from: chainLength - 1, to: 0, by: -1) {
            next.swapAt(index, Int(generator.next() % UInt64(index)))
        }
        return next
    }()

    /// Runs the workload once and times it.
    public static func run() -> Timing {
        let chain = Self.chain
        let cpuStart = ProcessMeasurements.cpuSeconds()
        let wallStart = ProbeClock.now()
        let result = work(chain)
        let wall = Double(ProbeClock.nanoseconds(since: wallStart)) / 1e9
        let cpu = ProcessMeasurements.cpuSeconds() - cpuStart
        blackHole(result)
        return Timing(cpuSeconds: cpu, wallSeconds: wall)
    }

    /// Writes one page into a scratch file in `directory` and syncs it
    /// (`fdatasync`), timed on the wall clock; nil when the file cannot be
    /// written (the probe is then left out, never the run).
    public static func sync(in directory: String) -> Double? {
        let path = directory + "/machine-probe"
        let file = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { return nil }
        defer { close(file) }
        syncRound &+= 1
        var page = [UInt8](repeating: UInt8(truncatingIfNeeded: syncRound), count: 4_096)
        let start = ProbeClock.now()
        let written = page.withUnsafeMutableBytes { pwrite(file, $0.baseAddress, $0.count, 0) }
        guard written == 4_096, fdatasync(file) == 0 else { return nil }
        return Double(ProbeClock.nanoseconds(since: start)) / 1e9
    }

    /// Changes the page each time, so that every sync writes.
    nonisolated(unsafe) private static var syncRound: UInt8 = 0

    /// The workload: the same instructions every time, whose result
    /// depends on every step (so that nothing is left out).
    static func work(_ chain: [UInt32]) -> UInt64 {
        var total: UInt64 = 0
        chain.withUnsafeBufferPointer { links in
            var at = 0
            for _ in 0..<chainLength {
                at = Int(links[at])
                total &+= UInt64(at)
            }
        }
        var numbers = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: sortedCount)
        defer { numbers.deallocate() }
        var generator = SeededGenerator(seed: total | 1)
        for index in 0..<sortedCount { numbers[index] = generator.next() }
        numbers.sort()
        for index in stride(from: 0, to: sortedCount, by: 16) { total ^= numbers[index] }
        return total
    }

    /// Keeps a result alive: the optimizer cannot drop the work.
    @inline(never)
    private static func blackHole(_ value: UInt64) {
        if value == 0x0123_4567_89AB_CDEF { FileHandle.standardError.write(Data()) }
    }
}
